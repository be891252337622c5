import ConfigurationServer
import Foundation
import ServiceConfiguration

/// `config-menu serve`: the catalog's effective values over OFREP, and a change stream, until stopped.
struct ServeCommand {
    let invocation: Invocation

    static let options: Set<String> = ["--listen", "--token-file", "--read-only"]
    static let defaultListen = "127.0.0.1:8016"

    func run() throws {
        try invocation.check(allowed: Self.options)
        guard invocation.positional.isEmpty else { throw ToolError.usage("serve takes no arguments", command: "serve") }
        let address: HTTPSocket.Address
        do {
            address = try HTTPSocket.Address(parsing: invocation.options["--listen"] ?? Self.defaultListen)
        } catch {
            throw ToolError.usage("--listen: \(error)", command: "serve")
        }
        var token = try invocation.options["--token-file"].map(Self.readToken)
        var generated = false
        if token == nil, !address.isLoopback {
            token = Self.generatedToken()
            generated = true
        }
        let context = try ToolContext(invocation, watch: true)
        context.noteServerValues()
        let sync = try ServerOptions.menuSync(invocation, service: context.service, catalog: context.catalog)
        let server: OFREPServer
        do {
            var configuration = OFREPServer.Configuration(address: address, token: token)
            configuration.readOnly = invocation.flags.contains("--read-only")
            server = try OFREPServer(
                catalog: context.catalog, service: context.service, configuration: configuration,
                store: context.store)
        } catch {
            throw ToolError(code: .ioFailure, description: error.description)
        }
        // A store that is not the format at all (known once the values were first read): its overrides are not
        // served, and serve says so before it starts.
        context.warnIfCorrupt()
        let base = "http://\(server.address)"
        var lines = [
            "serving \(context.catalog.keys.count) keys (\(context.label)) over OFREP at \(base)/ofrep/v1",
            "  overrides: \(context.store.location)",
            "  server values: \(Self.serverValuesOrigin(invocation, sync: sync, context: context))",
            "  changes: \(base)/ofrep/v1/events (server-sent events)",
            "  store: \(base)/store/v1/overrides (--store \(base), CONFIG_OVERRIDES_STORE=\(base))"
                + (invocation.flags.contains("--read-only") ? ", read-only" : ""),
        ]
        switch (token, generated) {
        case (let token?, true):
            lines.append("  token (listening beyond this machine needs one): \(token)")
            lines.append("  clients send: Authorization: Bearer \(token)   (in clear: use it on a network you trust)")
        case (_?, false):
            lines.append("  token: from \(invocation.options["--token-file"] ?? "")  (Authorization: Bearer …)")
        default:
            lines.append("  token: none (this machine only)")
        }
        lines.append("Ctrl-C stops.")
        try Output.line(lines.joined(separator: "\n"))
        if let failure = server.run() { throw ToolError(code: .ioFailure, description: "serve stopped: \(failure)") }
    }

    /// Where the served server values come from, for the opening lines.
    static func serverValuesOrigin(_ invocation: Invocation, sync: (any ServerSyncMonitor)?, context: ToolContext)
        -> String
    {
        if let file = invocation.options["--server-values"] { return "\(file) (as read at start)" }
        if let source = sync?.status.source, !source.isEmpty { return "\(source) (followed live)" }
        return context.serverValues.isEmpty
            ? "none (no --server-url, no snapshot beside the store)"
            : "\(context.serverValues.count) built into the \(context.label)"
    }

    /// The token in `path`: its first line, at least 16 characters of visible ASCII.
    static func readToken(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096 else {
            throw ToolError(code: .ioFailure, description: "--token-file \(path): cannot be read (or is over 4 KiB)")
        }
        let token =
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            ?? ""
        guard token.count >= 16, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw ToolError(
                code: .invalidValue,
                description:
                    "--token-file \(path): the token (the first line) must be at least 16 characters of visible "
                    + "ASCII, with no space")
        }
        return token
    }

    /// 32 random bytes in hexadecimal, from the system's generator.
    static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
