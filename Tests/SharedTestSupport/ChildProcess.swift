import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A long-lived child process for a test, started with `posix_spawn` and watched with `waitpid` on its own pid.
///
/// Foundation's `Process` on Linux learns that a child ended from one manager thread watching a socket per child;
/// under a full parallel test run that thread was seen to report children as ended while they still ran (and a
/// late event can make it block in `waitpid` for a child that is still running, holding up every other `Process`
/// in the test runner). A test that talks to a helper for a while uses this instead: it never asks another thread
/// whether its child runs.
///
/// The child gets a pipe as standard input, its standard output as lines (``lines``) or in a file, its standard
/// error in a file or the test runner's own; it inherits no other descriptor of the test runner.
public final class ChildProcess: Sendable {
    /// Where a child's output goes.
    public enum Output: Sendable {
        /// Into the test runner's own output.
        case inherit
        /// Into a pipe read as lines (standard output only; see ``ChildProcess/lines``).
        case lines
        /// Into the file at this path (created or truncated).
        case file(String)
    }

    /// The child's process identifier.
    public let processIdentifier: Int32
    private let input: Mutex<Int32>
    private let status = Mutex<Int32?>(nil)
    private let collected = LineBuffer()

    /// The lines read so far, shared with the reading thread.
    private final class LineBuffer: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// Starts `executable` with `arguments`; throws when it cannot be started.
    public init(
        _ executable: String, _ arguments: [String], standardOutput: Output = .lines,
        standardError: Output = .inherit
    ) throws {
        // A write to the input of a child that has ended must fail with EPIPE, not end the test runner with SIGPIPE
        // (silently, mid-run). Setting it again from any thread is harmless.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard pipe(&inputPipe) == 0 else { throw FixtureError("cannot create a pipe: errno \(errno)") }
        if case .lines = standardOutput, pipe(&outputPipe) != 0 {
            close(inputPipe[0])
            close(inputPipe[1])
            throw FixtureError("cannot create a pipe: errno \(errno)")
        }
        let ours = (inputPipe + outputPipe).filter { $0 >= 0 }
        for descriptor in ours { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        for (target, output) in [(Int32(1), standardOutput), (2, standardError)] {
            switch output {
            case .inherit: break
            case .lines: posix_spawn_file_actions_adddup2(&actions, outputPipe[1], target)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        // Nothing else of the test runner: a child holding another test's pipe would keep that test waiting.
        for descriptor in Self.inheritableDescriptors() where descriptor > 2 && !ours.contains(descriptor) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(inputPipe[0])
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        guard spawned == 0 else {
            close(inputPipe[1])
            if outputPipe[0] >= 0 { close(outputPipe[0]) }
            throw FixtureError("cannot start \(executable): errno \(spawned)")
        }
        processIdentifier = child
        input = Mutex(inputPipe[1])
        if outputPipe[0] >= 0 {
            let descriptor = outputPipe[0]
            let collected = self.collected
            // The reader owns the read end: it reads to the end (the child's exit), then closes it.
            Thread {
                var pending: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    pending += buffer[0..<count]
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        collected.lines.withLock { $0.append(line) }
                    }
                }
                close(descriptor)
            }.start()
        }
    }

    deinit {
        if exitStatus == nil {
            kill(processIdentifier, SIGKILL)
            _ = waitForExit(blocking: true)
        }
        closeInput()
    }

    /// The lines the child wrote to standard output so far (with ``Output/lines``).
    public var lines: [String] { collected.lines.withLock { $0 } }

    /// Writes `line` and a newline to the child's standard input; `false` when it is closed or the child is gone
    /// (writing to a pipe nobody reads fails with EPIPE; the test runner ignores SIGPIPE).
    @discardableResult
    public func send(_ line: String) -> Bool {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            let bytes = Array((line + "\n").utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                written += count
            }
            return true
        }
    }

    /// Closes the child's standard input (it reads the end of it).
    public func closeInput() {
        input.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// The child's wait status once it has ended (`nil` while it runs): reaped here, never by another thread.
    public var exitStatus: Int32? { waitForExit(blocking: false) }

    /// Whether the child has ended.
    public var hasExited: Bool { exitStatus != nil }

    /// Sends `signal` to the child (nothing once it is reaped: its pid may belong to another process by then).
    public func signal(_ signal: Int32) {
        status.withLock { status in
            if status == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Waits, polling, up to `seconds` for the child to end; returns its exit code (the signal number plus 128 when
    /// a signal ended it), or `nil` if it still runs.
    public func exitCode(within seconds: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status = exitStatus { return Self.code(status) }
            if Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Blocks until the child ends; returns its exit code as ``exitCode(within:)`` does.
    public func waitUntilExit() -> Int32 { Self.code(waitForExit(blocking: true) ?? 0) }

    private func waitForExit(blocking: Bool) -> Int32? {
        status.withLock { status in
            if let status { return status }
            var result: Int32 = 0
            while true {
                let reaped = waitpid(processIdentifier, &result, blocking ? 0 : WNOHANG)
                if reaped < 0, errno == EINTR { continue }
                if reaped == processIdentifier { status = result }
                // Not ours any more (reaped elsewhere): there is nothing left to wait for.
                if reaped < 0 { status = -1 }
                return status
            }
        }
    }

    private static func code(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The open descriptors without close-on-exec, which a child would inherit.
    private static func inheritableDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { fcntl($0, F_GETFD) >= 0 && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime's entry points are there): a test that measures time
/// end to end measures the sanitizer there, and its bound says nothing about the code.
public let runsUnderThreadSanitizer: Bool = {
    guard let handle = dlopen(nil, RTLD_NOW) else { return false }
    return dlsym(handle, "__tsan_acquire") != nil
}()
