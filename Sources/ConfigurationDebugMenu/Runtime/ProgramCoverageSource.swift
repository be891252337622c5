import Foundation
import ServiceConfiguration

/// Reads the program reports published beside the menu's store (see `ProgramReports`) at most once per
/// ``interval``, and says when what they report changed: a program read more keys, started, ended or died.
final class ProgramCoverageSource: Sendable {
    /// The store file whose programs folder is read; `nil` for a store that is not a local file (no reports).
    let storeURL: URL?
    /// The shortest time between two reads of the folder, in seconds (programs write at most once a second).
    let interval: Double
    private let last = Locked<(time: Double, coverage: ProgramCoverage, files: ProgramReportsFingerprint?)?>(nil)

    init(storeURL: URL?, interval: Double = 1) {
        self.storeURL = storeURL
        self.interval = interval
    }

    /// What the reports say now (read now, whatever the interval).
    func current(now: Double) -> ProgramCoverage {
        let files = storeURL.flatMap(ProgramReports.folderFingerprint(forStoreAt:))
        let coverage = read()
        last.withLock { $0 = (now, coverage, files) }
        return coverage
    }

    /// What the reports say, if ``interval`` passed since the last read and it changed; otherwise `nil`.
    func poll(now: Double) -> ProgramCoverage? {
        guard storeURL != nil else { return nil }
        let due = last.withLock { last in last.map { now - $0.time >= interval } ?? true }
        guard due, let storeURL else { return nil }
        // Parsing is skipped when no report file changed and every program shown as running still runs (a report
        // of 100,000 reads is about 10 MiB: parsing it every second would keep a CPU busy).
        let files = ProgramReports.folderFingerprint(forStoreAt: storeURL)
        let unchanged = last.withLock { last -> Bool in
            guard let last, last.files == files, files != nil else { return false }
            return last.coverage.programs.allSatisfy {
                $0.status != .running || ProgramReports.status(of: $0) == .running
            }
        }
        if unchanged {
            last.withLock { $0?.time = now }
            return nil
        }
        let coverage = read()
        return last.withLock { last in
            defer { last = (now, coverage, files) }
            return last?.coverage == coverage ? nil : coverage
        }
    }

    private func read() -> ProgramCoverage {
        guard let storeURL else { return ProgramCoverage(programs: []) }
        return ProgramCoverage(listing: ProgramReports.read(forStoreAt: storeURL))
    }
}
