import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// Reads the program reports published beside the menu's store (see `ProgramReports`; for an etcd store, in etcd:
/// `EtcdProgramReports`) at most once per ``interval``, and says when what they report changed: a program read more
/// keys, started, ended or died.
///
/// Reports are read incrementally (`ProgramReportReader`: a replaced report is parsed again, of its reads log only
/// the new lines). Once ``startReading()`` is called they are read on a thread of the source's own, and ``poll(now:)``
/// only hands over what that thread finished: a key press never waits for a report, however large (a 14 MB report
/// took 1.3–1.8 s a key in a debug build when the menu read it on its input thread).
final class ProgramCoverageSource: Sendable {
    /// The store file whose programs folder is read; `nil` for a store that is not a local file.
    let storeURL: URL?
    /// For an etcd store: the reader of the reports beside its prefix.
    let etcdReader: EtcdProgramReportReader?
    /// The shortest time between two reads of the folder, in seconds (programs write at most once a second).
    let interval: Double
    /// How long ``current(now:)`` waits for the reading thread's first result before the menu's first frame.
    static let firstReadWait = 0.25

    private struct Last: Sendable {
        var time: Double
        var coverage: ProgramCoverage
        var files: ProgramReportsFingerprint?
    }

    private struct Background: Sendable {
        var started = false
        var stopped = false
        /// What the thread read last (whether or not handed over yet), and whether ``poll(now:)`` has handed it.
        var latest: ProgramCoverage?
        var delivered = true
    }

    private let reader = ProgramReportReader()
    private let last = Locked<Last?>(nil)
    private let background = Locked(Background())
    private let wake = DispatchSemaphore(value: 0)
    private let firstRead = DispatchSemaphore(value: 0)

    init(storeURL: URL?, interval: Double = 1) {
        self.storeURL = storeURL
        self.interval = interval
        etcdReader = nil
    }

    /// A source for the reports of `store`'s programs: beside its file, in etcd, or none (another kind of store).
    init(store: any OverrideStore, interval: Double = 1) {
        storeURL = store.localFileURL
        etcdReader = (store as? EtcdOverrideStore).map { EtcdProgramReportReader(client: $0.client) }
        self.interval = interval
    }

    /// Whether the store has program reports to read.
    private var hasReports: Bool { storeURL != nil || etcdReader != nil }

    deinit {
        background.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Reads from now on, on a thread of its own (once; for a store without reports, never).
    func startReading() {
        guard hasReports else { return }
        let start = background.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        let wake = wake
        let interval = interval
        let thread = Thread { [weak self] in
            var first = true
            while true {
                let started = ContinuousClock.now
                // The source is held only while reading, not while sleeping: the menu may go away meanwhile.
                let stop: Bool = {
                    guard let source = self else { return true }
                    let coverage = source.pollNow(now: ProcessInfo.processInfo.systemUptime)
                    return source.background.withLock { state -> Bool in
                        if let coverage {
                            state.latest = coverage
                            state.delivered = false
                        }
                        if first { source.firstRead.signal() }
                        return state.stopped
                    }
                }()
                first = false
                if stop { return }
                // Reports that take long to read (a program rewriting 14 MB every second) are read at most a third
                // of the time, so the reading thread leaves the menu (and the machine) most of a core.
                let (seconds, attoseconds) = (ContinuousClock.now - started).components
                let took = Double(seconds) + Double(attoseconds) / 1e18
                _ = wake.wait(timeout: .now() + max(interval, 2 * took))
            }
        }
        thread.name = "config-menu program reports"
        thread.start()
    }

    /// What the reports say now: read now, or (once reading started) what the reading thread reads within
    /// ``firstReadWait``, else nothing yet (it comes through ``poll(now:)``).
    func current(now: Double) -> ProgramCoverage {
        guard background.withLock({ $0.started }) else {
            let files = storeURL.flatMap(ProgramReports.folderFingerprint(forStoreAt:))
            let coverage = read()
            last.withLock { $0 = Last(time: now, coverage: coverage, files: files) }
            return coverage
        }
        _ = firstRead.wait(timeout: .now() + Self.firstReadWait)
        return background.withLock { state in
            guard let latest = state.latest else { return ProgramCoverage(programs: []) }
            state.delivered = true
            return latest
        }
    }

    /// What the reports say, if it changed since it was last told; otherwise `nil`. Once reading started, this only
    /// takes what the reading thread finished (it never reads); before, it reads if ``interval`` passed.
    func poll(now: Double) -> ProgramCoverage? {
        guard background.withLock({ $0.started }) else { return pollNow(now: now) }
        return background.withLock { state in
            guard !state.delivered else { return nil }
            state.delivered = true
            return state.latest
        }
    }

    /// Reads the reports if ``interval`` passed since the last read and a report file changed (or a program shown
    /// as running stopped); returns the coverage if it changed.
    private func pollNow(now: Double) -> ProgramCoverage? {
        guard hasReports else { return nil }
        let due = last.withLock { last in last.map { now - $0.time >= interval } ?? true }
        guard due else { return nil }
        guard let storeURL else {
            // etcd: the reader fetches only reports whose revision changed; a report that expired is gone.
            let coverage = read()
            return last.withLock { last in
                defer { last = Last(time: now, coverage: coverage, files: nil) }
                return last?.coverage == coverage ? nil : coverage
            }
        }
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
            defer { last = Last(time: now, coverage: coverage, files: files) }
            return last?.coverage == coverage ? nil : coverage
        }
    }

    private func read() -> ProgramCoverage {
        if let etcdReader { return ProgramCoverage(listing: etcdReader.read()) }
        guard let storeURL else { return ProgramCoverage(programs: []) }
        return ProgramCoverage(listing: reader.read(forStoreAt: storeURL))
    }
}
