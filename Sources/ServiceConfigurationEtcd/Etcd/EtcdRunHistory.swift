package import Foundation
import ServiceConfigurationCore
package import ServiceConfigurationFileStore

/// The run history of an ``EtcdOverrideStore``, as ``ProgramRunHistory`` keeps it beside a store file: one key per
/// finished run, beside the prefix and outside its range, `PREFIX.runs/<end>-<report name>.json` (for
/// `etcd://HOST:PORT/shop/overrides`, `/shop/overrides.runs/20261204T051500123Z-demo-42-1f.json`), holding the
/// run's last ``ProgramReport``; on no lease, so it stays; the newest ``ProgramRunHistory/keptRuns`` kept.
///
/// Who writes it: an etcd program report publisher when its program ends its report, and `config-menu coverage
/// --runs` before it reads, which sweeps in the finished reports still under `PREFIX.programs/`. A killed program's
/// report is on a lease that expires (30 s by default): its run is kept only if `coverage --runs` sees it before
/// then, as stale (a reader on the same machine sees that at once; from another machine, only once the lease is
/// gone, and then the report is gone too). Adding puts each run, then deletes the oldest beyond the bound; two
/// writers at once can only both delete the same oldest keys.
package struct EtcdRunHistory: Sendable {
    private let client: EtcdClient
    private let kept: Int

    /// The history beside the prefix `client` works on, keeping the newest `kept` runs.
    package init(client: EtcdClient, kept: Int = ProgramRunHistory.keptRuns) {
        self.client = client
        self.kept = max(1, kept)
    }

    /// The keys' common beginning for `endpoint`: its prefix without the final `/`, then `.runs/`.
    package static func prefix(for endpoint: EtcdEndpoint) -> [UInt8] {
        Array(endpoint.prefix.dropLast()) + Array(".runs/".utf8)
    }

    private var prefix: [UInt8] { Self.prefix(for: client.endpoint) }
    private var rangeEnd: [UInt8] {
        var end = prefix
        end[end.count - 1] += 1
        return end
    }

    /// Where the history is, for messages: `etcd://HOST:PORT/shop/overrides.runs/`.
    package var location: String { EtcdProgramReports.url(ofKey: prefix, for: client.endpoint).absoluteString }

    /// Adds the finished runs among `reports` (read from `PREFIX.programs/`: ended, or stale) that the history does
    /// not hold yet, then removes the oldest beyond the bound. Returns how many were added.
    @discardableResult
    package func add(_ reports: [ProgramReport]) throws(EtcdError) -> Int {
        let finished = reports.filter { $0.status != .running && $0.fileURL != nil }
        guard !finished.isEmpty else { return 0 }
        let present = Set(
            try client.range(from: prefix, to: rangeEnd, keysOnly: true).keyValues.compactMap {
                ProgramRunHistory.reportName(of: URL(fileURLWithPath: String(decoding: $0.key, as: UTF8.self)))
            })
        var added = 0
        for report in finished {
            guard let name = report.fileURL.map({ $0.lastPathComponent + ".json" }), !present.contains(name) else {
                continue
            }
            var run = report
            run.fileURL = nil
            let (data, _) = try EtcdProgramReportPublisher.fitted(run, budget: EtcdProgramReportPublisher.initialBudget)
            try put(data, reportName: name, endedAt: report.endedAt ?? report.writtenAt)
            added += 1
        }
        return added
    }

    /// Puts the bytes of a run (a report as published) under the name of its report, then trims the history.
    package func put(_ data: [UInt8], reportName: String, endedAt: Date) throws(EtcdError) {
        let key = prefix + Array(ProgramRunHistory.fileName(reportName: reportName, endedAt: endedAt).utf8)
        _ = try client.put(data, at: key)
        let count = try client.count(from: prefix, to: rangeEnd)
        guard count > kept else { return }
        let keys = try client.range(from: prefix, to: rangeEnd, keysOnly: true).keyValues.map(\.key)
        var old = keys.prefix(max(0, keys.count - kept))[...]
        while !old.isEmpty {
            let part = old.prefix(EtcdOverrideStore.operationsPerTransaction)
            _ = try client.transaction(comparing: [], changes: part.map { .init(key: $0, value: nil) })
            old = old.dropFirst(part.count)
        }
    }

    /// Every run, newest first (by the time each ended); keys that are not readable runs as problems naming them.
    /// When etcd cannot be reached, one problem says so.
    package func read() -> ProgramReportListing {
        let range: EtcdRange
        do throws(EtcdError) {
            range = try client.range(from: prefix, to: rangeEnd)
        } catch {
            return ProgramReportListing(
                reports: [],
                problems: [
                    .init(
                        url: EtcdProgramReports.url(ofKey: prefix, for: client.endpoint),
                        problem: "cannot read the run history: \(error.reason)")
                ])
        }
        var runs: [ProgramReport] = []
        var problems: [ProgramReportListing.Problem] = []
        for keyValue in range.keyValues {
            let url = EtcdProgramReports.url(ofKey: keyValue.key, for: client.endpoint)
            switch EtcdProgramReportReader.decode(keyValue.value) {
            case .success(var run):
                run.fileURL = url
                run.status = run.endedAt == nil ? .stale : .ended
                runs.append(run)
            case .failure(let error):
                problems.append(.init(url: url, problem: error.description))
            }
        }
        runs.sort {
            ($0.endedAt ?? $0.writtenAt, $0.processIdentifier) > ($1.endedAt ?? $1.writtenAt, $1.processIdentifier)
        }
        return ProgramReportListing(reports: runs, problems: problems)
    }
}
