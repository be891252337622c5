public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for a test, started with `posix_spawn` and watched with `waitpid` on its own pid: the one way the
/// tests start a process, whether it runs to its end (``run(_:_:environment:directory:input:standardOutput:timeout:timeoutSignal:)``)
/// or stays to be talked to (``init(_:_:environment:directory:standardInput:standardOutput:standardError:)``).
///
/// Foundation's `Process` on Linux learns that a child ended from one manager thread watching a socket per child;
/// under a full parallel test run that thread was seen to report children as ended while they still ran (and a
/// late event can make it block in `waitpid` for a child that is still running, holding up every other `Process`
/// in the test runner). This type never asks another thread whether its child runs.
///
/// The child starts with every signal unblocked and at its default action, as a shell would start it (the test
/// runner's threads block some signals and ignore `SIGPIPE`, which a spawned process would otherwise inherit). It
/// gets a pipe or `/dev/null` as standard input, its standard output and error where ``Output`` says, and no other
/// descriptor of the test runner.
public final class ChildProcess: Sendable {
    /// Where a child's output goes.
    public enum Output: Sendable {
        /// Into the test runner's own output.
        case inherit
        /// Into `/dev/null`.
        case discard
        /// Into a pipe read as lines (``ChildProcess/lines``); standard error given `.lines` too goes into the same
        /// lines, interleaved as the child writes them.
        case lines
        /// Into the file at this path (created or truncated).
        case file(String)
        /// Into this open descriptor of the test runner (a full device, a pipe nobody reads).
        case descriptor(Int32)
    }

    /// Where a child's standard input comes from.
    public enum Input: Sendable {
        /// A pipe the test writes with ``ChildProcess/send(_:)`` and closes with ``ChildProcess/closeInput()``.
        case pipe
        /// `/dev/null`.
        case null
    }

    /// A child's environment.
    public enum Environment: Sendable {
        /// This process's environment with these variables changed (a `nil` value removes one).
        case changing([String: String?])
        /// Exactly these variables.
        case exactly([String: String])

        /// This process's environment, unchanged.
        public static let current = Environment.changing([:])

        /// The variables as `NAME=value` strings.
        var assignments: [String] {
            var variables: [String: String]
            switch self {
            case .changing(let changes):
                variables = ProcessInfo.processInfo.environment
                for (name, value) in changes { variables[name] = value }
            case .exactly(let exact):
                variables = exact
            }
            return variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        }
    }

    /// The child's process identifier.
    public let processIdentifier: Int32
    private let input: Mutex<Int32>
    private let status = Mutex<Int32?>(nil)
    private let collected = LineBuffer()

    /// The lines read so far, shared with the reading thread.
    private final class LineBuffer: Sendable {
        let lines = Mutex<[String]>([])
        let bytes = Mutex<[UInt8]>([])
    }

    /// Starts `executable` with `arguments`, in `directory` (this process's own when `nil`); throws when it cannot be
    /// started.
    public init(
        _ executable: String, _ arguments: [String], environment: Environment = .current, directory: String? = nil,
        standardInput: Input = .pipe, standardOutput: Output = .lines, standardError: Output = .inherit
    ) throws {
        // A write to the input of a child that has ended must fail with EPIPE, not end the test runner with SIGPIPE
        // (silently, mid-run). Setting it again from any thread is harmless.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        if case .pipe = standardInput, pipe(&inputPipe) != 0 {
            throw FixtureError("cannot create a pipe: errno \(errno)")
        }
        let wantsLines = [standardOutput, standardError].contains { if case .lines = $0 { true } else { false } }
        if wantsLines, pipe(&outputPipe) != 0 {
            for descriptor in inputPipe where descriptor >= 0 { close(descriptor) }
            throw FixtureError("cannot create a pipe: errno \(errno)")
        }
        let ours = (inputPipe + outputPipe).filter { $0 >= 0 }
        for descriptor in ours { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch standardInput {
        case .pipe: posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var given: [Int32] = []
        for (target, output) in [(Int32(1), standardOutput), (2, standardError)] {
            switch output {
            case .inherit: break
            case .discard: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .lines: posix_spawn_file_actions_adddup2(&actions, outputPipe[1], target)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
                given.append(descriptor)
            }
        }
        // Nothing else of the test runner: a child holding another test's pipe would keep that test waiting.
        for descriptor in Self.inheritableDescriptors()
        where descriptor > 2 && !ours.contains(descriptor) && !given.contains(descriptor) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        // The test runner's threads block some signals and ignore SIGPIPE; a spawned process inherits both. Start the
        // child with every signal unblocked and at its default, as a shell would.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // In another folder through `env -C` (posix_spawn_file_actions_addchdir_np is not in Swift's Glibc module):
        // env changes folder and execs the executable, in the same process.
        let command = directory.map { ["/usr/bin/env", "-C", $0, executable] } ?? [executable]
        let argv = (command + arguments).map { strdup($0) } + [nil]
        let envp = environment.assignments.map { strdup($0) } + [nil]
        defer {
            for argument in argv + envp { free(argument) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, &attributes, argv, envp)
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        guard spawned == 0 else {
            if inputPipe[1] >= 0 { close(inputPipe[1]) }
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
                    collected.bytes.withLock { $0 += buffer[0..<count] }
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[..<newline], as: UTF8.self)
                        pending.removeSubrange(...newline)
                        collected.lines.withLock { $0.append(line) }
                    }
                }
                if !pending.isEmpty { collected.lines.withLock { $0.append(String(decoding: pending, as: UTF8.self)) } }
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

    /// The lines the child wrote to standard output (and error, with ``Output/lines``) so far; the last one may be
    /// unfinished once the child has ended.
    public var lines: [String] { collected.lines.withLock { $0 } }

    /// Everything the child wrote as ``lines`` so far, as written (an unfinished line too).
    public var printed: String { String(decoding: collected.bytes.withLock { $0 }, as: UTF8.self) }

    /// Writes `line` and a newline to the child's standard input; `false` when it is closed or the child is gone
    /// (writing to a pipe nobody reads fails with EPIPE; the test runner ignores SIGPIPE).
    @discardableResult
    public func send(_ line: String) -> Bool { write(line + "\n") }

    /// Writes `text` to the child's standard input; `false` when it is closed or the child is gone.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Data(text.utf8)) }

    /// Writes `data` to the child's standard input; `false` when it is closed or the child is gone.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        input.withLock { descriptor in
            guard descriptor >= 0 else { return false }
            let bytes = [UInt8](data)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
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

    /// Ends a child that ends when its standard input closes (a fixture server): closes its input, sends `signal`
    /// too if given, waits (polling) up to `seconds`, then kills it. Returns its exit code as
    /// ``exitCode(within:)`` does.
    @discardableResult
    public func stop(signal: Int32? = nil, within seconds: Double = 5) -> Int32 {
        closeInput()
        if let signal { self.signal(signal) }
        let deadline = Date().addingTimeInterval(seconds)
        while !hasExited, Date() < deadline { usleep(10_000) }
        if !hasExited { self.signal(SIGKILL) }
        return waitUntilExit()
    }

    /// The first line the child wrote that starts with `prefix`, without the prefix, waiting (polling) at most
    /// `seconds` for it; `nil` when it did not come, or the child ended first.
    public func line(startingWith prefix: String, within seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return String(line.dropFirst(prefix.count)) }
            if hasExited { return lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } }
            usleep(10_000)
        } while Date() < deadline
        return nil
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

/// What a process that ran to its end left: its exit code, its standard output and error.
public struct ToolRun: Sendable {
    /// The exit code; the signal number plus 128 when a signal ended it (as a shell says).
    public var status: Int32
    /// What it wrote to standard output (empty when that went elsewhere).
    public var output: String
    /// What it wrote to standard error.
    public var error: String
    /// Whether it was still running after the timeout, and was stopped.
    public var timedOut = false
    /// How long it ran, in seconds.
    public var seconds = 0.0

    /// A run's outcome.
    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}

extension ChildProcess {
    /// Runs `executable` to its end and returns what it left. Its standard input is `input` (then closed), or
    /// `/dev/null`; its standard output goes to `standardOutput`, or when `nil` is collected, as is its standard
    /// error. Both are collected through files, not pipes, so a process it leaves running cannot keep the test
    /// waiting. After `timeout` seconds it gets `timeoutSignal` (and the run says it timed out).
    public static func run(
        _ executable: String, _ arguments: [String], environment: Environment = .current, directory: String? = nil,
        input: Data? = nil, standardOutput: Output? = nil, timeout: Double? = nil, timeoutSignal: Int32 = SIGTERM
    ) throws -> ToolRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out").path
        let error = folder.appendingPathComponent("err").path
        let started = Date()
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory,
            standardInput: input == nil ? .null : .pipe, standardOutput: standardOutput ?? .file(output),
            standardError: .file(error))
        if let input {
            child.write(input)
            child.closeInput()
        }
        var timedOut = false
        if let timeout {
            let deadline = started.addingTimeInterval(timeout)
            while !child.hasExited, Date() < deadline { usleep(20_000) }
            if !child.hasExited {
                timedOut = true
                child.signal(timeoutSignal)
            }
        }
        // Invalid UTF-8 is decoded with replacement characters, never dropped whole.
        func text(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        var run = ToolRun(
            status: child.waitUntilExit(), output: standardOutput == nil ? text(output) : "", error: text(error))
        run.timedOut = timedOut
        run.seconds = Date().timeIntervalSince(started)
        return run
    }
}

/// Whether this process runs under ThreadSanitizer (its runtime's entry points are there): a test that measures time
/// end to end measures the sanitizer there, and its bound says nothing about the code.
public let runsUnderThreadSanitizer: Bool = {
    guard let handle = dlopen(nil, RTLD_NOW) else { return false }
    return dlsym(handle, "__tsan_acquire") != nil
}()

/// What a test's wait for the menu or a child process is multiplied by: 1, or 5 under ThreadSanitizer, where the
/// instrumented binary and the test run several times slower and a bound of 3 s measures the sanitizer, not the code.
/// The uninstrumented `swift test` run keeps every bound as written, so what a bound claims is still checked there.
public let timingSlack: Double = runsUnderThreadSanitizer ? 5 : 1
