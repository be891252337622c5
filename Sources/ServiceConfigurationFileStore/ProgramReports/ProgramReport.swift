package import Foundation
package import ServiceConfigurationCore

/// What one running program published about its configuration: which keys it read and when, keys it read that are
/// missing from its catalog, and overrides its own `decode` rejects.
///
/// A ``LiveConfigurationService`` with an override store writes one report file per service into
/// `<store folder>/programs/` (see ``ProgramReports``); the debug menu and `config-menu` read them. The file format
/// (JSON, written atomically, mode 0600):
///
/// ```json
/// {
///   "format": "service-configuration-program-report",
///   "version": 1,
///   "program": "MyApp",
///   "programVersion": "8.2",
///   "pid": 4242,
///   "processStart": "6c1c…/123456",
///   "store": "/home/qa/.local/state/myapp/overrides.json",
///   "startedAt": "2026-11-29T14:05:00.123Z",
///   "writtenAt": "2026-11-29T14:05:03.456Z",
///   "endedAt": "2026-11-29T14:07:00.000Z",
///   "recordsReads": true,
///   "generation": 3,
///   "reads": {
///     "function.album.like.enabled": {
///       "firstRead": "2026-11-29T14:05:00.200Z",
///       "currentValueFirstRead": "2026-11-29T14:05:00.200Z",
///       "values": ["Y", "N"]
///     }
///   },
///   "unregistered": [
///     { "name": "checkout.max_items", "scopeType": "ConfigurationScopes.Checkout",
///       "keyType": "App.ConfigurationScopes.Checkout.MaxItemsKey", "firstRead": "2026-11-29T14:05:01.000Z" }
///   ],
///   "rejectedOverrides": [
///     { "name": "payments.limit", "value": "20 EUR", "reason": "expected an amount like \"20.00 EUR\"" }
///   ],
///   "launchOverrides": { "function.album.like.enabled": "Y" }
/// }
/// ```
///
/// The report is written whole from time to time (`generation` counts those writes); between them a running program
/// appends the reads that changed to `<report>.reads` (see `ProgramReportLog`), whose lines readers apply over the
/// report of the same generation. A reader of the report file alone sees a valid report, as of its last whole write
/// (at most a minute old while the program runs, complete once it ended).
///
/// A report published into etcd (a program on an `EtcdOverrideStore`, see `EtcdProgramReports`) has the same format
/// as a key's value, with `"store"` the etcd location, `"host"` the machine the program runs on (its pid means
/// nothing elsewhere), no reads log, and, when it was too large to publish whole, `"omitted": {"reads": 12000,
/// "unregistered": 0, "rejectedOverrides": 0}`: how many of each were left out (the first ones by name are kept).
///
/// `programVersion` is the version the program said it runs as (`LiveConfigurationService.programVersion`), absent
/// when it said none. A read's `values` are the distinct values the program read (the wire strings of the values it
/// used, the default's included, in the order first read; at most 16, each cut to 256 characters and `…`), and
/// `valuesOmitted`, present when not 0, counts reads of changed values past those 16. Both were added without a new
/// version: a report without them (an older writer) reads as reads with no values known.
///
/// `endedAt` is present once the program ended its report (``LiveConfigurationService/endProgramReport()`` or the
/// service's deinit); `currentValueFirstRead` is absent when the key changed after its last read; `processStart`
/// is absent where the system cannot say when a process started. `launchOverrides` (absent when there are none)
/// holds the overrides the program was launched with and applies until it ends (`-configOverride`,
/// `CONFIG_OVERRIDES_JSON`, `CONFIG_SCENARIO`; see `ConfigurationLaunchOverrides`), as checked against its catalog:
/// a change of the store does not reach those keys in that run. Readers ignore fields they do not know, so new
/// fields can be added without a new version; `version` changes only when a reader of the old version would
/// misread the file, and readers refuse versions they do not know.
package struct ProgramReport: Sendable, Hashable {
    /// Whether the program that wrote a report still runs.
    package enum Status: String, Sendable, Hashable {
        /// The process runs and has not ended its report.
        case running
        /// The program ended its report cleanly (the service went away, or it called `endProgramReport()`).
        case ended
        /// The process is gone without ending its report: it crashed, was killed, or exited without ending it.
        case stale
    }

    /// The format's name, in the file's `format` field.
    package static let formatName = "service-configuration-program-report"
    /// The newest version this build reads and the one it writes.
    package static let version = 1

    /// The program's name (by default its process name).
    package var programName: String
    /// The version the program runs as (`LiveConfigurationService.programVersion`), as written; `nil` when it said
    /// none.
    package var programVersion: String?
    /// The writer's process identifier.
    package var processIdentifier: Int32
    /// When the writer's process started, as the system identifies it (see ``status``); `nil` where unknown.
    package var processStart: String?
    /// The path of the override store the program uses.
    package var storePath: String?
    /// When the program's service was created.
    package var startedAt: Date
    /// When this version of the report was written.
    package var writtenAt: Date
    /// When the program ended its report; `nil` while it runs (or if it died).
    package var endedAt: Date?
    /// Whether the program records reads; when it does not, ``reads`` is empty.
    package var recordsReads: Bool
    /// The keys the program read, sorted by name.
    package var reads: [ConfigurationReadCoverage.Read]
    /// The keys the program read that are missing from its catalog, sorted by name.
    package var unregistered: [UnregisteredConfigurationKey]
    /// The overrides the program's own `decode` refuses, sorted by key name.
    package var rejectedOverrides: [ConfigurationRejectedOverride]
    /// Which reads log continues the report (see ``ProgramReports``): a log whose header names another generation
    /// is not this report's; 0 for a report without one.
    package var generation = 0
    /// The machine the program runs on, for reports that other machines read (an etcd store's); `nil` in a report
    /// beside a store file, whose readers are on the same machine.
    package var host: String?
    /// What a report too large for where it is published left out (see ``Omissions``); empty for a whole report.
    package var omitted = Omissions()
    /// The overrides the program was launched with, which win over the store's in its run, by key name.
    package var launchOverrides: [String: String] = [:]
    /// Set by ``ProgramReports``: whether the writer still runs, judged when the file was read.
    package var status: Status
    /// Set by ``ProgramReports``: the file the report was read from.
    package var fileURL: URL?

    package init(
        programName: String,
        processIdentifier: Int32,
        processStart: String?,
        storePath: String?,
        startedAt: Date,
        writtenAt: Date,
        endedAt: Date?,
        recordsReads: Bool,
        reads: [ConfigurationReadCoverage.Read],
        unregistered: [UnregisteredConfigurationKey],
        rejectedOverrides: [ConfigurationRejectedOverride],
        status: Status = .running,
        fileURL: URL? = nil
    ) {
        self.programName = programName
        self.processIdentifier = processIdentifier
        self.processStart = processStart
        self.storePath = storePath
        self.startedAt = startedAt
        self.writtenAt = writtenAt
        self.endedAt = endedAt
        self.recordsReads = recordsReads
        self.reads = reads
        self.unregistered = unregistered
        self.rejectedOverrides = rejectedOverrides
        self.status = status
        self.fileURL = fileURL
    }

    /// How many reads, unregistered keys and rejected overrides a report left out to fit where it is published
    /// (etcd refuses a value past its request limit, 1.5 MiB by default): the first ones by name are kept, and the
    /// report says how many more there were, so a reader can tell a key left out from a key never read.
    package struct Omissions: Sendable, Hashable {
        /// Reads left out.
        package var reads = 0
        /// Unregistered keys left out.
        package var unregistered = 0
        /// Rejected overrides left out.
        package var rejectedOverrides = 0

        /// Nothing left out.
        package init() {}

        /// Whether nothing was left out.
        package var isEmpty: Bool { reads == 0 && unregistered == 0 && rejectedOverrides == 0 }

        /// For example `12000 reads and 3 unregistered keys left out`.
        package var description: String {
            var parts: [String] = []
            if reads > 0 { parts.append("\(reads) read\(reads == 1 ? "" : "s")") }
            if unregistered > 0 { parts.append("\(unregistered) unregistered key\(unregistered == 1 ? "" : "s")") }
            if rejectedOverrides > 0 {
                parts.append("\(rejectedOverrides) rejected override\(rejectedOverrides == 1 ? "" : "s")")
            }
            return parts.joined(separator: " and ") + " left out"
        }
    }

    /// The read of the key named `name`, or `nil` when the program has not read it.
    package func read(named name: String) -> ConfigurationReadCoverage.Read? {
        ConfigurationReadCoverage(reads: reads, unregistered: [], isRecording: recordsReads).read(named: name)
    }

    /// For example `MyApp (pid 4242, running)`, or `MyApp (pid 4242 on build-7, running)` for a report that names its
    /// machine.
    package var label: String {
        let machine = host.map { " on \(VisibleText.escaped($0))" } ?? ""
        return "\(VisibleText.escaped(programName)) (pid \(processIdentifier)\(machine), \(status.rawValue))"
    }
}
