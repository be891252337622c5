import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Live reload's tail: another process changes a key in a file store, and a running service's observer hears it
/// (inotify). Many rounds, so the p95 is more than the second-worst sample; quiet, and with two processes spinning
/// on the two cores for a minute first (a load of about 2). Three kinds of rounds: the other process replaces the
/// file with one rename (timed from the rename: live reload's own latency); a process started for the round sets the
/// key through the store (timed from the start of its `set`, which includes its lock, write and `fsync`, and the
/// first run of the store's code in a fresh process); and one writer that keeps running (as the menu or a program
/// does) sets a key each round when told to. Both writers also report their thread's schedule during the `set`
/// (``ThreadSchedule``): time on a CPU, time runnable but waiting for one, and the rest, asleep.
func reloadBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("config-benchmarks-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rounds = 200
    print("")
    print("Live reload through inotify (release build; \(rounds) rounds per row; \(folder.path))")
    print("Load average before: \(loadAverage())")
    print("")
    print("| load | part | median | p90 | p95 | worst |")
    print("|---|---|---:|---:|---:|---:|")
    for spinners in [0, 2] {
        let spinning = try (0..<spinners).map { _ in try childProcess(["--spin"]) }
        defer {
            for child in spinning { child.terminate() }
        }
        if spinners > 0 { Thread.sleep(forTimeInterval: 60) }
        for kind in WriterKind.allCases {
            let url = folder.appendingPathComponent("reload-\(spinners)-\(kind)/overrides.json")
            let store = FileOverrideStore(url: url)
            let service = LiveConfigurationService(
                overrideStore: store, watchMode: .inotify, overridePolicy: .allBuilds)
            let arrivals = Locked<[String: UInt64]>([:])
            let observation = service.observe { names in
                let now = nanoseconds()
                arrivals.withLock { for name in names where $0[name] == nil { $0[name] = now } }
            }
            let running = kind == .running ? try RunningWriter(path: url.path) : nil
            var fromStart: [Double] = []
            var writing: [Double] = []
            var fromEnd: [Double] = []
            var computing: [Double] = []
            var waiting: [Double] = []
            var blocked: [Double] = []
            for round in 0..<rounds {
                let key = "live.key\(round)"
                let stamps: [UInt64]
                if let running {
                    stamps = try running.set(key)
                } else {
                    let output = Pipe()
                    let writer = try childProcess(
                        [kind == .replacing ? "--store-replacer" : "--store-writer", url.path, key, "Y"],
                        output: output)
                    stamps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                        .split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
                    writer.waitUntilExit()
                }
                let deadline = Date().addingTimeInterval(5)
                while arrivals.withLock({ $0[key] }) == nil, Date() < deadline { usleep(200) }
                guard let arrived = arrivals.withLock({ $0[key] }), stamps.count >= 2 else {
                    print("| \(spinners) spinning | lost a notification in round \(round) | | | | |")
                    break
                }
                fromStart.append(Double(Int64(arrived) - Int64(stamps[0])) / 1e6)
                writing.append(Double(stamps[1] - stamps[0]) / 1e6)
                fromEnd.append(Double(Int64(arrived) - Int64(stamps[1])) / 1e6)
                if stamps.count == 4 {
                    computing.append(Double(stamps[2]) / 1e6)
                    waiting.append(Double(stamps[3]) / 1e6)
                    blocked.append(writing.last! - computing.last! - waiting.last!)
                }
                usleep(UInt32.random(in: 0...20_000))
            }
            running?.finish()
            let load = "\(spinners == 0 ? "quiet" : "\(spinners) spinning"), load \(loadAverage())"
            switch kind {
            case .replacing:
                tailRow(load, "file replaced (just before the rename) -> observer called", fromStart)
            case .fresh, .running:
                let writer = kind == .fresh ? "a process started for it" : "a writer that keeps running"
                tailRow(load, "`set` started -> observer called (\(writer))", fromStart)
                tailRow(load, "the `set` itself (\(writer))", writing)
                tailRow(load, "`set` returned -> observer called (negative: heard before it returned)", fromEnd)
                tailRow(load, "the `set`'s thread on a CPU (\(writer))", computing)
                tailRow(load, "the `set`'s thread runnable, waiting for a CPU (\(writer))", waiting)
                tailRow(load, "the `set`'s thread asleep (its `fsync`s; \(writer))", blocked)
            }
            withExtendedLifetime(observation) {}
            store.stopWatching()
        }
    }
    print("Load average after: \(loadAverage())")
}

/// Who changes the store in a round.
private enum WriterKind: CaseIterable {
    /// A process that renames a prepared copy over the store.
    case replacing
    /// A process started for the round, which calls `set` once.
    case fresh
    /// One process for all rounds, which calls `set` when told to.
    case running
}

/// The writer that keeps running: a child (`--store-writer-running PATH`) that sets each key it reads from its
/// standard input and answers with the times its `set` started and returned (and its schedule in between).
private final class RunningWriter {
    private let child: Process
    private let input = Pipe()
    private let output = Pipe()
    private var pending: [UInt8] = []

    init(path: String) throws {
        child = try childProcess(["--store-writer-running", path], input: input, output: output)
    }

    /// Has the writer set `key` to `Y`; returns its two times, then its nanoseconds on a CPU and waiting for one.
    func set(_ key: String) throws -> [UInt64] {
        input.fileHandleForWriting.write(Data((key + "\n").utf8))
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line.split(separator: " ").compactMap { UInt64($0) }
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw BenchmarkError("the running writer ended") }
            pending.append(contentsOf: data)
        }
    }

    /// Closes the writer's input and waits for it to end.
    func finish() {
        input.fileHandleForWriting.closeFile()
        child.waitUntilExit()
    }
}

/// The running writer's side: one store, a `set` of `Y` for each key read from standard input, each answered with
/// the times the `set` started and returned and its thread's time on a CPU and waiting for one in between.
func runningStoreWriterChild(_ path: String) throws {
    let store = FileOverrideStore(url: URL(fileURLWithPath: path))
    while let key = readLine() {
        let before = ThreadSchedule.now()
        let started = nanoseconds()
        try store.set("Y", forKey: key)
        let returned = nanoseconds()
        FileHandle.standardOutput.write(Data("\(started) \(returned) \(ThreadSchedule.now().since(before))\n".utf8))
    }
}

/// The calling thread's time on a CPU (`CLOCK_THREAD_CPUTIME_ID`) and its time waiting in a run queue for one (the
/// second field of `/proc/thread-self/schedstat`; Linux, zero where it cannot be read): what a writer's `set` spent
/// computing and what it spent runnable but not run while other processes held the CPUs. (The first field of
/// `schedstat`, the time on a CPU, is brought up to date only at the scheduler's ticks, so it can be a few
/// milliseconds behind for a running thread; the wait is settled each time the thread gets a CPU, so it is exact
/// while the thread runs.)
struct ThreadSchedule {
    var running: UInt64
    var waiting: UInt64

    static func now() -> ThreadSchedule {
        var clock = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
        let fields = ((try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return ThreadSchedule(
            running: UInt64(clock.tv_sec) * 1_000_000_000 + UInt64(clock.tv_nsec),
            waiting: fields.count >= 2 ? fields[1] : 0)
    }

    /// Nanoseconds on a CPU and nanoseconds waiting for one since `earlier`, as "RUNNING WAITING".
    func since(_ earlier: ThreadSchedule) -> String {
        "\(running &- earlier.running) \(waiting &- earlier.waiting)"
    }
}

/// A benchmark child process running this executable with `arguments`.
private func childProcess(_ arguments: [String], input: Pipe? = nil, output: Pipe? = nil) throws -> Process {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = arguments
    if let input { child.standardInput = input }
    if let output { child.standardOutput = output }
    try child.run()
    return child
}

private func tailRow(_ load: String, _ part: String, _ samples: [Double]) {
    guard !samples.isEmpty else { return }
    let sorted = samples.sorted()
    func at(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))] }
    let cells = [at(0.5), at(0.9), at(0.95), sorted.last!].map { String(format: "%.2f ms", $0) }
    print("| \(load) | \(part) | \(cells.joined(separator: " | ")) |")
}

/// The other process of a replacing round: sets `key` in a copy of the store at `path` (kept beside it, so it
/// holds every key set so far), copies that file next to `path`, and prints the time just before and just after
/// it renames the copy over `path`.
func storeReplacerChild(_ arguments: [String]) throws {
    let target = URL(fileURLWithPath: arguments[0])
    let folder = target.deletingLastPathComponent()
    let scratch = FileOverrideStore(url: folder.appendingPathComponent("replacer/overrides.json"))
    try scratch.set(arguments[2], forKey: arguments[1])
    let staged = folder.appendingPathComponent(".replacing-\(getpid())")
    try Data(contentsOf: scratch.url).write(to: staged)
    let before = nanoseconds()
    guard rename(staged.path, target.path) == 0 else { throw BenchmarkError("rename failed: errno \(errno)") }
    print(before, nanoseconds())
}

/// The spinning child: keeps one core busy until it is terminated.
func spinChild() -> Never {
    var counter: UInt64 = 0
    while true {
        counter &+= 1
        if counter == 0 { print(counter) }
    }
}
