package import Foundation
import ServiceConfigurationCore

/// The program reports found in a folder, and the files there that are not readable reports.
package struct ProgramReportListing: Sendable, Hashable {
    /// A file in the programs folder that could not be read as a report; it is left alone.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The file.
        package var url: URL
        /// What is wrong with it.
        package var problem: String

        package init(url: URL, problem: String) {
            self.url = url
            self.problem = problem
        }

        /// For example `/…/programs/demo-42.json: missing "pid"`.
        package var description: String { "\(VisibleText.escaped(url.path)): \(VisibleText.escaped(problem))" }
    }

    /// The reports, newest first (by the time each program started).
    package var reports: [ProgramReport]
    /// Files that are not readable reports, by path.
    package var problems: [Problem]

    package init(reports: [ProgramReport], problems: [Problem]) {
        self.reports = reports
        self.problems = problems
    }

    /// The reports of programs that still run.
    package var running: [ProgramReport] { reports.filter { $0.status == .running } }

    /// The reports to show when one program is wanted: every running one, or else the newest finished one.
    package var runningOrLatest: [ProgramReport] {
        let running = running
        if !running.isEmpty { return running }
        return reports.max { $0.writtenAt < $1.writtenAt }.map { [$0] } ?? []
    }
}
