public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A running `config-demo` on a store, whose standard input the test writes (a line opens its profile screen) and
/// whose output it collects.
public final class DemoProcess {
    /// The running demo.
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines = Printed()

    /// What the demo printed, shared with the reading handler.
    private final class Printed: Sendable {
        let text = Mutex("")
    }

    /// Starts `config-demo --store STORE` with more `arguments` (for example `--server-url URL`).
    public convenience init(store: URL, arguments: [String] = []) throws {
        try self.init(arguments: ["--store", store.path] + arguments)
    }

    /// config-demo with `arguments`, and these environment variables changed (`nil` removes one); with `errors`,
    /// what it writes to standard error is collected too.
    public init(arguments: [String], environment: [String: String?] = [:], errors: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent()
            .appendingPathComponent("config-demo")
        process.arguments = arguments
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors ? output : FileHandle.nullDevice
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            lines.text.withLock { $0 += text }
        }
        try process.run()
    }

    /// The demo's process identifier.
    public var pid: Int32 { process.processIdentifier }

    /// Everything the demo printed so far.
    public var printed: String { lines.text.withLock { $0 } }

    /// Waits (polling) until the demo printed `text`.
    public func wait(for text: String, within seconds: Double = 60) async throws -> Bool {
        try await poll(within: seconds) { self.printed.contains(text) }
    }

    /// Presses Enter: the demo opens its profile screen (and reads its keys).
    public func pressEnter() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data("\n".utf8))
    }

    /// Sends `signal` and waits (polling) until the process is gone (reaped or a zombie).
    public func stop(with signal: Int32) async throws -> Bool {
        kill(pid, signal)
        return try await poll(within: 20) {
            guard self.process.isRunning else { return true }
            let stat = (try? String(contentsOfFile: "/proc/\(self.pid)/stat", encoding: .utf8)) ?? ""
            return stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z"
        }
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
        output.fileHandleForReading.readabilityHandler = nil
        try? input.fileHandleForWriting.close()
    }
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held.
public func poll(within seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}
