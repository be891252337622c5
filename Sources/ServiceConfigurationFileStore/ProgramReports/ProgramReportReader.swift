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

/// Reads the program reports in a folder again and again, parsing only what changed: a report file is parsed when
/// it was replaced, and of its reads log only the lines added since the last read (a program that read 100,000
/// keys and reads a few more each second costs a few lines, not 14 MB, per read).
///
/// ```swift
/// let reader = ProgramReportReader()
/// let listing = reader.read(forStoreAt: store.url)   // everything, the first time
/// let again = reader.read(forStoreAt: store.url)     // what changed since
/// ```
package final class ProgramReportReader: Sendable {
    /// What was read of one report file and its log.
    private struct Cached: Sendable {
        var report: FileFingerprint
        var base: ProgramReport
        /// The report with its log applied.
        var current: ProgramReport
        /// The index of each read of ``current`` by name, built when the log first changes a read.
        var positions: [String: Int] = [:]
        /// The log as read so far: its identity, how many of its bytes were read, and whether it continues
        /// ``base`` (a log of another generation is not applied).
        var log: (device: UInt64, inode: UInt64, offset: Int, applies: Bool)?

        init(report: FileFingerprint, base: ProgramReport) {
            self.report = report
            self.base = base
            current = base
        }

        /// Back to the report alone.
        mutating func forgetLog() {
            current = base
            positions = [:]
            log = nil
        }
    }

    private let cache = Locked<[String: Cached]>([:])

    /// A reader with nothing read yet.
    package init() {}

    /// The reports of programs that use the store at `storeURL` (reports in its folder that name another store, as
    /// when two stores share a folder, are left out).
    package func read(forStoreAt storeURL: URL) -> ProgramReportListing {
        var listing = read(folder: ProgramReports.folder(forStoreAt: storeURL))
        let path = ProgramReports.resolvedStorePath(storeURL).path
        listing.reports.removeAll { report in report.storePath.map { $0 != path } ?? false }
        return listing
    }

    /// Every report in `folder` (none when the folder does not exist), each with its ``ProgramReport/status``
    /// judged now and its log applied.
    package func read(folder: URL) -> ProgramReportListing {
        // Programs write their reports only into a real folder (see `ProgramReportFile.prepare`); one that is a
        // link is not read, as a report that is a link is not.
        var info = stat()
        if lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            return ProgramReportListing(
                reports: [],
                problems: [.init(url: folder, problem: "a symbolic link; reports are read from a real folder only")])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return ProgramReportListing(reports: [], problems: [])
        } catch {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
                return ProgramReportListing(reports: [], problems: [])
            }
            return ProgramReportListing(
                reports: [], problems: [.init(url: folder, problem: "cannot list the folder: \(error)")])
        }
        var reports: [ProgramReport] = []
        var problems: [ProgramReportListing.Problem] = []
        var kept: [String: Cached] = [:]
        let previous = cache.withLock { $0 }
        for name in names.sorted() where !name.hasPrefix(".") && name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            do {
                var cached = try Self.current(url, cached: previous[url.path])
                kept[url.path] = cached
                cached.current.fileURL = url
                cached.current.status = ProgramReports.status(of: cached.current)
                reports.append(cached.current)
            } catch {
                problems.append(.init(url: url, problem: "\(error)"))
            }
        }
        cache.withLock { $0 = kept }
        reports.sort { ($0.startedAt, $0.processIdentifier) > ($1.startedAt, $1.processIdentifier) }
        return ProgramReportListing(reports: reports, problems: problems)
    }

    /// The report at `url` with its log applied, from `cached` where the files did not change.
    private static func current(_ url: URL, cached: Cached?) throws -> Cached {
        var info = stat()
        let fingerprint = lstat(url.path, &info) == 0 ? FileFingerprint(info) : nil
        var entry: Cached
        if let cached, let fingerprint, cached.report == fingerprint {
            entry = cached
        } else {
            let base = try ProgramReport(decoding: ProgramReportFile.load(url))
            entry = Cached(report: fingerprint ?? FileFingerprint(info), base: base)
        }
        applyLog(of: url, to: &entry)
        return entry
    }

    /// Applies the complete lines of the report's log not applied yet: all of them when the log is new or was
    /// started again (shorter than what was read). Without a log (or for a report that has none) the report
    /// stands alone; a log whose header names another generation is not applied.
    private static func applyLog(of report: URL, to entry: inout Cached) {
        let url = ProgramReportLog.url(of: report)
        var info = stat()
        guard entry.base.generation > 0, lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            if entry.log != nil { entry.forgetLog() }
            return
        }
        let device = UInt64(info.st_dev)
        let inode = UInt64(info.st_ino)
        let size = Int(info.st_size)
        if let log = entry.log, log.device != device || log.inode != inode || size < log.offset { entry.forgetLog() }
        if let log = entry.log, !log.applies { return }
        let offset = entry.log?.offset ?? 0
        guard size > offset, let bytes = try? ProgramReportFile.load(url, from: offset) else { return }
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                start = newline + 1
                guard entry.log != nil else {
                    let applies = (try? ProgramReportLog.generation(ofHeader: line)) == entry.base.generation
                    entry.log = (device, inode, applies ? offset + start : size, applies)
                    if applies { continue } else { return }
                }
                if let parsed = try? ProgramReportLog.entry(line) {
                    entry.current.apply(parsed, positions: &entry.positions)
                }
                entry.log?.offset = offset + start
            }
        }
    }
}
