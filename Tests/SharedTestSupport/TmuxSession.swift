public import Foundation
public import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private tmux server running an interactive shell at a fixed size, for driving the real `config-menu` binary:
/// send keys, read the screen, poll for text (never fixed sleeps).
public final class TmuxSession {
    /// The private server's socket name.
    public let socket = "scm-test-\(UUID().uuidString.prefix(8))"
    /// The session's `HOME`, a temporary folder removed with the session.
    public let home: URL

    /// Whether tmux is installed.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") || which("tmux") != nil
    }

    /// Whether the tests that drive the menu in tmux run here: tmux is installed, and this is not the
    /// ThreadSanitizer run. There the menu is a separate process, whose races the sanitizer would print into the
    /// pane rather than report to the test, and its slowdown (with the test's own) makes every bound on what the
    /// screen shows measure the sanitizer; the uninstrumented `swift test` runs them all.
    public static var isUsable: Bool { isAvailable && !runsUnderThreadSanitizer }

    /// Why the tmux tests are skipped when ``isUsable`` is false.
    public static let requirement: Comment =
        "needs tmux (scripts/setup-debian installs it); not run under ThreadSanitizer"

    private static func which(_ tool: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `bash` in a new session of `width`×`height`, with TERM and LANG pinned and HOME in a temporary folder.
    public init(
        width: Int = 100, height: Int = 30, term: String = "xterm-256color", environment: [String: String] = [:]
    )
        throws
    {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var variables = ["TERM": term, "LANG": "C.UTF-8", "HOME": home.path, "PS1": "$ ", "EDITOR": "true"]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // The server started here inherits the client's file descriptors: give it none of ours to hold open.
        try tmux(
            ["-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", String(height)]
                + ["env", "-u", "NO_COLOR"] + assignments + ["bash", "--norc", "--noprofile", "-i"],
            capture: false
        )
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: home)
    }

    /// The `config-menu` binary built next to the test binary.
    public static var binary: String { BuiltTools.path("config-menu") }

    /// Runs tmux on the session's server (a ``ChildProcess``: Foundation's `Process` can miss the exit of a client
    /// whose server it forked). With `capture`, returns what tmux printed.
    @discardableResult
    public func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let path = Self.which("tmux") ?? "/usr/bin/tmux"
        return try ChildProcess.run(path, ["-L", socket] + arguments, standardOutput: capture ? nil : .discard).output
    }

    /// Types `text` literally.
    public func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Sends tmux key names: `Enter`, `Escape`, `C-c`, `Space`, `Tab`, `BSpace`, ...
    public func press(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Runs a shell command line in the session's shell.
    public func run(_ commandLine: String) throws {
        try type(commandLine)
        try press("Enter")
    }

    /// The screen as text.
    public func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

    /// Waits until the screen contains `text`; records the last screen on failure.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
        -> Bool
    {
        let deadline = Date().addingTimeInterval(timeout * timingSlack)
        while Date() < deadline {
            if try screen().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(40))
        }
        // Once more: a starved test process may wake only after the screen changed and the deadline passed.
        if try screen().contains(text) { return true }
        Issue.record(
            "timed out waiting for \"\(text)\"; the screen was:\n\(try screen())", sourceLocation: sourceLocation)
        return false
    }

    /// Waits until `condition` holds (for files the menu writes).
    public func waitUntil(timeout: Double = 30, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout * timingSlack)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(40))
        }
        return condition()
    }

    /// Waits until the shell has no child any more (the menu has exited), so typed keys reach the shell.
    public func waitForMenuExit(timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = Date().addingTimeInterval(timeout * timingSlack)
        while Date() < deadline {
            if try menuProcess() == nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        if try menuProcess() == nil { return }
        Issue.record("the menu did not exit; the screen was:\n\(try screen())", sourceLocation: sourceLocation)
    }

    /// The process id of the shell's foreground child (the menu), if any.
    public func menuProcess() throws -> pid_t? {
        let shell = try tmux(["list-panes", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }
}
