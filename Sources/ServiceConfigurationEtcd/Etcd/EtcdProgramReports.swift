package import Foundation
import ServiceConfigurationCore
package import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// Where programs whose override store is an ``EtcdOverrideStore`` publish their ``ProgramReport``, and how the tools
/// read them.
///
/// ```swift
/// let reader = EtcdProgramReportReader(client: store.client)
/// let listing = reader.read()   // the reports, and the keys that are not readable reports
/// ```
///
/// Layout: beside the store's prefix, never under it: for `etcd://HOST:PORT/shop/overrides` the report of one service
/// is the key `/shop/overrides.programs/<program>-<pid>-<instance>` (the file store's report file name without
/// `.json`), holding the report's JSON as the file store's report file holds it, plus `"host"` (the machine it runs
/// on). Outside the range `[/shop/overrides/, /shop/overrides0)` that the store reads and watches, so a report is
/// never read as an override or shown as an orphan, a program's watch never hears another program's report, and
/// removing every override keeps the reports.
///
/// Each running report is attached to a lease of ``LiveConfigurationService/Options/programReportLifetime`` (30 s),
/// kept alive while the program runs: after a kill -9 (or a machine that stops, or a network cut) etcd deletes the
/// report when the lease expires. An ended report is attached to a lease of its own
/// (``LiveConfigurationService/Options/endedProgramReportLifetime``, 10 minutes) that nothing keeps alive, so the last
/// run stays visible that long and then goes. Nothing else ever deletes a report.
///
/// Status, as a reader judges it: ended when the report says so; stale when it is attached to no lease (nothing
/// will remove it: not written by this package) or when it names this machine and its process is gone (seen before
/// the lease expires); otherwise running (a pid on another machine cannot be checked: the lease is the proof that
/// its program still keeps it alive).
package enum EtcdProgramReports {
    /// The most reports read at once; more are reported as a problem.
    package static let maximumCount = 1000

    /// The keys' common beginning for `endpoint`: its prefix without the final `/`, then `.programs/`.
    package static func prefix(for endpoint: EtcdEndpoint) -> [UInt8] {
        Array(endpoint.prefix.dropLast()) + Array(".programs/".utf8)
    }

    /// The end of ``prefix(for:)``'s range (`/` + 1 is `0`).
    package static func rangeEnd(for endpoint: EtcdEndpoint) -> [UInt8] {
        var end = prefix(for: endpoint)
        end[end.count - 1] += 1
        return end
    }

    /// The key of a report named `name` (`<program>-<pid>-<instance>`).
    package static func key(_ name: String, for endpoint: EtcdEndpoint) -> [UInt8] {
        prefix(for: endpoint) + Array(name.utf8)
    }

    /// A report key as a URL for people and messages: `etcd://HOST:PORT/shop/overrides.programs/demo-42-1f`.
    package static func url(ofKey key: [UInt8], for endpoint: EtcdEndpoint) -> URL {
        var components = URLComponents(string: endpoint.location) ?? URLComponents()
        components.path = String(decoding: key, as: UTF8.self)
        return components.url ?? endpoint.baseURL
    }

    /// This machine's name, as reports record it (`OverrideChangeOrigin.currentHost`, as the history names it).
    package static var currentHost: String { OverrideChangeOrigin.currentHost ?? "localhost" }

    /// The status of `report`, read from a key attached to `lease` (see the type's description).
    package static func status(of report: ProgramReport, lease: Int64, host: String = currentHost)
        -> ProgramReport.Status
    {
        if report.endedAt != nil { return .ended }
        if lease == 0 { return .stale }
        if report.host == host,
            !ProcessLiveness.isReportWriter(pid: report.processIdentifier, startIdentity: report.processStart)
        {
            return .stale
        }
        return .running
    }
}

/// Reads the program reports of an etcd store again and again, fetching only what changed: one keys-only range read
/// of the reports' namespace (key, revision and lease of each), then the value of each report whose revision is
/// new. Nothing read is ever written back.
package final class EtcdProgramReportReader: Sendable {
    private struct Cached: Sendable {
        var modRevision: Int64
        var report: Result<ProgramReport, ProgramReportFormatError>
        /// The lease the key was attached to when last listed.
        var lease: Int64 = 0
    }

    /// The client reports are read with.
    package let client: EtcdClient
    private let cache = Locked<[[UInt8]: Cached]>([:])

    /// A reader of the reports beside `client`'s prefix.
    package init(client: EtcdClient) {
        self.client = client
    }

    /// Every report, newest first, each with its status judged now; keys that are not readable reports (or that
    /// cannot be read now) as problems. When etcd cannot be reached, one problem says so.
    package func read() -> ProgramReportListing {
        let endpoint = client.endpoint
        let prefix = EtcdProgramReports.prefix(for: endpoint)
        let versions: (keys: [EtcdClient.KeyVersion], more: Bool)
        do {
            versions = try client.keyVersions(
                from: prefix, to: EtcdProgramReports.rangeEnd(for: endpoint), limit: EtcdProgramReports.maximumCount)
        } catch {
            // What was read last stays shown (a moment of etcd out of reach does not wipe the menu's marks), with
            // the problem.
            var listing = Self.listing(cache.withLock { $0 }, endpoint: endpoint)
            listing.problems.append(
                .init(
                    url: EtcdProgramReports.url(ofKey: prefix, for: endpoint),
                    problem: "cannot read the program reports from etcd: \(error.reason)"))
            return listing
        }
        let previous = cache.withLock { $0 }
        var kept: [[UInt8]: Cached] = [:]
        var problems: [ProgramReportListing.Problem] = []
        for version in versions.keys {
            let url = EtcdProgramReports.url(ofKey: version.key, for: endpoint)
            var entry = previous[version.key]
            if entry?.modRevision != version.modRevision {
                do throws(EtcdError) {
                    guard let (value, modRevision, _) = try client.value(at: version.key) else { continue }  // gone
                    entry = Cached(modRevision: modRevision, report: Self.decode(value))
                } catch {
                    problems.append(.init(url: url, problem: "cannot read it from etcd: \(error.reason)"))
                    // What was read of it before stays, if anything.
                }
            }
            guard var entry else { continue }
            entry.lease = version.lease
            kept[version.key] = entry
        }
        if versions.more {
            problems.append(
                .init(
                    url: EtcdProgramReports.url(ofKey: prefix, for: endpoint),
                    problem: "more than \(EtcdProgramReports.maximumCount) program reports; only the first "
                        + "\(EtcdProgramReports.maximumCount) by name were read"))
        }
        var listing = Self.listing(kept, endpoint: endpoint)
        listing.problems = problems + listing.problems
        cache.withLock { $0 = kept }
        return listing
    }

    /// The reports (newest first, each with its status judged now) and the problems of what was read.
    private static func listing(_ entries: [[UInt8]: Cached], endpoint: EtcdEndpoint) -> ProgramReportListing {
        var reports: [ProgramReport] = []
        var problems: [ProgramReportListing.Problem] = []
        for (key, entry) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let url = EtcdProgramReports.url(ofKey: key, for: endpoint)
            switch entry.report {
            case .success(var report):
                report.fileURL = url
                report.status = EtcdProgramReports.status(of: report, lease: entry.lease)
                reports.append(report)
            case .failure(let error):
                problems.append(.init(url: url, problem: error.description))
            }
        }
        reports.sort { ($0.startedAt, $0.processIdentifier) > ($1.startedAt, $1.processIdentifier) }
        return ProgramReportListing(reports: reports, problems: problems)
    }

    /// A report's bytes as a report, refused past the file store's size limit for reports.
    static func decode(_ value: [UInt8]) -> Result<ProgramReport, ProgramReportFormatError> {
        guard value.count <= ProgramReports.maximumSize else {
            return .failure(
                ProgramReportFormatError(
                    "\(ByteCount.describe(value.count)); the limit is \(ByteCount.describe(ProgramReports.maximumSize))"
                ))
        }
        do throws(ProgramReportFormatError) {
            return .success(try ProgramReport(decoding: Data(value)))
        } catch {
            return .failure(error)
        }
    }
}
