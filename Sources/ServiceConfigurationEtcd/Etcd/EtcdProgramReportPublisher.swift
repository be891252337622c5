import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Publishes one service's ``ProgramReport`` into etcd beside its ``EtcdOverrideStore``'s prefix (see
/// ``EtcdProgramReports``), attached to a lease kept alive while the program runs.
///
/// As the file store's publisher: publishing starts with the first typed read, a burst of reads costs one write
/// (no sooner than `interval` after the previous one), ``end()`` writes the final report with `endedAt`. Every call
/// to etcd runs on the publisher's own serial queue with a client of its own (2 s per call), never on the thread that
/// reads a key: an etcd that is down or hangs delays the report, never a read. A failure is reported once through
/// `onWarning` (again only when the reason changes), and the next change tries again.
///
/// The report is written whole (an etcd value is replaced atomically; there is no reads log), and only when what it
/// says changed. A report larger than etcd accepts (1 MiB is aimed at, under etcd's default 1.5 MiB request limit;
/// halved again each time etcd still says the request is too large) is published with as many reads (then
/// unregistered keys, then rejected overrides) as fit, first by name, and ``ProgramReport/omitted`` says how many
/// were left out; the warning says so once.
final class EtcdProgramReportPublisher: ProgramReportPublishing {
    /// The report's key.
    let key: [UInt8]
    /// The report's name, `<program>-<pid>-<instance>` (the last part of ``key``).
    private let name: String
    private let client: EtcdClient
    private let engine: ConfigurationEngine
    private let programName: String
    private let programVersion: ProgramVersion?
    private let location: String
    private let host = EtcdProgramReports.currentHost
    private let processStart: String?
    private let startedAt = Date()
    private let interval: Duration
    private let lifetime: Int
    private let endedLifetime: Int
    private let onWarning: (@Sendable (ConfigurationWarning) -> Void)?
    private let queue = DispatchQueue(label: "ServiceConfiguration.EtcdProgramReportPublisher")

    /// The value size aimed at first.
    static let initialBudget = 1 << 20
    /// Below this, a report etcd still refuses is not published at all.
    static let smallestBudget = 4 << 10

    private struct Schedule: Sendable {
        var started = false
        var pending = false
        var lastWrite: ContinuousClock.Instant?
        var ended = false
        var keepingAlive = false
    }

    private struct Output: Sendable {
        var ended = false
        var lease: Int64 = 0
        var writes = 0
        var lastProblem: String?
        var budget = EtcdProgramReportPublisher.initialBudget
        /// What the last published report said (its times of writing aside), to skip writes that change nothing.
        var published: ProgramReport?
    }

    private let schedule = Locked(Schedule())
    private let output = Locked(Output())

    init(
        store: EtcdOverrideStore, engine: ConfigurationEngine, options: LiveConfigurationService.Options,
        programVersion: ProgramVersion?
    ) {
        let endpoint = store.client.endpoint
        client = EtcdClient(endpoint: endpoint, timeout: .seconds(2), watchCheckInterval: nil)
        let name = String(
            ProgramReportPublisher.fileName(programName: options.programName, pid: getpid()).dropLast(".json".count))
        key = EtcdProgramReports.key(name, for: endpoint)
        self.name = name
        location = EtcdProgramReports.url(ofKey: key, for: endpoint).absoluteString
        self.engine = engine
        programName = options.programName
        self.programVersion = programVersion
        processStart = ProcessLiveness.startIdentity(of: getpid())
        interval = options.programReportInterval
        lifetime = max(1, Int(options.programReportLifetime.components.seconds))
        endedLifetime = max(1, Int(options.endedProgramReportLifetime.components.seconds))
        onWarning = options.onWarning
    }

    /// Called by the engine after it recorded reads or its layers changed: schedules a write (see the type).
    func engineChanged(_ change: ConfigurationEngine.CoverageChange) {
        let (delay, keepAlive) = schedule.withLock { schedule -> (Duration?, Bool) in
            guard !schedule.ended else { return (nil, false) }
            if change == .reads { schedule.started = true }
            guard schedule.started, !schedule.pending else { return (nil, false) }
            schedule.pending = true
            let keepAlive = !schedule.keepingAlive
            schedule.keepingAlive = true
            guard let last = schedule.lastWrite else { return (.zero, keepAlive) }
            return (max(.zero, last + interval - .now), keepAlive)
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + Self.seconds(delay)) { [weak self] in self?.flush() }
        if keepAlive { scheduleKeepAlive() }
    }

    /// Publishes the whole report now (on the publisher's queue, waiting for it) if publishing started.
    func publishNow() {
        let go = schedule.withLock { schedule -> Bool in
            guard schedule.started, !schedule.ended else { return false }
            schedule.lastWrite = .now
            return true
        }
        if go { queue.sync { publish(ended: false, force: true) } }
    }

    /// Publishes the final report (with `endedAt`) if anything was published, and stops. Idempotent.
    func end() {
        let started = schedule.withLock { schedule -> Bool in
            defer { schedule.ended = true }
            return schedule.started && !schedule.ended
        }
        if started { queue.sync { publish(ended: true, force: true) } }
    }

    /// How many times the report was put into etcd.
    var writeCount: Int { output.withLock { $0.writes } }

    private func flush() {
        let go = schedule.withLock { schedule -> Bool in
            schedule.pending = false
            guard !schedule.ended else { return false }
            schedule.lastWrite = .now
            return true
        }
        if go { publish(ended: false, force: false) }
    }

    /// Keeps the lease alive a third of its lifetime from now, and again after that, until the report ended. A lease
    /// that expired meanwhile (etcd was out of reach longer than its lifetime) is replaced by publishing again.
    private func scheduleKeepAlive() {
        queue.asyncAfter(deadline: .now() + Double(lifetime) / 3) { [weak self] in
            guard let self else { return }
            guard !schedule.withLock({ $0.ended }) else { return }
            let lease = output.withLock { $0.ended ? -1 : $0.lease }
            if lease == 0 {
                // Never published, or the last attempt failed: try again, even if nothing changed since.
                publish(ended: false, force: true)
            } else if lease > 0 {
                do throws(EtcdError) {
                    if try client.keepAlive(lease: lease) <= 0 {
                        output.withLock { $0.lease = 0 }
                        publish(ended: false, force: true)
                    }
                } catch {
                    warn("cannot keep its lease alive: \(error.reason)")
                }
            }
            if lease >= 0 { scheduleKeepAlive() }
        }
    }

    /// Builds the report (outside any lock: checking overrides runs the keys' `decode`) and puts it into etcd,
    /// unless it says what was published already (`force` writes anyway) or the final report was written. On the
    /// publisher's queue.
    private func publish(ended: Bool, force: Bool) {
        let coverage = engine.readCoverage()
        let now = Date()
        var report = ProgramReport(
            programName: programName, processIdentifier: getpid(), processStart: processStart,
            storePath: client.endpoint.location,
            startedAt: startedAt, writtenAt: now, endedAt: ended ? now : nil, recordsReads: coverage.isRecording,
            reads: coverage.reads, unregistered: coverage.unregistered, rejectedOverrides: engine.rejectedOverrides())
        report.host = host
        report.programVersion = programVersion?.description
        report.launchOverrides = engine.launchOverrides
        let (skip, lease, budget) = output.withLock { output -> (Bool, Int64, Int) in
            guard !output.ended else { return (true, 0, 0) }
            var comparable = report
            comparable.writtenAt = output.published?.writtenAt ?? now
            return (!force && output.published == comparable, output.lease, output.budget)
        }
        if skip { return }
        do throws(EtcdError) {
            var budget = budget
            var lease = lease
            while true {
                let (data, omitted) = try Self.fitted(report, budget: budget)
                do {
                    if ended || lease == 0 { lease = try client.grantLease(ttl: ended ? endedLifetime : lifetime) }
                    _ = try client.put(data, at: key, lease: lease)
                } catch  where error.isRequestTooLarge && budget / 2 >= Self.smallestBudget {
                    budget /= 2
                    continue
                } catch  where error.isLeaseNotFound && !ended {
                    lease = 0
                    continue
                }
                let previousLease = output.withLock { output -> Int64 in
                    defer {
                        output.lease = lease
                        output.budget = budget
                        output.writes += 1
                        output.published = report
                        if ended { output.ended = true }
                    }
                    return output.lease
                }
                if ended, previousLease != 0, previousLease != lease {
                    // The ended report is on a lease of its own now: the running one goes (it holds nothing more).
                    try? client.revoke(lease: previousLease)
                }
                if ended {
                    // Kept in the run history; a failure loses only this run's evidence across runs (the ended
                    // report stays for `coverage --runs` to sweep in while its lease lasts).
                    try? EtcdRunHistory(client: client)
                        .put(data, reportName: name + ".json", endedAt: report.endedAt ?? now)
                }
                if omitted.isEmpty {
                    output.withLock { $0.lastProblem = nil }
                } else {
                    warn(
                        "it is larger than etcd accepts (\(ByteCount.describe(budget)) are aimed at); published with "
                            + omitted.description)
                }
                return
            }
        } catch {
            if ended { output.withLock { $0.ended = true } }
            warn(
                error.isRequestTooLarge ? "etcd refuses even a report of a few KiB: \(error.reason)" : error.reason,
                problem: Self.outOfReach.contains(error.kind) ? "out of reach" : nil)
        }
    }

    /// The failures that mean etcd is out of reach: while it is, one warning says so, however the words of each
    /// failure change (a refused connection, then a call timed out on a starved thread).
    private static let outOfReach: Set<EtcdError.Kind> = [.unreachable, .timedOut, .outcomeUnknown]

    /// Warns that the report was not written (or not whole), once for each problem in a row: `problem` names it when
    /// failures worded differently are one problem, else `reason` does.
    private func warn(_ reason: String, problem: String? = nil) {
        let problem = problem ?? reason
        let isNew = output.withLock { output -> Bool in
            defer { output.lastProblem = problem }
            return output.lastProblem != problem
        }
        if isNew { onWarning?(.programReportNotWritten(path: location, reason: reason)) }
    }

    /// The report's bytes within `budget`: whole when it fits, else with the most reads (then unregistered keys,
    /// then rejected overrides) that fit, first by name, saying how many were left out.
    static func fitted(_ report: ProgramReport, budget: Int) throws(EtcdError) -> (
        data: [UInt8], omitted: ProgramReport.Omissions
    ) {
        func encode(_ report: ProgramReport) -> [UInt8] { (try? report.encoded()).map { [UInt8]($0) } ?? [] }
        // Each read takes at least its name and 44 bytes (`"": {"firstRead": "…"}` and its indentation): a report
        // that cannot fit is not encoded whole (100,000 reads are 14 MB, a second of encoding in a debug build).
        let leastReadBytes = report.reads.reduce(0) { $0 + $1.name.utf8.count + 44 }
        if leastReadBytes <= budget {
            let whole = encode(report)
            if whole.count <= budget { return (whole, ProgramReport.Omissions()) }
        }
        var trimmed = report
        trimmed.omitted = ProgramReport.Omissions()
        /// The most of `count` items that fit, keeping the first `kept` of them in `apply`.
        func fit(_ count: Int, _ apply: (inout ProgramReport, Int) -> Void) -> Int {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high + 1) / 2
                var candidate = trimmed
                apply(&candidate, middle)
                if encode(candidate).count <= budget { low = middle } else { high = middle - 1 }
            }
            return low
        }
        // Counts first (their digits count too), then the items.
        trimmed.omitted.reads = report.reads.count
        trimmed.omitted.unregistered = report.unregistered.count
        trimmed.omitted.rejectedOverrides = report.rejectedOverrides.count
        trimmed.reads = []
        trimmed.unregistered = []
        trimmed.rejectedOverrides = []
        guard encode(trimmed).count <= budget else {
            throw EtcdError(.tooLarge, "the report is larger than \(ByteCount.describe(budget)) even without its reads")
        }
        let rejected = fit(report.rejectedOverrides.count) {
            $0.rejectedOverrides = Array(report.rejectedOverrides.prefix($1))
            $0.omitted.rejectedOverrides = report.rejectedOverrides.count - $1
        }
        trimmed.rejectedOverrides = Array(report.rejectedOverrides.prefix(rejected))
        trimmed.omitted.rejectedOverrides = report.rejectedOverrides.count - rejected
        let unregistered = fit(report.unregistered.count) {
            $0.unregistered = Array(report.unregistered.prefix($1))
            $0.omitted.unregistered = report.unregistered.count - $1
        }
        trimmed.unregistered = Array(report.unregistered.prefix(unregistered))
        trimmed.omitted.unregistered = report.unregistered.count - unregistered
        // The reads are most of a large report (100,000 of them are 14 MB): how many fit is estimated from the size
        // of the first thousand and corrected down until they fit, a few encodings instead of a search.
        let base = encode(trimmed).count
        var sample = trimmed
        sample.reads = Array(report.reads.prefix(1000))
        let readBytes = Double(max(1, encode(sample).count - base)) / Double(max(1, sample.reads.count))
        let room = Double(budget - base)
        var kept = min(report.reads.count, max(0, Int(room / readBytes)))
        while true {
            trimmed.reads = Array(report.reads.prefix(kept))
            trimmed.omitted.reads = report.reads.count - kept
            let data = encode(trimmed)
            if data.count <= budget || kept == 0 { return (data, trimmed.omitted) }
            kept = max(0, min(kept - 1, Int(Double(kept) * Double(budget) / Double(data.count) * 0.99)))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The etcd store subscribes an etcd program report publisher to each service built on it (when overrides apply in
/// this build and ``LiveConfigurationService/Options/publishesProgramReport`` is on).
extension EtcdOverrideStore: ConfigurationReadObserverProvider {
    package func makeReadObserver(
        engine: ConfigurationEngine, options: LiveConfigurationService.Options, programVersion: ProgramVersion?
    ) -> (any ConfigurationReadObserver)? {
        guard engine.overridesEnabled, options.publishesProgramReport else { return nil }
        return EtcdProgramReportPublisher(
            store: self, engine: engine, options: options, programVersion: programVersion)
    }
}

extension LiveConfigurationService {
    /// The etcd key this service publishes its program report to (see ``EtcdProgramReports``), or `nil` when it
    /// publishes none there.
    package var etcdProgramReportKey: [UInt8]? { (readObserver as? EtcdProgramReportPublisher)?.key }
}
