import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Merging the reports of the programs that share a store, and setting them against a catalog and the overrides.
@Suite("ProgramCoverage: what the programs using a store read")
struct ProgramCoverageTests {
    static let start = Date(timeIntervalSince1970: 1_764_425_100)

    static func report(
        _ name: String, pid: Int32, reads: [(String, Double)], unregistered: [(String, Double)] = [],
        recordsReads: Bool = true
    ) -> ProgramReport {
        ProgramReport(
            programName: name, processIdentifier: pid, processStart: nil, storePath: nil, startedAt: start,
            writtenAt: start, endedAt: nil, recordsReads: recordsReads,
            reads: reads.map {
                .init(name: $0.0, firstRead: start + $0.1, currentValueFirstRead: start + $0.1)
            },
            unregistered: unregistered.map {
                .init(name: $0.0, scopeTypeName: "S", keyTypeName: "M.S.K", firstRead: start + $0.1)
            },
            rejectedOverrides: [])
    }

    @Test("the menu's poller re-reads only when a report file changed, and tells the change once")
    func pollerSkipsUnchangedReports() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-poll-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("overrides.json")
        let programs = ProgramReports.folder(forStoreAt: store)
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        var report = Self.report("app", pid: 1, reads: (0..<20_000).map { ("key.\($0)", 1) })
        report.endedAt = Self.start + 60
        let file = programs.appendingPathComponent("app-1-0.json")
        try report.encoded().write(to: file)
        let source = ProgramCoverageSource(storeURL: store, interval: 0)
        #expect(source.current(now: 0).readNames.count == 20_000)
        #expect(source.poll(now: 1) == nil, "nothing changed")
        // A report rewritten with one more read is told once.
        report.reads.append(.init(name: "new", firstRead: Self.start + 9, currentValueFirstRead: Self.start + 9))
        try report.encoded().write(to: file)
        #expect(source.poll(now: 2)?.read(named: "new") != nil)
        #expect(source.poll(now: 3) == nil)
    }

    @Test("a key read by any program counts as read, with the earliest read and its program")
    func merged() {
        let app = Self.report("app", pid: 1, reads: [("x", 5), ("u", 2)], unregistered: [("u", 2)])
        let widget = Self.report("widget", pid: 2, reads: [("x", 3), ("y", 4), ("other.catalog", 1)])
        let coverage = ProgramCoverage(programs: [app, widget])
        #expect(coverage.read(named: "x")?.program.programName == "widget")
        #expect(coverage.read(named: "x")?.read.firstRead == Self.start + 3)
        #expect(coverage.read(named: "z") == nil)
        #expect(coverage.readCount { ["x", "y", "u", "other.catalog"].contains($0) } == 3, "unregistered u aside")
        #expect(coverage.readCount { ["x", "y", "z"].contains($0) } == 2, "keys outside the catalog are not counted")
        let summary = coverage.summary(catalogKeys: ["z", "y", "x"], overridden: ["z", "u", "orphan"])
        #expect(summary.read == ["other.catalog", "x", "y"])
        #expect(summary.unread == ["z"])
        // The unregistered key was read (it is not "overridden but never read"); the orphan and z were not.
        #expect(summary.overriddenUnread == ["orphan", "z"])
        #expect(summary.unregistered.map(\.name) == ["u"])
        #expect(summary.readOutsideCatalog == ["other.catalog"])
    }

    @Test("programs that record no reads: nothing is called unread")
    func notRecording() {
        let coverage = ProgramCoverage(programs: [Self.report("app", pid: 1, reads: [], recordsReads: false)])
        #expect(!coverage.recordsReads)
        let summary = coverage.summary(catalogKeys: ["x"], overridden: ["x"])
        #expect(summary.unread.isEmpty && summary.overriddenUnread.isEmpty)
        #expect(ProgramCoverage(programs: []).isEmpty)
    }
}
