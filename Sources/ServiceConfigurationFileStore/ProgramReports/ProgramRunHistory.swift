package import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The runs of programs that used a store, kept after their reports are gone: evidence across runs (which keys were
/// read, with which values, by which versions), for `config-menu coverage --runs`.
///
/// Where: `<folder of the store file, symbolic links resolved>/runs/`, beside `programs/`, one file per run named
/// `<end>-<report file name>` (`<end>` is the UTC time the run ended, or its report was last written for a killed
/// run, as `20261204T051500123Z`, so names sort oldest first). Each file is the run's last ``ProgramReport`` (the
/// same format, mode 0600): program, `programVersion`, pid, `host` (the machine, which adding sets), start,
/// `endedAt` (absent: the run was killed), the keys read and the values each read saw. Only the newest ``keptRuns``
/// are kept.
///
/// Who writes it: a publisher when its program ends its report (``ProgramReportPublisher/end()``); and finished
/// reports not in the history yet (a killed program's, or one whose end could not write here) are swept in by
/// the next publisher that starts on the store (before it prunes old reports) and by `config-menu coverage
/// --runs` before it reads. A running program's report is never swept: a run counts once it ended or is found
/// killed. Writers hold `runs/history.lock` (an exclusive `flock`) while they add and rotate, and each file is
/// written whole and renamed into place, so processes adding at once lose nothing and readers never see half a
/// run.
///
/// Reading never changes the folder. A file that is a symbolic link, not a regular file, larger than
/// ``maximumSize`` or not a readable report is left alone and returned as a problem naming it.
package struct ProgramRunHistory: Sendable {
    /// How many runs the history keeps: the newest, by the time they ended.
    package static let keptRuns = 200
    /// The name of the folder beside the store that holds the history.
    package static let folderName = "runs"
    /// The largest run file readers accept (a run that read 100,000 keys is about 15 MiB).
    package static var maximumSize: Int { ProgramReportFile.maximumSize }

    /// The folder.
    package let folder: URL
    /// How many runs adding keeps (``keptRuns`` unless a test says otherwise).
    package let kept: Int

    /// The history in `folder`, keeping the newest `kept` runs.
    package init(folder: URL, kept: Int = Self.keptRuns) {
        self.folder = folder
        self.kept = max(1, kept)
    }

    /// The history of the store at `storeURL`.
    package init(forStoreAt storeURL: URL, kept: Int = Self.keptRuns) {
        self.init(
            folder: ProgramReports.resolvedStorePath(storeURL).deletingLastPathComponent()
                .appendingPathComponent(Self.folderName, isDirectory: true),
            kept: kept)
    }

    /// What adding a run can fail with: a message naming the folder or file.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// The history file name of the run whose report file is called `reportName` and that ended (or was last
    /// written) at `date`.
    package static func fileName(reportName: String, endedAt date: Date) -> String {
        let stamp = Timestamp.format(date).filter { $0 != "-" && $0 != ":" && $0 != "." }
        return "\(stamp)-\(reportName)"
    }

    /// The report file name a history file name holds (what follows its time), or `nil` for a name that is not a
    /// run's.
    static func reportName(ofRun name: String) -> Substring? {
        guard !name.hasPrefix("."), name.hasSuffix(".json"), let dash = name.firstIndex(of: "-") else { return nil }
        return name[name.index(after: dash)...]
    }

    /// The report file name the run file at `url` holds, or `nil` for a file that is not a run's.
    package static func reportName(of url: URL) -> String? {
        reportName(ofRun: url.lastPathComponent).map(String.init)
    }

    /// Adds the finished runs among `reports` (ended, or stale: killed) that the history does not hold yet, each
    /// under the name of the file it was read from, then removes the oldest beyond ``kept``. Running reports and
    /// reports without a file are skipped. Returns how many were added.
    @discardableResult
    package func add(_ reports: [ProgramReport]) throws(Failure) -> Int {
        let finished = reports.filter { $0.status != .running && $0.fileURL != nil }
        guard !finished.isEmpty else { return 0 }
        return try withLock { () throws(Failure) -> Int in
            let present = Set(names().compactMap(Self.reportName(ofRun:)))
            var added = 0
            for report in finished {
                guard let reportName = report.fileURL?.lastPathComponent, !present.contains(Substring(reportName))
                else { continue }
                try save(report, reportName: reportName)
                added += 1
            }
            if added > 0 { rotate() }
            return added
        }
    }

    /// Adds the run of `report` (its program ended it, or it is being swept in), named after its report file
    /// `reportName`, replacing the same run if present, then removes the oldest beyond ``kept``.
    package func add(_ report: ProgramReport, reportName: String) throws(Failure) {
        try withLock { () throws(Failure) in
            for name in names() where Self.reportName(ofRun: name) == Substring(reportName) {
                unlink(folder.appendingPathComponent(name).path)
            }
            try save(report, reportName: reportName)
            rotate()
        }
    }

    /// Every run in the history, newest first (by the time each ended), and the files that are not readable runs.
    package func read() -> ProgramReportListing {
        var info = stat()
        if lstat(folder.path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            return ProgramReportListing(
                reports: [],
                problems: [.init(url: folder, problem: "not a folder (a symbolic link?); the history is not read")])
        }
        var runs: [ProgramReport] = []
        var problems: [ProgramReportListing.Problem] = []
        for name in names() where Self.reportName(ofRun: name) != nil {
            let url = folder.appendingPathComponent(name)
            do {
                var run = try ProgramReport(decoding: ProgramReportFile.load(url))
                run.fileURL = url
                run.status = run.endedAt == nil ? .stale : .ended
                runs.append(run)
            } catch {
                problems.append(.init(url: url, problem: "\(error)"))
            }
        }
        runs.sort {
            ($0.endedAt ?? $0.writtenAt, $0.processIdentifier) > ($1.endedAt ?? $1.writtenAt, $1.processIdentifier)
        }
        return ProgramReportListing(reports: runs, problems: problems)
    }

    /// The runs of programs that used the store at `storeURL` (runs in the history that name another store, as
    /// when two stores share a folder, are left out).
    package func read(forStoreAt storeURL: URL) -> ProgramReportListing {
        var listing = read()
        let path = ProgramReports.resolvedStorePath(storeURL).path
        listing.reports.removeAll { run in run.storePath.map { $0 != path } ?? false }
        return listing
    }

    // MARK: Files

    /// The names in the folder, sorted (oldest run first); none when it cannot be listed.
    private func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Runs `body` holding `runs/history.lock`, after making the folder (mode 0700) and checking it is this user's
    /// real folder.
    private func withLock<Value>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        do throws(ProgramReportFile.Failure) {
            try ProgramReportFile.prepare(folder: folder, createParents: false)
        } catch {
            throw Failure(description: "cannot keep the run history in \(folder.path): \(error)")
        }
        let lock = StoreFile(url: folder.appendingPathComponent("history"), faults: nil)
        let result: Result<Value, Failure>
        do throws(StoreFile.Failure) {
            result = try lock.withExclusiveLock { _ throws(StoreFile.Failure) -> Result<Value, Failure> in
                do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
            }
        } catch {
            throw Failure(description: "cannot lock the run history in \(folder.path): \(error.problem)")
        }
        return try result.get()
    }

    private func save(_ report: ProgramReport, reportName: String) throws(Failure) {
        var run = report
        run.fileURL = nil
        // Reports beside a store file are written and judged on this machine; the history names it.
        if run.host == nil { run.host = OverrideChangeOrigin.currentHost }
        let name = Self.fileName(reportName: reportName, endedAt: report.endedAt ?? report.writtenAt)
        do {
            try ProgramReportFile.save(run.encoded(), to: folder.appendingPathComponent(name))
        } catch {
            throw Failure(description: "cannot add a run to the history in \(folder.path): \(error)")
        }
    }

    /// Removes the oldest runs beyond ``kept`` and temporary files writers that died left. Under the lock.
    private func rotate() {
        let runs = names().filter { Self.reportName(ofRun: $0) != nil }
        for name in runs.dropLast(kept) { unlink(folder.appendingPathComponent(name).path) }
        ProgramReportFile.removeAbandonedTemporaryFiles(in: folder)
    }
}
