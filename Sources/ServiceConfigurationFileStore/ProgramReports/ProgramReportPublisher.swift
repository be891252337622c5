import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Publishes one service's ``ProgramReport`` beside its override store, at most once per interval.
///
/// Publishing starts with the program's first typed read (a tool that only uses the string-level API, like
/// `config-menu`, never publishes). After that, every recorded read and every change of the layers marks the
/// report out of date; the first mark after a write schedules the next write on a private queue, no sooner than
/// `interval` after the previous one, so a burst of reads costs one write. ``end()`` writes the final report with
/// `endedAt` synchronously; nothing is written after it.
///
/// A scheduled write appends only the reads that changed to the report's reads log (``ProgramReportLog``) instead
/// of rewriting the whole report: a program that read 100,000 keys wrote 14 MB a second. The report is written whole
/// (and the log started again) first, at the end, on ``publishNow()``, when the unregistered keys or the rejected
/// overrides change, when the log has grown past a quarter of the report (or 256 KiB), when it is a minute old (so a
/// reader of the report alone is never more than a minute behind; `Options.programReportLongestLogAge`), and
/// whenever appending fails.
///
/// The final report is also added to the store's run history (``ProgramRunHistory``), and before it prunes old
/// reports a publisher sweeps the finished ones not in the history yet (killed programs') into it.
package final class ProgramReportPublisher: Sendable {
    /// The report file.
    let fileURL: URL
    private let folder: URL
    private let engine: ConfigurationEngine
    private let programName: String
    private let programVersion: ProgramVersion?
    private let storePath: String
    private let processStart: String?
    private let startedAt = Date()
    private let interval: Duration
    /// The longest the report itself goes without the reads its log holds.
    private let longestLogAge: Duration
    private let keptFinishedReports: Int
    private let onWarning: (@Sendable (ConfigurationWarning) -> Void)?
    private let queue = DispatchQueue(label: "ServiceConfiguration.ProgramReportPublisher")

    private struct Schedule: Sendable {
        var started = false
        var pending = false
        var lastWrite: ContinuousClock.Instant?
        var ended = false
    }

    private struct Output: Sendable {
        var ended = false
        var folderReady = false
        var writes = 0
        var lastProblem: String?
        /// The generation of the report last written whole; its log continues it.
        var generation = 0
        /// The reads as last published (the report and its log), sorted by name.
        var published: [ConfigurationReadCoverage.Read] = []
        var publishedUnregistered: [UnregisteredConfigurationKey] = []
        var publishedRejected: [ConfigurationRejectedOverride] = []
        /// The size of the report last written whole, and of its log since.
        var reportSize = 0
        var logSize = 0
        var lastWholeWrite: ContinuousClock.Instant?
    }

    /// The log's size past which the report is written whole again: a quarter of the report, at least this.
    static let minimumLogSize = 256 << 10

    private let schedule = Locked(Schedule())
    private let output = Locked(Output())

    init(
        engine: ConfigurationEngine,
        storeURL: URL,
        programName: String,
        programVersion: ProgramVersion?,
        interval: Duration,
        longestLogAge: Duration,
        keptFinishedReports: Int,
        onWarning: (@Sendable (ConfigurationWarning) -> Void)?
    ) {
        self.engine = engine
        self.programName = programName
        self.programVersion = programVersion
        self.storePath = ProgramReports.resolvedStorePath(storeURL).path
        self.folder = ProgramReports.folder(forStoreAt: storeURL)
        self.fileURL = folder.appendingPathComponent(Self.fileName(programName: programName, pid: getpid()))
        self.processStart = ProcessLiveness.startIdentity(of: getpid())
        self.interval = interval
        self.longestLogAge = longestLogAge
        self.keptFinishedReports = keptFinishedReports
        self.onWarning = onWarning
    }

    /// `<program>-<pid>-<instance>.json`, the name reduced to ASCII letters, digits, `.`, `_`, `-` (at most 64).
    package static func fileName(programName: String, pid: Int32) -> String {
        var base = String(
            programName.unicodeScalars.prefix(64).map { scalar -> Character in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        if base.isEmpty { base = "program" }
        if base.hasPrefix(".") { base = "_" + base.dropFirst() }
        return "\(base)-\(pid)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).json"
    }

    /// Called by the engine after it recorded reads or its layers changed.
    package func engineChanged(_ change: ConfigurationEngine.CoverageChange) {
        let delay = schedule.withLock { schedule -> Duration? in
            guard !schedule.ended else { return nil }
            if change == .reads { schedule.started = true }
            guard schedule.started, !schedule.pending else { return nil }
            schedule.pending = true
            guard let last = schedule.lastWrite else { return .zero }
            return max(.zero, last + interval - .now)
        }
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in self?.flush() }
    }

    /// Writes the whole report now if publishing started, whatever the schedule (for tests and for an explicit
    /// flush: the report file alone then holds everything).
    package func publishNow() {
        let go = schedule.withLock { schedule -> Bool in
            guard schedule.started, !schedule.ended else { return false }
            schedule.lastWrite = .now
            return true
        }
        if go { publish(ended: false, whole: true) }
    }

    /// Writes the final report (with `endedAt`) if anything was published, and stops publishing. Idempotent.
    package func end() {
        let started = schedule.withLock { schedule -> Bool in
            defer { schedule.ended = true }
            return schedule.started && !schedule.ended
        }
        if started { publish(ended: true, whole: true) }
    }

    /// How many times the report file was written.
    package var writeCount: Int { output.withLock { $0.writes } }

    private func flush() {
        let go = schedule.withLock { schedule -> Bool in
            schedule.pending = false
            guard !schedule.ended else { return false }
            schedule.lastWrite = .now
            return true
        }
        if go { publish(ended: false, whole: false) }
    }

    /// Builds the report (outside any lock: checking overrides runs the keys' `decode`) and writes it, whole or as
    /// a log line (see the type's description), unless the final report was written already.
    private func publish(ended: Bool, whole: Bool) {
        let coverage = engine.readCoverage()
        let now = Date()
        var report = ProgramReport(
            programName: programName,
            processIdentifier: getpid(),
            processStart: processStart,
            storePath: storePath,
            startedAt: startedAt,
            writtenAt: now,
            endedAt: ended ? now : nil,
            recordsReads: coverage.isRecording,
            reads: coverage.reads,
            unregistered: coverage.unregistered,
            rejectedOverrides: engine.rejectedOverrides()
        )
        report.programVersion = programVersion?.description
        report.launchOverrides = engine.launchOverrides
        var finalReport: ProgramReport?
        let problem = output.withLock { output -> String? in
            guard !output.ended else { return nil }
            if ended { output.ended = true }
            do {
                if !output.folderReady {
                    try ProgramReportFile.prepare(folder: folder, createParents: output.writes == 0)
                    pruneFinishedReports()
                    output.folderReady = true
                }
                let logged = whole ? .mustWriteWhole : appendToLog(report, &output)
                if logged == .nothingChanged { return nil }
                if logged == .mustWriteWhole {
                    output.generation += 1
                    report.generation = output.generation
                    let data = try report.encoded()
                    try ProgramReportFile.save(data, to: fileURL)
                    // The log continued the previous generation: readers now ignore it; it goes.
                    unlink(ProgramReportLog.url(of: fileURL).path)
                    output.reportSize = data.count
                    output.logSize = 0
                    output.lastWholeWrite = .now
                    output.published = report.reads
                    output.publishedUnregistered = report.unregistered
                    output.publishedRejected = report.rejectedOverrides
                    if ended { finalReport = report }
                }
                output.writes += 1
                output.lastProblem = nil
                return nil
            } catch {
                output.folderReady = false
                output.logSize = Int.max  // the next write is whole
                let reason = "\(error)"
                defer { output.lastProblem = reason }
                return output.lastProblem == reason ? nil : reason
            }
        }
        if let problem { onWarning?(.programReportNotWritten(path: fileURL.path, reason: problem)) }
        if var finalReport {
            finalReport.status = .ended
            // A failure loses nothing and is not warned about: the ended report stays in programs/, and the next
            // publisher on the store or `config-menu coverage --runs` sweeps it into the history.
            try? ProgramRunHistory(forStoreAt: URL(fileURLWithPath: storePath))
                .add(finalReport, reportName: fileURL.lastPathComponent)
        }
    }

    /// What ``appendToLog(_:_:)`` did.
    private enum LogOutcome {
        /// The changed reads were appended to the log.
        case appended
        /// Nothing changed since the last write: nothing was written (a scheduled write that found its reads
        /// already published by ``publishNow()`` leaves no empty log behind).
        case nothingChanged
        /// The report must be written whole instead (see the type's description), or appending failed.
        case mustWriteWhole
    }

    /// Appends the reads that changed since the last write to the report's log.
    private func appendToLog(_ report: ProgramReport, _ output: inout Output) -> LogOutcome {
        guard output.generation > 0, output.logSize != Int.max,
            report.unregistered == output.publishedUnregistered, report.rejectedOverrides == output.publishedRejected,
            output.lastWholeWrite.map({ .now - $0 < longestLogAge }) ?? false
        else { return .mustWriteWhole }
        let changed = ProgramReportLog.changedReads(from: output.published, to: report.reads)
        if changed.isEmpty { return .nothingChanged }
        var bytes = output.logSize == 0 ? ProgramReportLog.header(generation: output.generation) : []
        bytes += ProgramReportLog.line(writtenAt: report.writtenAt, reads: changed)
        guard output.logSize + bytes.count <= max(Self.minimumLogSize, output.reportSize / 4) else {
            return .mustWriteWhole
        }
        do throws(ProgramReportFile.Failure) {
            try ProgramReportFile.append(
                bytes, to: ProgramReportLog.url(of: fileURL), startingOver: output.logSize == 0)
        } catch {
            return .mustWriteWhole
        }
        output.logSize += bytes.count
        output.published = report.reads
        return .appended
    }

    /// Removes the oldest finished (ended or stale) reports of this program beyond the newest
    /// `keptFinishedReports`, so a program that runs often does not fill the folder, and temporary files left by
    /// writers that died mid-write. Running programs' files and other programs' reports are never touched. Finished
    /// reports of programs using this store go into the run history first (see ``ProgramRunHistory``), so a killed
    /// run is kept there before its report goes.
    private func pruneFinishedReports() {
        let listing = ProgramReports.read(folder: folder)
        let history = ProgramRunHistory(forStoreAt: URL(fileURLWithPath: storePath))
        let swept = (try? history.add(listing.reports.filter { $0.storePath == storePath })) != nil
        let finished = listing.reports
            .filter { $0.programName == programName && $0.status != .running && $0.fileURL != fileURL }
            .sorted { $0.writtenAt > $1.writtenAt }
        // When the history cannot be written, nothing is pruned: the reports are the only record of those runs.
        for report in finished.dropFirst(swept ? keptFinishedReports : .max) {
            if let url = report.fileURL {
                unlink(url.path)
                unlink(ProgramReportLog.url(of: url).path)
            }
        }
        ProgramReportFile.removeAbandonedTemporaryFiles(in: folder)
    }
}
