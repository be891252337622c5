import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Live reload's tail: another process changes a key in a file store, and a running service's observer hears it
/// (inotify). Many rounds, so the p95 is more than the second-worst sample; quiet, and with two processes spinning
/// on the two cores for a minute first (a load of about 2). Two kinds of rounds: the other process replaces the file
/// with one rename (timed from the rename: live reload's own latency), and the other process sets the key through
/// the store (timed from the start of its `set`, which includes its lock, write and `fsync`).
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
        for replacing in [true, false] {
            let url = folder.appendingPathComponent("reload-\(spinners)-\(replacing)/overrides.json")
            let store = FileOverrideStore(url: url)
            let service = LiveConfigurationService(
                overrideStore: store, watchMode: .inotify, overridePolicy: .allBuilds)
            let arrivals = Locked<[String: UInt64]>([:])
            let observation = service.observe { names in
                let now = nanoseconds()
                arrivals.withLock { for name in names where $0[name] == nil { $0[name] = now } }
            }
            var fromStart: [Double] = []
            var writing: [Double] = []
            var fromEnd: [Double] = []
            for round in 0..<rounds {
                let key = "live.key\(round)"
                let output = Pipe()
                let writer = try childProcess(
                    [replacing ? "--store-replacer" : "--store-writer", url.path, key, "Y"], output: output)
                let stamps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
                writer.waitUntilExit()
                let deadline = Date().addingTimeInterval(5)
                while arrivals.withLock({ $0[key] }) == nil, Date() < deadline { usleep(200) }
                guard let arrived = arrivals.withLock({ $0[key] }), stamps.count == 2 else {
                    print("| \(spinners) spinning | lost a notification in round \(round) | | | | |")
                    break
                }
                fromStart.append(Double(Int64(arrived) - Int64(stamps[0])) / 1e6)
                writing.append(Double(stamps[1] - stamps[0]) / 1e6)
                fromEnd.append(Double(Int64(arrived) - Int64(stamps[1])) / 1e6)
                usleep(UInt32.random(in: 0...20_000))
            }
            let load = "\(spinners == 0 ? "quiet" : "\(spinners) spinning"), load \(loadAverage())"
            if replacing {
                tailRow(load, "file replaced (just before the rename) -> observer called", fromStart)
            } else {
                tailRow(load, "`set` started -> observer called", fromStart)
                tailRow(load, "the `set` itself (lock, write, fsync, rename, fsync folder, journal)", writing)
                tailRow(load, "`set` returned -> observer called (negative: heard before it returned)", fromEnd)
            }
            withExtendedLifetime(observation) {}
            store.stopWatching()
        }
    }
    print("Load average after: \(loadAverage())")
}

/// A benchmark child process running this executable with `arguments`.
private func childProcess(_ arguments: [String], output: Pipe? = nil) throws -> Process {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    child.arguments = arguments
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
