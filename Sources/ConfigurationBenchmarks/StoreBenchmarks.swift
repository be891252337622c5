import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Override store: saving one override into files of 10 to 10,000 overrides, and how fast another process's write
/// reaches a running service.
func storeBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("config-benchmarks-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    print("")
    print("Override store (release build; \(folder.path))")
    print("")
    print("| operation | median | p95 | worst | note |")
    print("|---|---:|---:|---:|---|")
    for size in [10, 1_000, 10_000] {
        let store = FileOverrideStore(url: folder.appendingPathComponent("set-\(size)/overrides.json"))
        try store.modify { entries in
            for index in 0..<size {
                entries["function.synthetic.scope\(index % 100).key\(index).enabled"] = OverrideEntry(
                    value: index.isMultiple(of: 2) ? "Y" : "N",
                    serverValueWhenSet: "N",
                    note: index.isMultiple(of: 10) ? "synthetic scenario \(index)" : nil
                )
            }
        }
        var samples: [Double] = []
        for round in 0..<60 {
            let start = nanoseconds()
            try store.set(
                String(round), forKey: "function.synthetic.scope\(round % 100).key\(round).enabled", serverValue: "N")
            samples.append(Double(nanoseconds() - start) / 1e6)
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: store.url.path)[.size] as? Int) ?? 0
        let note = size == 10_000 ? "target: median <= 5 ms; file \(bytes / 1024) KiB" : "file \(bytes / 1024) KiB"
        printRow("set one override + save, \(size) in the file", samples, unit: "ms", note: note)
        var reads: [Double] = []
        for _ in 0..<20 {
            let start = nanoseconds()
            precondition(FileOverrideStore(url: store.url).reload() == nil)
            reads.append(Double(nanoseconds() - start) / 1e6)
        }
        printRow(
            "read and check the whole file, \(size) in it", reads, unit: "ms",
            note: size == 10_000 ? "target: <= 15 ms; on start" : "on start")
        guard size == 10_000 else { continue }
        try readComparison(store.url)
    }
    try largeStoreReads(folder.appendingPathComponent("read-100000/overrides.json"))

    for (label, mode) in [
        ("inotify", OverrideStoreWatchMode.inotify), ("polling every 250 ms", .polling(interval: .milliseconds(250))),
    ] {
        let url = folder.appendingPathComponent("live-\(label.prefix(7))/overrides.json")
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(overrideStore: store, watchMode: mode, overridePolicy: .allBuilds)
        let arrivals = Locked<[String: UInt64]>([:])
        let observation = service.observe { names in
            let now = nanoseconds()
            arrivals.withLock { for name in names where $0[name] == nil { $0[name] = now } }
        }
        var samples: [Double] = []
        var writeTimes: [Double] = []
        for round in 0..<25 {
            let key = "live.key\(round)"
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            writer.arguments = ["--store-writer", url.path, key, "Y"]
            let output = Pipe()
            writer.standardOutput = output
            try writer.run()
            let stamps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(whereSeparator: \.isWhitespace).compactMap { UInt64($0) }
            writer.waitUntilExit()
            let written = stamps.first ?? 0
            if stamps.count == 2 { writeTimes.append(Double(stamps[1] - stamps[0]) / 1e6) }
            let deadline = Date().addingTimeInterval(3)
            while arrivals.withLock({ $0[key] }) == nil, Date() < deadline { usleep(1_000) }
            guard let arrived = arrivals.withLock({ $0[key] }), written > 0 else {
                print("| live reload (\(label)) | lost a notification in round \(round) | | | |")
                break
            }
            samples.append(Double(Int64(arrived) - Int64(written)) / 1e6)
            usleep(UInt32.random(in: 0...50_000))
        }
        printRow(
            "live reload (\(label)): other process starts its write -> notification here",
            samples,
            unit: "ms",
            note:
                "target: < 1 s; the write itself takes \(String(format: "%.2f", writeTimes.sorted()[writeTimes.count / 2])) ms"
        )
        withExtendedLifetime(observation) {}
        store.stopWatching()
    }
}

/// A store of 100,000 overrides (what `scripts/store-commands-at-scale` makes, 6 MB) read three ways: checked only
/// (the lines stay raw until asked for), with one key's entry (a command that names one key), and with every entry
/// made (a program's start, the menu).
func largeStoreReads(_ url: URL) throws {
    let writer = FileOverrideStore(url: url)
    try writer.modify { entries in
        for index in 0..<100_000 {
            entries["function.module\(index % 1000).key\(index).enabled"] = OverrideEntry(
                value: index.isMultiple(of: 2) ? "Y" : "N", setAt: nil)
        }
    }
    let bytes = [UInt8](try Data(contentsOf: url))
    var checked: [Double] = []
    var oneKey: [Double] = []
    var every: [Double] = []
    for _ in 0..<15 {
        var start = nanoseconds()
        precondition(FileOverrideStore.usableEntryCount(parsing: bytes) == 100_000)
        checked.append(Double(nanoseconds() - start) / 1e6)
        start = nanoseconds()
        let command = FileOverrideStore(url: url)
        precondition(command.reload() == nil && command.entry(forKey: "function.module7.key7.enabled") != nil)
        oneKey.append(Double(nanoseconds() - start) / 1e6)
        start = nanoseconds()
        let program = FileOverrideStore(url: url)
        precondition(program.reload() == nil && program.entries.count == 100_000)
        every.append(Double(nanoseconds() - start) / 1e6)
    }
    let size = "\(bytes.count / 1024) KiB"
    printRow(
        "parse and check a 100,000-entry file (\(size)) from its bytes", checked, unit: "ms", note: "lines stay raw")
    printRow("read a 100,000-entry file, then one key's entry", oneKey, unit: "ms", note: "a command naming one key")
    printRow("read a 100,000-entry file, then every entry", every, unit: "ms", note: "a program's start; the menu")
}

/// The store's own parser against Foundation's `JSONSerialization` on the same bytes, and the reload a running
/// program does when another process changes one key.
func readComparison(_ url: URL) throws {
    let bytes = [UInt8](try Data(contentsOf: url))
    let data = Data(bytes)
    var ours: [Double] = []
    var foundation: [Double] = []
    for _ in 0..<30 {
        var start = nanoseconds()
        precondition(FileOverrideStore.usableEntryCount(parsing: bytes) ?? 0 > 0)
        ours.append(Double(nanoseconds() - start) / 1e6)
        start = nanoseconds()
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        precondition((object?["overrides"] as? [String: Any])?.count ?? 0 > 0)
        foundation.append(Double(nanoseconds() - start) / 1e6)
    }
    let ratio = median(ours) / median(foundation)
    printRow(
        "parse the 10,000-entry file (\(bytes.count / 1024) KiB): the store's strict parser", ours, unit: "ms",
        note: String(format: "%.2fx JSONSerialization's time on the same bytes", ratio))
    printRow(
        "parse the same bytes: Foundation JSONSerialization (generic objects, no checks)", foundation, unit: "ms",
        note: "for comparison")
    // A running program with an observer: another process replaces the file, changing one key; the program reloads.
    let store = FileOverrideStore(url: url)
    store.reload()
    let observation = store.observe { _ in }
    let other = FileOverrideStore(url: url)
    var reloads: [Double] = []
    for round in 0..<20 {
        try other.set("changed \(round)", forKey: "function.synthetic.scope7.key7.enabled")
        let start = nanoseconds()
        precondition(store.reload() == nil)
        reloads.append(Double(nanoseconds() - start) / 1e6)
    }
    withExtendedLifetime(observation) {}
    printRow(
        "reload after another process changed 1 of 10,000 (with an observer)", reloads, unit: "ms",
        note: "what each running program pays per change")
}

func printRow(_ name: String, _ samples: [Double], unit: String, note: String) {
    guard !samples.isEmpty else { return }
    let sorted = samples.sorted()
    let p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    let cells = [sorted[sorted.count / 2], p95, sorted.last!].map { String(format: "%.2f %@", $0, unit) }
    print("| \(name) | \(cells.joined(separator: " | ")) | \(note) |")
}
