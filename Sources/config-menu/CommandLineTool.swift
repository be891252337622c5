import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration

/// Exit codes, documented in `config-menu --help` and the README.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
    case invalidValue = 3
    case ioFailure = 4
}

/// A failure with its exit code; the message goes to standard error.
struct ToolError: Error, CustomStringConvertible {
    var code: ExitCode
    var description: String
}

enum CommandLineTool {
    static let usage = """
        usage: config-menu [options]            open the debug menu

        options:
          --store FILE            the override store (default: $CONFIG_OVERRIDES_FILE, else
                                  $XDG_STATE_HOME/service-configuration-demo/overrides.json,
                                  else ~/.local/state/service-configuration-demo/overrides.json)
          --synthetic-keys N      a made-up catalog of N keys (scale testing), in N/100 scopes
          --synthetic-scopes M    ... or in M scopes
          --no-mouse              ignore the mouse
          -h, --help              show this help

        environment: NO_COLOR turns colours off; VISUAL or EDITOR edits JSON and text values.

        exit codes: 0 success, 1 failure (for example no usable terminal), 2 usage error,
                    3 invalid value or unknown key, 4 I/O failure (the store)
        """

    static func main(_ arguments: [String]) -> Int32 {
        do {
            try run(arguments)
            return ExitCode.success.rawValue
        } catch let error as ToolError {
            FileHandle.standardError.write(Data("config-menu: \(error)\n".utf8))
            return error.code.rawValue
        } catch let error as TerminalUnavailable {
            FileHandle.standardError.write(Data("config-menu: \(error)\n".utf8))
            return ExitCode.failure.rawValue
        } catch {
            FileHandle.standardError.write(Data("config-menu: \(error)\n".utf8))
            return ExitCode.failure.rawValue
        }
    }

    static func run(_ arguments: [String]) throws {
        var store: String?
        var synthetic: Int?
        var syntheticScopes: Int?
        var mouse = true
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                print(usage)
                return
            case "--store":
                store = try value(of: argument, from: &remaining)
            case "--synthetic-keys":
                let text = try value(of: argument, from: &remaining)
                guard let count = Int(text), count > 0, count <= 10_000_000 else {
                    throw ToolError(
                        code: .usage, description: "--synthetic-keys needs a positive number, got \"\(text)\"")
                }
                synthetic = count
            case "--synthetic-scopes":
                let text = try value(of: argument, from: &remaining)
                guard let count = Int(text), count > 0 else {
                    throw ToolError(
                        code: .usage, description: "--synthetic-scopes needs a positive number, got \"\(text)\"")
                }
                syntheticScopes = count
            case "--no-mouse":
                mouse = false
            default:
                throw ToolError(code: .usage, description: "unknown option \(argument)\n\n\(usage)")
            }
        }
        let catalog: ConfigurationCatalog
        let serverValues: [String: String]
        let label: String
        if let synthetic {
            let scopes = syntheticScopes ?? max(1, synthetic / 100)
            (catalog, serverValues) = try DemoConfiguration.synthetic(keys: synthetic, scopes: scopes)
            label = "synthetic catalog"
        } else {
            catalog = try DemoConfiguration.makeCatalog()
            serverValues = DemoConfiguration.serverValues
            label = "demo catalog"
        }
        let url =
            store.map { URL(fileURLWithPath: $0) } ?? FileOverrideStore.defaultURL(appName: DemoConfiguration.appName)
        let overrideStore = FileOverrideStore(url: url)
        let service = LiveConfigurationService(
            serverValues: serverValues, catalog: catalog, overrideStore: overrideStore)
        try ConfigurationDebugMenu(
            catalog: catalog,
            service: service,
            options: .init(mouse: mouse, label: label)
        ).run()
    }

    static func value(of option: String, from arguments: inout ArraySlice<String>) throws -> String {
        guard let value = arguments.popFirst() else {
            throw ToolError(code: .usage, description: "\(option) needs a value")
        }
        return value
    }
}
