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

    /// A usage error pointing at the relevant help.
    static func usage(_ message: String, command: String? = nil) -> ToolError {
        let hint = command.map { "config-menu \($0) --help" } ?? "config-menu --help"
        return ToolError(code: .usage, description: "\(message) (see \(hint))")
    }
}

/// The parsed command line: global options, the subcommand, its arguments and options.
struct Invocation {
    var command: String?
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Options that take a value.
    static let valued: Set<String> = [
        "--store", "--manifest", "--server-values", "--synthetic-keys", "--synthetic-scopes", "--note", "--scope",
        "--server-url", "--sync-interval",
    ]
    /// Options every command accepts.
    static let global: Set<String> = [
        "--store", "--manifest", "--server-values", "--synthetic-keys", "--synthetic-scopes", "--help",
        "--server-url", "--sync-interval",
    ]

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if !optionsEnded, argument == "--" {
                optionsEnded = true
            } else if !optionsEnded, argument == "-h" {
                flags.insert("--help")
            } else if !optionsEnded, argument.hasPrefix("--") {
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                if Self.valued.contains(name) {
                    guard let given = value ?? remaining.popFirst() else {
                        throw ToolError.usage("\(name) needs a value")
                    }
                    options[name] = given
                } else {
                    guard value == nil else { throw ToolError.usage("\(name) takes no value") }
                    flags.insert(name)
                }
            } else if command == nil {
                command = argument
            } else {
                positional.append(argument)
            }
        }
    }

    /// Refuses options the command does not take.
    func check(allowed: Set<String>) throws {
        for option in Set(options.keys).union(flags).sorted()
        where !allowed.contains(option) && !Self.global.contains(option) {
            throw ToolError.usage("\(command ?? "the menu") does not take \(option)", command: command)
        }
    }
}

enum CommandLineTool {
    static func main(_ arguments: [String]) -> Int32 {
        do {
            try run(try Invocation(arguments))
            return ExitCode.success.rawValue
        } catch let error as ToolError {
            report(error.description)
            return error.code.rawValue
        } catch let error as TerminalUnavailable {
            report(error.description)
            return ExitCode.failure.rawValue
        } catch let error as ConfigurationError {
            report(error.description)
            switch error {
            case .invalidValue, .unknownKey, .unencodableValue: return ExitCode.invalidValue.rawValue
            default: return ExitCode.failure.rawValue
            }
        } catch let error as OverrideStoreError {
            report(error.description)
            return ExitCode.ioFailure.rawValue
        } catch let error as ConfigurationManifestError {
            report(error.description)
            return ExitCode.ioFailure.rawValue
        } catch {
            report("\(error)")
            return ExitCode.failure.rawValue
        }
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("config-menu: \(message)\n".utf8))
    }

    static func run(_ invocation: Invocation) throws {
        guard let command = invocation.command else {
            if invocation.flags.contains("--help") { return print(Help.overview) }
            try invocation.check(allowed: ["--no-mouse"])
            return try openMenu(invocation)
        }
        if command == "help" {
            guard let topic = invocation.positional.first else { return print(Help.overview) }
            guard let text = Help.commands[topic] else { throw ToolError.usage("no help for \"\(topic)\"") }
            return print(text)
        }
        guard let help = Help.commands[command] else {
            let suggestion = NameSuggestions.nearest(to: command, in: Help.commands.keys, limit: 1).first
            throw ToolError.usage("unknown command \"\(command)\"" + (suggestion.map { "; did you mean \($0)?" } ?? ""))
        }
        if invocation.flags.contains("--help") { return print(help) }
        let commands = Commands(invocation: invocation)
        switch command {
        case "list": try commands.list()
        case "get": try commands.get()
        case "set": try commands.set()
        case "reset": try commands.reset()
        case "export": try commands.export()
        case "import": try commands.importProfile()
        case "catalog": try commands.catalog()
        case "sync": try SyncCommands(invocation: invocation).sync()
        case "status": try SyncCommands(invocation: invocation).status()
        default: throw ToolError.usage("unknown command \"\(command)\"")
        }
    }

    static func openMenu(_ invocation: Invocation) throws {
        let context = try ToolContext(invocation, watch: true)
        try ConfigurationDebugMenu(
            catalog: context.catalog,
            service: context.service,
            serverSync: try ServerOptions.menuSync(invocation, service: context.service),
            options: .init(mouse: !invocation.flags.contains("--no-mouse"), label: context.label)
        ).run()
    }
}

/// The catalog, server values, store and service the options select.
struct ToolContext {
    let catalog: ConfigurationCatalog
    let serverValues: [String: String]
    let store: FileOverrideStore
    let service: LiveConfigurationService
    let label: String

    init(_ invocation: Invocation, watch: Bool = false) throws {
        var defaultServerValues: [String: String] = [:]
        if let manifest = invocation.options["--manifest"] {
            catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: manifest))
            label = URL(fileURLWithPath: manifest).lastPathComponent
        } else if let keys = invocation.options["--synthetic-keys"] {
            let count = try Self.positive(keys, for: "--synthetic-keys")
            let scopes = try invocation.options["--synthetic-scopes"].map {
                try Self.positive($0, for: "--synthetic-scopes")
            }
            let synthetic = try DemoConfiguration.synthetic(keys: count, scopes: scopes ?? max(1, count / 100))
            catalog = synthetic.catalog
            defaultServerValues = synthetic.serverValues
            label = "synthetic catalog"
        } else {
            catalog = try DemoConfiguration.makeCatalog()
            defaultServerValues = DemoConfiguration.serverValues
            label = "demo catalog"
        }
        serverValues =
            try invocation.options["--server-values"].map(Self.readServerValues)
            ?? ServerOptions.initialServerValues(invocation) ?? defaultServerValues
        store = FileOverrideStore(url: Self.storeURL(invocation))
        service = LiveConfigurationService(
            serverValues: serverValues,
            catalog: catalog,
            overrideStore: store,
            watchMode: watch ? .automatic : nil
        )
        if let error = store.lastError, error.kind != .corrupt { throw error }
        if let error = store.lastError { CommandLineTool.report("warning: \(error)") }
    }

    static func positive(_ text: String, for option: String) throws -> Int {
        guard let value = Int(text), value > 0, value <= 10_000_000 else {
            throw ToolError.usage("\(option) needs a positive number, got \"\(text)\"")
        }
        return value
    }

    /// The catalog's scope named `name`, ignoring case; an unknown name lists the scopes.
    func scope(named name: String) throws -> ConfigurationCatalog.Scope {
        guard let scope = catalog.scopes.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw ToolError(
                code: .invalidValue,
                description: "unknown scope \"\(name)\"; scopes: \(catalog.scopes.map(\.name).joined(separator: ", "))"
            )
        }
        return scope
    }

    static func storeURL(_ invocation: Invocation) -> URL {
        invocation.options["--store"].map { URL(fileURLWithPath: $0) }
            ?? FileOverrideStore.defaultURL(appName: DemoConfiguration.appName)
    }

    /// A JSON object of key names to wire strings, as the program last received them from its server.
    static func readServerValues(_ path: String) throws -> [String: String] {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ToolError(
                code: .ioFailure, description: "\(url.path): cannot read the server values (missing or not readable)")
        }
        let root: JSONValue
        do {
            root = try StrictJSON.parse([UInt8](data))
        } catch {
            throw ToolError(code: .ioFailure, description: "\(url.path): not valid JSON: \(error)")
        }
        guard case .object(let members) = root else {
            throw ToolError(
                code: .ioFailure,
                description:
                    "\(url.path): expected a JSON object of key names to strings, found \(root.typeDescription)")
        }
        var values: [String: String] = [:]
        for member in members {
            guard case .string(let value) = member.value else {
                throw ToolError(
                    code: .ioFailure,
                    description:
                        "\(url.path): the value of \"\(member.key)\" must be a string (wire format), found \(member.value.typeDescription)"
                )
            }
            values[member.key] = value
        }
        return values
    }
}
