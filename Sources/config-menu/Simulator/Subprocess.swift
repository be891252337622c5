import Foundation
import ServiceConfiguration
import ServiceConfigurationFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run to completion with its output captured: found on `PATH`, bounded in time and in the output
/// it may produce, never left running.
///
/// The whole call is bounded by its timeout, whatever the program does: it runs in a process group of its own, and
/// at the deadline the group is stopped (SIGTERM, then SIGKILL a second later) and its output is no longer read. A
/// program that exits while something it started still holds its output (a grandchild in the background) is done
/// when it exits: what arrives within half a second more is kept, then that group is killed too.
struct Subprocess {
    /// What the program did.
    struct Result {
        var status: Int32
        var output: Data
        var error: Data

        /// Standard error as text, trimmed (invalid UTF-8 repaired: it is only shown, escaped).
        var errorText: String {
            String(decoding: error, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Why the program could not be run to completion.
    enum Failure: Error {
        case launch(String)
        case timedOut(seconds: Int)
        case outputTooLarge(limit: Int)
    }

    let executable: URL

    /// How long the output is still read after the program exited, for what it wrote just before.
    static let drainAfterExit: Duration = .milliseconds(500)
    /// How long a program stopped with SIGTERM has to exit before SIGKILL.
    static let terminationGrace: Duration = .seconds(1)

    /// The executable named `name` in the first folder of `path` (a `PATH` value) that holds one.
    static func find(_ name: String, path: String?) -> URL? {
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = URL(fileURLWithPath: String(folder), isDirectory: true).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Runs the program with `arguments` and standard input from `/dev/null`, in a process group of its own; stops
    /// the group (SIGTERM, then SIGKILL) at `timeout`, and refuses more than `limit` bytes on either output.
    func run(_ arguments: [String], timeout: Duration, limit: Int = 32 << 20) throws -> Result {
        let deadline = ContinuousClock.now + timeout
        let seconds = Int(
            (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18).rounded(.up))
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw Failure.launch("cannot create a pipe: \(Self.lastError())") }
        guard pipe(&errorPipe) == 0 else {
            let reason = Self.lastError()
            close(outputPipe[0])
            close(outputPipe[1])
            throw Failure.launch("cannot create a pipe: \(reason)")
        }
        // Only the child's descriptors 1 and 2 (made by dup2, which clears the flag) stay open across exec.
        for descriptor in outputPipe + errorPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(arguments, output: outputPipe[1], error: errorPipe[1])
        } catch {
            for descriptor in outputPipe + errorPipe { close(descriptor) }
            throw error
        }
        close(outputPipe[1])
        close(errorPipe[1])
        var reader = OutputReader(descriptors: [outputPipe[0], errorPipe[0]], limit: limit)
        defer { reader.closeAll() }

        var status: Int32?
        var exitedAt: ContinuousClock.Instant?
        while true {
            if status == nil, let exited = Self.reap(pid) {
                status = exited
                exitedAt = .now
            }
            if reader.allClosed, status != nil { break }
            let stop = exitedAt.map { min(deadline, $0 + Self.drainAfterExit) } ?? deadline
            let now = ContinuousClock.now
            guard now < stop else { break }
            // Short polls, so the program's exit is noticed while its output is still held open.
            reader.readAvailable(waitingAtMost: min(50, Self.milliseconds(stop - now)))
            if reader.overflowed { break }
        }
        guard let status else {
            Self.stop(group: pid)
            throw reader.overflowed ? Failure.outputTooLarge(limit: limit) : Failure.timedOut(seconds: seconds)
        }
        // Whatever the program left behind in its group (and still holding its output) is stopped with it.
        if !reader.allClosed { kill(-pid, SIGKILL) }
        if reader.overflowed { throw Failure.outputTooLarge(limit: limit) }
        return Result(status: status, output: Data(reader.collected[0]), error: Data(reader.collected[1]))
    }

    /// Starts the program in a new process group whose id is its pid, with every signal at its default and
    /// unblocked (this tool ignores SIGPIPE; the program must not inherit that).
    private func spawn(_ arguments: [String], output: Int32, error: Int32) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, error, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let path = executable.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp =
            ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw Failure.launch("cannot run \(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// The exit status of `pid` if it has exited (reaped now), else `nil`.
    private static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result < 0, errno == EINTR { continue }
            guard result == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            let signal = status & 0x7F
            return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        }
    }

    /// Stops the program's whole group: SIGTERM, SIGKILL after ``terminationGrace``, and reaps the program (waiting
    /// a bounded time: a process the kernel holds in an uninterruptible wait is left to finish as a zombie).
    private static func stop(group pid: pid_t) {
        kill(-pid, SIGTERM)
        let exited = waitForExit(pid, within: terminationGrace)
        // Also what ignored SIGTERM, and what the program started and left running in its group.
        kill(-pid, SIGKILL)
        if !exited { _ = waitForExit(pid, within: .seconds(2)) }
    }

    /// Waits at most `duration` for `pid` to exit; whether it did.
    private static func waitForExit(_ pid: pid_t, within duration: Duration) -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            if reap(pid) != nil { return true }
            usleep(10_000)
        }
        return reap(pid) != nil
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Reads the program's outputs as they arrive, each up to a limit, without ever blocking past a poll.
private struct OutputReader {
    var descriptors: [Int32]
    var collected: [[UInt8]]
    let limit: Int
    private(set) var overflowed = false

    init(descriptors: [Int32], limit: Int) {
        self.descriptors = descriptors
        collected = descriptors.map { _ in [] }
        self.limit = limit
    }

    var allClosed: Bool { descriptors.allSatisfy { $0 < 0 } }

    /// Waits at most `milliseconds` for output, and reads what arrived; an output at its end is closed.
    mutating func readAvailable(waitingAtMost milliseconds: Int32) {
        var watched = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = watched.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard ready > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
            let count = read(watched[index].fd, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 {
                close(descriptors[index])
                descriptors[index] = -1
                continue
            }
            guard collected[index].count + count <= limit else {
                overflowed = true
                return
            }
            collected[index] += buffer[0..<count]
        }
    }

    /// Stops reading: the program's outputs are closed on this side.
    mutating func closeAll() {
        for index in descriptors.indices where descriptors[index] >= 0 {
            close(descriptors[index])
            descriptors[index] = -1
        }
    }
}
