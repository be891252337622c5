import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// A program report of `reads` reads (sorted by name, as a service reports them), as a program that read that many
/// keys publishes it.
func benchmarkReport(reads: Int, storePath: String) -> ProgramReport {
    let start = Date(timeIntervalSince1970: 1_764_425_100)
    return ProgramReport(
        programName: "bench-app", processIdentifier: getpid(), processStart: nil, storePath: storePath,
        startedAt: start, writtenAt: start, endedAt: nil, recordsReads: true,
        reads: (0..<reads).map {
            .init(
                name: "function.synthetic.module\($0 % 1000).key\($0)", firstRead: start + Double($0) / 1000,
                currentValueFirstRead: start + Double($0) / 1000)
        }.sorted { $0.name < $1.name }, unregistered: [], rejectedOverrides: [])
}

/// The cost of a big program report (issue 21, item 14: 100,000 reads, about 14 MB) for the program that writes it,
/// for the menu and `config-menu coverage` that read it, and for the menu applying what it says.
func reportBenchmarks() throws {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "config-benchmarks-reports-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("overrides.json")
    let programs = ProgramReports.folder(forStoreAt: store)
    try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
    let file = programs.appendingPathComponent("bench-app-\(getpid())-1.json")
    print("")
    print("Program reports (release build; one report of 100,000 reads; load average \(loadAverage()))")
    print("")
    print("| 100,000 reads | median | p95 | worst | note |")
    print("|---|---:|---:|---:|---|")

    var report = benchmarkReport(reads: 100_000, storePath: ProgramReports.resolvedStorePath(store).path)
    var size = 0
    var encodes: [Double] = []
    for _ in 0..<5 {
        let start = nanoseconds()
        let data = try report.encoded()
        try data.write(to: file, options: .atomic)
        encodes.append(Double(nanoseconds() - start) / 1e6)
        size = data.count
    }
    printRow(
        "the program writes its whole report (\(ByteCount.describe(size)))", encodes, unit: "ms",
        note: "each write before issue 21; now the first, the last, and when the log outgrows it")

    var reads: [Double] = []
    var listing = ProgramReports.read(forStoreAt: store)
    for _ in 0..<5 {
        let start = nanoseconds()
        listing = ProgramReports.read(forStoreAt: store)
        reads.append(Double(nanoseconds() - start) / 1e6)
    }
    precondition(listing.reports.first?.reads.count == 100_000, "the report was not read: \(listing.problems)")
    printRow("read and parse the whole report", reads, unit: "ms", note: "config-menu coverage; the menu's reader")

    // What a publisher does instead, once the report is written (issue 21): finds the reads that changed (one more
    // key read, one read again) and appends them to the report's log; a reader that follows the report reads only
    // that line.
    report.generation = 1
    try report.encoded().write(to: file, options: .atomic)
    let log = ProgramReportLog.url(of: file)
    try Data(ProgramReportLog.header(generation: 1)).write(to: log)
    let reader = ProgramReportReader()
    precondition(reader.read(forStoreAt: store).reports.first?.reads.count == 100_000)
    var appends: [Double] = []
    var follows: [Double] = []
    var published = report.reads
    for round in 0..<20 {
        var next = published
        next.append(.init(name: "function.zz.new\(round)", firstRead: Date(), currentValueFirstRead: Date()))
        next[round * 1000].currentValueFirstRead = Date()
        var start = nanoseconds()
        let changed = ProgramReportLog.changedReads(from: published, to: next)
        let handle = try FileHandle(forWritingTo: log)
        try handle.seekToEnd()
        try handle.write(contentsOf: ProgramReportLog.line(writtenAt: Date(), reads: changed))
        try handle.close()
        appends.append(Double(nanoseconds() - start) / 1e6)
        published = next
        start = nanoseconds()
        let followed = reader.read(forStoreAt: store)
        follows.append(Double(nanoseconds() - start) / 1e6)
        precondition(followed.reports.first?.read(named: "function.zz.new\(round)") != nil, "the log was not read")
    }
    printRow(
        "the program appends what changed to the report's log", appends, unit: "ms",
        note: "finding the 2 changed reads among 100,000, and one line")
    printRow(
        "a reader that follows the report reads the new line", follows, unit: "ms",
        note: "ProgramReportReader: the report is not parsed again")

    var merges: [Double] = []
    var coverage = ProgramCoverage(listing: listing)
    for _ in 0..<5 {
        let start = nanoseconds()
        coverage = ProgramCoverage(listing: listing)
        merges.append(Double(nanoseconds() - start) / 1e6)
    }
    printRow("merge it into the menu's coverage", merges, unit: "ms", note: "")

    // What the menu's loop does with a new coverage: the refresh, and the next frame (55-key demo catalog).
    let service = LiveConfigurationService(
        serverValues: DemoConfiguration.serverValues, catalog: try DemoConfiguration.makeCatalog(),
        overrideStore: FileOverrideStore(url: store), watchMode: nil, overridePolicy: .allBuilds)
    let data = MenuData(table: KeyTable(catalog: try DemoConfiguration.makeCatalog()), service: service, label: "demo")
    var applies: [Double] = []
    let renderer = MenuRenderer()
    for round in 0..<5 {
        var state = MenuState(data: data, width: 120, height: 40)
        report.reads[round].currentValueFirstRead = nil
        let changed = ProgramCoverage(programs: [report])
        let start = nanoseconds()
        _ = MenuReducer.reduce(
            &state,
            .refreshed(MenuDataUpdate(statuses: [:], orphans: [], storeProblem: nil, coverage: changed)))
        blackHole(renderer.render(state))
        applies.append(Double(nanoseconds() - start) / 1e6)
    }
    blackHole(coverage)
    printRow("the menu applies a new coverage and draws", applies, unit: "ms", note: "on the input thread")
    print("Load average after: \(loadAverage())")
}
