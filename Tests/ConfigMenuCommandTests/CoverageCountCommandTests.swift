import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// The count of keys read is of the catalog shown: a program that read keys of another catalog does not make
/// `config-menu coverage` claim more keys read than the catalog has (the menu: `CoverageCountTests`).
@Suite("config-menu coverage counts the catalog's keys only")
struct CoverageCountCommandTests {
    @Test("config-menu coverage: read (2 of 55 keys; 2000 more keys not in this catalog)")
    func commandHeading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "coverage-count-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("overrides.json")
        let programs = ProgramReports.folder(forStoreAt: store)
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        let start = Date(timeIntervalSince1970: 1_764_425_100)
        let names =
            ["function.album.like.enabled", "function.chat.typing_interval_ms"]
            + (0..<2_000).map { "other.catalog.key\($0)" }
        var report = ProgramReport(
            programName: "other-app", processIdentifier: 4242, processStart: nil, storePath: nil, startedAt: start,
            writtenAt: start, endedAt: start + 60, recordsReads: true,
            reads: names.map { .init(name: $0, firstRead: start, currentValueFirstRead: start) }, unregistered: [],
            rejectedOverrides: [], status: .ended)
        report.storePath = ProgramReports.resolvedStorePath(store).path
        try report.encoded().write(to: programs.appendingPathComponent("other-app-4242-1.json"))
        let run = try configMenu(["coverage", "--store", store.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output.contains("read (2 of 55 keys; 2000 more keys not in this catalog):"), "\(run.output.prefix(600))"
        )
    }
}
