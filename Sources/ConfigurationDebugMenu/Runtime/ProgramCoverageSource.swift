import Foundation
import ServiceConfiguration

/// Reads the program reports published beside the menu's store (see `ProgramReports`) at most once per
/// ``interval``, and says when what they report changed: a program read more keys, started, ended or died.
final class ProgramCoverageSource: Sendable {
    /// The store file whose programs folder is read; `nil` for a store that is not a local file (no reports).
    let storeURL: URL?
    /// The shortest time between two reads of the folder, in seconds (programs write at most once a second).
    let interval: Double
    private let last = Locked<(time: Double, coverage: ProgramCoverage)?>(nil)

    init(storeURL: URL?, interval: Double = 1) {
        self.storeURL = storeURL
        self.interval = interval
    }

    /// What the reports say now (read now, whatever the interval).
    func current(now: Double) -> ProgramCoverage {
        let coverage = read()
        last.withLock { $0 = (now, coverage) }
        return coverage
    }

    /// What the reports say, if ``interval`` passed since the last read and it changed; otherwise `nil`.
    func poll(now: Double) -> ProgramCoverage? {
        guard storeURL != nil else { return nil }
        let due = last.withLock { last in last.map { now - $0.time >= interval } ?? true }
        guard due else { return nil }
        let coverage = read()
        return last.withLock { last in
            defer { last = (now, coverage) }
            return last?.coverage == coverage ? nil : coverage
        }
    }

    private func read() -> ProgramCoverage {
        guard let storeURL else { return ProgramCoverage(programs: []) }
        return ProgramCoverage(listing: ProgramReports.read(forStoreAt: storeURL))
    }
}
