public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A running `config-demo`, whose standard input the test writes (a line opens its profile screen) and whose output
/// it collects: the one way the tests run the demo beside the menu or the command line. It is a ``ChildProcess``, so
/// whether it still runs is asked of its own pid, never of Foundation's `Process`.
public final class DemoProcess: Sendable {
    /// The running demo.
    public let child: ChildProcess

    /// Starts `config-demo --store STORE` with more `arguments` (for example `--server-url URL`).
    public convenience init(store: URL, arguments: [String] = []) throws {
        try self.init(arguments: ["--store", store.path] + arguments)
    }

    /// Starts config-demo with `arguments` and these environment variables changed (`nil` removes one); with
    /// `errors`, what it writes to standard error is collected too.
    public init(arguments: [String], environment: [String: String?] = [:], errors: Bool = false) throws {
        child = try ChildProcess(
            BuiltTools.path("config-demo"), arguments, environment: .changing(environment),
            standardOutput: .lines, standardError: errors ? .lines : .discard)
    }

    /// The demo's process identifier.
    public var pid: Int32 { child.processIdentifier }

    /// Everything the demo printed so far.
    public var printed: String { child.printed }

    /// Waits (polling) until the demo printed `text`.
    public func wait(for text: String, within seconds: Double = 60) async throws -> Bool {
        await poll(within: seconds) { self.printed.contains(text) }
    }

    /// Presses Enter: the demo opens its profile screen (and reads its keys).
    public func pressEnter() {
        child.send("")
    }

    /// Sends `signal` and waits (polling, up to 20 seconds) until the demo has ended; returns whether it did.
    public func stop(with signal: Int32) async throws -> Bool {
        child.signal(signal)
        return await child.exitCode(within: 20) != nil
    }
}
