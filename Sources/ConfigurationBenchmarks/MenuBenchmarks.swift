import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// One synthetic catalog made ready for its first frame, timed stage by stage.
struct MenuStartup {
    var catalog: Double = 0
    var service: Double = 0
    var data: Double = 0
    var render: Double = 0
    var state: MenuState
    var total: Double { catalog + service + data + render }

    /// Builds a `keys`-key catalog in `scopes` scopes, a live service with a store in `folder`, the menu data and
    /// state, and renders the first frame at 120×40: what `config-menu` does before its first draw.
    init(keys: Int, scopes: Int, folder: URL) throws {
        var clock = nanoseconds()
        func lap() -> Double {
            let now = nanoseconds()
            defer { clock = now }
            return Double(now - clock) / 1e6
        }
        let (catalog, server) = try DemoConfiguration.synthetic(keys: keys, scopes: scopes)
        self.catalog = lap()
        let store = FileOverrideStore(url: folder.appendingPathComponent("overrides-\(keys).json"))
        let service = LiveConfigurationService(
            serverValues: server, catalog: catalog, overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
        self.service = lap()
        service.register(catalog)  // as ConfigurationDebugMenu.init does
        // As the menu starts: the table built on another thread while this one reads every status.
        let data = MenuDataSource(catalog: catalog, service: service).initialData(label: "synthetic")
        state = MenuState(data: data, width: 120, height: 40)
        self.data = lap()
        blackHole(MenuRenderer().render(state))
        self.render = lap()
    }
}

/// The peak resident set size of this process, in MiB.
func peakResidentMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

/// Milliseconds the reducer takes for each character of `query` typed into the filter of `initial`. A ranking the
/// keystroke leaves to the ranker is done before the next one, untimed, as the menu's ranker would.
private func typingTimes(_ query: String, from initial: MenuState) -> [Double] {
    var state = initial
    _ = MenuReducer.reduce(&state, .startFilter)
    return query.map { character in
        let start = nanoseconds()
        _ = MenuReducer.reduce(&state, .filterInsert(String(character)))
        let elapsed = Double(nanoseconds() - start) / 1e6
        if state.list.pendingRank != nil { state.refreshList(selectFirst: true) }
        return elapsed
    }
}

/// Start-up, memory, filtering and rendering of the debug menu at 700 and 100,000 keys.
func menuBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "config-benchmarks-menu-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("")
    print("Debug menu (release build; synthetic catalogs from DemoConfiguration.synthetic)")
    print("")

    // Start-up and memory: each size in a fresh process, so peak RSS is that size's alone.
    print(
        "| catalog | catalog | service + store | menu data + state | first render | start to first frame | peak RSS | targets |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for (keys, scopes, target) in [(700, 60, "≤ 100 ms"), (100_000, 1_000, "≤ 1 s, ≤ 150 MB")] {
        var rows: [[Double]] = []
        for _ in 0..<5 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            child.arguments = ["--menu-startup", String(keys), String(scopes), folder.path]
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            rows.append(
                text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        }
        let medians = (0..<6).map { column in median(rows.map { $0[column] }) }
        let cells = medians.prefix(5).map { String(format: "%.1f ms", $0) } + [String(format: "%.0f MiB", medians[5])]
        print("| \(keys) keys, \(scopes) scopes | \(cells.joined(separator: " | ")) | \(target) |")
    }

    // Filtering: type queries one character at a time into a 100,000-key menu. The ranking a keystroke asks for
    // (what the list waits for) is timed with ranking forced onto the calling thread; what the input thread itself
    // spends on a keystroke, with rankings of 5,000 keys or more left to the ranker (as the menu does), apart.
    let big = try MenuStartup(keys: 100_000, scopes: 1_000, folder: folder)
    let queries = ["upload", "sync enabled", "module42 limit", "prefetch9", "mode", "badge7"]
    var keystrokes: [Double] = []
    var inputPath: [Double] = []
    var fromScratch: [Double] = []
    var ranked = big.state
    ranked.backgroundRankingFrom = .max
    for query in queries {
        keystrokes += typingTimes(query, from: ranked)
        inputPath += typingTimes(query, from: big.state)
        var fresh = ranked
        fresh.filters.query = query
        let start = nanoseconds()
        _ = MenuReducer.reduce(&fresh, .toggleOnlyOverridden)
        _ = MenuReducer.reduce(&fresh, .toggleOnlyOverridden)
        fromScratch.append(Double(nanoseconds() - start) / 2e6)
    }
    print("")
    print("| 100,000 keys | median | p95 | worst | note |")
    print("|---|---:|---:|---:|---|")
    printRow(
        "one filter keystroke's ranking (typing \(queries.count) queries)", keystrokes, unit: "ms",
        note: "what the list waits for")
    printRow(
        "one filter keystroke on the input thread", inputPath, unit: "ms",
        note: "rankings of ≥ 5,000 keys go to the ranker; target ≤ 16 ms")
    printRow(
        "re-rank a whole query from scratch", fromScratch, unit: "ms", note: "no narrowing from the previous keystroke")
    // A paste arrives as one batch of key events; the menu loop joins the characters into one insert.
    let paste = String(repeating: "function.upload.enabled ", count: 209).prefix(5_000)
    var pastes: [Double] = []
    for _ in 0..<5 {
        var state = ranked
        _ = MenuReducer.reduce(&state, .startFilter)
        let start = nanoseconds()
        _ = MenuReducer.reduce(&state, .filterInsert(String(paste)))
        pastes.append(Double(nanoseconds() - start) / 1e6)
    }
    printRow("paste 5,000 characters into the filter", pastes, unit: "ms", note: "one re-rank for the whole paste")

    // fzf on the same text: title, wire name and scope of every key, one line each.
    if let fzf = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first(where: FileManager.default.isExecutableFile(atPath:)) {
        let lines = big.state.data.table.keys.map { key in
            "\(key.descriptor.title) \(key.descriptor.name) \(key.descriptor.scopeName)"
        }
        let input = folder.appendingPathComponent("names.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        var fzfTimes: [Double] = []
        for query in queries {
            for _ in 0..<3 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(fzf) --filter \"$1\" < \"$2\" > /dev/null", "sh", query, input.path]
                let start = nanoseconds()
                try process.run()
                process.waitUntilExit()
                fzfTimes.append(Double(nanoseconds() - start) / 1e6)
            }
        }
        printRow(
            "`fzf --filter` on the same 100,000 lines (whole run)", fzfTimes, unit: "ms",
            note: "fzf \(fzfVersion(fzf)), \(ProcessInfo.processInfo.activeProcessorCount) cores")
    } else {
        print("| `fzf --filter` | not installed (apt install fzf) | | | |")
    }

    // Rendering looks only at the rows on screen.
    let small = try MenuStartup(keys: 700, scopes: 60, folder: folder)
    for (label, startup) in [("700 keys", small), ("100,000 keys", big)] {
        let renderer = MenuRenderer()
        var state = startup.state
        _ = MenuReducer.reduce(&state, .page(1))
        let time = timePerCall(iterations: 200) { blackHole(renderer.render(state)) } / 1e6
        print("| render one 120×40 frame, \(label) | \(String(format: "%.2f ms", time)) | | | median of 7 × 200 |")
    }
}

func fzfVersion(_ path: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--version"]
    let output = Pipe()
    process.standardOutput = output
    try? process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.split(separator: " ").first.map(String.init) ?? "?"
}

/// The child process of the start-up benchmark: prints the stage times and peak RSS.
func menuStartupChild(_ arguments: [String]) throws {
    let startup = try MenuStartup(
        keys: Int(arguments[0])!, scopes: Int(arguments[1])!, folder: URL(fileURLWithPath: arguments[2]))
    print(startup.catalog, startup.service, startup.data, startup.render, startup.total, peakResidentMiB())
}
