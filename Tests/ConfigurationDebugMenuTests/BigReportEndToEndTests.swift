import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(
    "the menu beside a program rewriting a 14 MB report every second (tmux)", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct BigReportEndToEndTests {
    /// The writer fixture: a 100,000-read report, rewritten whole once a second.
    static let writer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/BigReport/big_report.py")

    @Test(
        "keys typed while a big report is rewritten every second are answered promptly; the report still shows",
        .enabled(
            if: !runsUnderThreadSanitizer,
            "a key press's time under ThreadSanitizer is the sanitizer's (the menu parses 14 MB each second)"))
    func keysStayPrompt() async throws {
        let session = try TmuxSession(width: 120, height: 32)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let programs = session.home.appendingPathComponent("state/programs")
        let writer = try ChildProcess(
            "/usr/bin/env", ["python3", Self.writer.path, programs.path, store.path, "100000"], standardError: .discard)
        // The first report is written before the menu starts, so its start reads one too.
        #expect(await poll(within: 60) { !writer.lines.isEmpty })
        #expect(writer.lines.first?.contains("written 1") == true, "\(writer.lines)")
        let size =
            (try FileManager.default.contentsOfDirectory(atPath: programs.path))
            .compactMap {
                try? FileManager.default.attributesOfItem(atPath: programs.appendingPathComponent($0).path)[.size]
                    as? Int
            }
            .max() ?? 0
        #expect(size > 12_000_000, "the report is about 14 MB: \(size) bytes")

        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules", timeout: 60)
        // The report is read (off the input thread): its one catalog key counts, its 100,000 others do not.
        try await session.waitFor("1 read by report-writer", timeout: 120)
        // The filter bar, at the start of the bottom row, shows what was typed.
        func filterShows(_ query: String) throws -> Bool {
            try session.screen().split(separator: "\n").contains { $0.hasPrefix("/" + query) }
        }
        try session.press("/")
        #expect(try await session.waitUntil(timeout: 60) { (try? filterShows("")) == true })
        var latencies: [Double] = []
        for (offset, character) in "typing".enumerated() {
            let start = Date()
            try session.type(String(character))
            let prefix = String("typing".prefix(offset + 1))
            #expect(try await session.waitUntil(timeout: 60) { (try? filterShows(prefix)) == true }, "\(prefix)")
            latencies.append(Date().timeIntervalSince(start))
        }
        try session.press("Escape", "q")
        try await session.waitForMenuExit()
        // Generous: the menu that read reports on its input thread took a 2.97 s median here (debug build; 1.3-1.8 s
        // as the issue filed it), about 0.02 s now. The bounds are for a loaded machine running the whole suite (a
        // single key once took 8 s there; a full CI rehearsal beside another build: a 1.59 s median), not a benchmark:
        // see BENCHMARKS.md, "Program reports". 2.5 s still fails the code that read reports on the input thread.
        let sorted = latencies.sorted()
        #expect(sorted[sorted.count / 2] < 2.5, "median \(sorted[sorted.count / 2]) s; all: \(latencies)")
        #expect(sorted.last! < 30, "worst \(sorted.last!) s; all: \(latencies)")
    }
}
