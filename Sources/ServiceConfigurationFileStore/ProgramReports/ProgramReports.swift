package import Foundation
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Finds and reads the reports running programs publish beside their override store (see ``ProgramReport``).
///
/// ```swift
/// let listing = ProgramReports.read(forStoreAt: store.url)
/// for report in listing.reports { print(report.label, report.reads.count, "keys read") }
/// for problem in listing.problems { print("warning:", problem) }
/// ```
///
/// Where: `<folder of the store file, symbolic links resolved>/programs/<program>-<pid>-<instance>.json`, one file
/// per service (a process may run several; `<instance>` is random), `<program>` reduced to letters, digits, `.`,
/// `_` and `-`, each with the reads log that continues it (`….json.reads`, see `ProgramReportLog`). Reading never
/// changes the folder: files it cannot read are returned as problems, reports of processes that are gone are
/// returned with status ``ProgramReport/Status/stale``. ``ProgramReportReader`` reads again only what changed.
package enum ProgramReports {
    /// The largest report readers accept (a report of 100,000 keys read is about 10 MiB).
    package static var maximumSize: Int { ProgramReportFile.maximumSize }

    /// The name of the folder beside the store that holds the reports.
    package static let folderName = "programs"

    /// The folder in which programs using the store at `storeURL` publish their reports.
    package static func folder(forStoreAt storeURL: URL) -> URL {
        resolvedStorePath(storeURL).deletingLastPathComponent().appendingPathComponent(folderName, isDirectory: true)
    }

    /// The store's path as reports record it: absolute, standardized, symbolic links resolved.
    package static func resolvedStorePath(_ storeURL: URL) -> URL {
        storeURL.standardizedFileURL.resolvingSymlinksInPath()
    }

    /// The reports of programs that use the store at `storeURL` (reports in its folder that name another store, as
    /// when two stores share a folder, are left out).
    package static func read(forStoreAt storeURL: URL) -> ProgramReportListing {
        ProgramReportReader().read(forStoreAt: storeURL)
    }

    /// Every report in `folder` (none when the folder does not exist), each with its ``ProgramReport/status``
    /// judged now and its reads log applied.
    package static func read(folder: URL) -> ProgramReportListing {
        ProgramReportReader().read(folder: folder)
    }

    /// A cheap fingerprint of the reports folder (each report file's and reads log's name and `stat` identity), so a
    /// reader that polls can skip reading when nothing was written; `nil` when the folder cannot be listed.
    package static func folderFingerprint(forStoreAt storeURL: URL) -> ProgramReportsFingerprint? {
        let folder = folder(forStoreAt: storeURL)
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return nil }
        var files: [String: FileFingerprint?] = [:]
        for name in names where name.hasSuffix(".json") || name.hasSuffix(".json.reads") {
            files[name] = StoreFile(url: folder.appendingPathComponent(name), faults: nil).fingerprint()
        }
        return ProgramReportsFingerprint(files: files)
    }

    /// Whether the report's writer still runs: ended reports are ended; otherwise the process must exist and, where
    /// the system can tell, be the one that started when the report says (a report without a start time is then
    /// stale, as is one claiming pid 1; see `ProcessLiveness.isReportWriter`).
    package static func status(of report: ProgramReport) -> ProgramReport.Status {
        if report.endedAt != nil { return .ended }
        return ProcessLiveness.isReportWriter(pid: report.processIdentifier, startIdentity: report.processStart)
            ? .running : .stale
    }
}

/// What ``ProgramReports/folderFingerprint(forStoreAt:)`` returns: equal when no report file was written, added or
/// removed in between.
package struct ProgramReportsFingerprint: Equatable, Sendable {
    let files: [String: FileFingerprint?]
}
