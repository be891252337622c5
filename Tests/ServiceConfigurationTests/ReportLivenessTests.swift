import Foundation
import ServiceConfigurationFiles
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationFileStore

#if canImport(Glibc)
    import Glibc
#endif

/// When a program report counts as running: the rule of `ProcessLiveness.isReportWriter`.
@Suite("Program reports: running only while their writer can be told to run")
struct ReportLivenessTests {
    func report(pid: Int32, start: String?) -> ProgramReport {
        ProgramReport(
            programName: "app", processIdentifier: pid, processStart: start, storePath: nil, startedAt: Date(),
            writtenAt: Date(), endedAt: nil, recordsReads: true, reads: [], unregistered: [], rejectedOverrides: [])
    }

    @Test("pid 1 without a start time is stale, not running forever; so are pid 0 and negative pids")
    func pidOne() {
        for pid: Int32 in [1, 0, -1] {
            #expect(ProgramReports.status(of: report(pid: pid, start: nil)) == .stale, "pid \(pid)")
        }
        #expect(ProgramReports.status(of: report(pid: 1, start: ProcessLiveness.startIdentity(of: 1))) == .stale)
    }

    @Test("where start times are known, a live pid counts only with its own start time")
    func startTimeRequired() throws {
        let own = ProcessLiveness.startIdentity(of: getpid())
        #expect(ProgramReports.status(of: report(pid: getpid(), start: own)) == .running)
        if own != nil {
            #expect(ProgramReports.status(of: report(pid: getpid(), start: nil)) == .stale, "no start time: stale")
            #expect(ProgramReports.status(of: report(pid: getpid(), start: "other-boot/1")) == .stale)
        } else {
            // Where the system tells no start times, the pid is all there is.
            #expect(ProgramReports.status(of: report(pid: getpid(), start: nil)) == .running)
        }
        var ended = report(pid: getpid(), start: own)
        ended.endedAt = Date()
        #expect(ProgramReports.status(of: ended) == .ended)
    }
}
