import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// The count of keys read is of the catalog shown: a program that read keys of another catalog does not make the
/// menu claim more keys read than the catalog has (`config-menu coverage`: `CoverageCountCommandTests`).
@Suite("Read counts count the catalog's keys only")
struct CoverageCountTests {
    static let start = Date(timeIntervalSince1970: 1_764_425_100)

    static func report(reading names: [String]) -> ProgramReport {
        ProgramReport(
            programName: "other-app", processIdentifier: 4242, processStart: nil, storePath: nil, startedAt: start,
            writtenAt: start, endedAt: start + 60, recordsReads: true,
            reads: names.map { .init(name: $0, firstRead: start, currentValueFirstRead: start) }, unregistered: [],
            rejectedOverrides: [], status: .ended)
    }

    static let outside = (0..<2_000).map { "other.catalog.key\($0)" }

    @Test("the menu's list title: 2 read of the 8 keys, not 2,002")
    func menuTitle() throws {
        var state = try MenuFixture.state()
        let coverage = ProgramCoverage(
            programs: [Self.report(reading: ["function.media.hdr.enabled", "function.chat.greeting"] + Self.outside)])
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(statuses: [:], orphans: state.data.orphans, storeProblem: nil, coverage: coverage)))
        let text = MenuRenderer(colors: false).render(state).text
        #expect(text.contains("· 2 read by other-app (ended)"), "\(text.prefix(300))")
        #expect(!text.contains("2002 read"))
    }
}
