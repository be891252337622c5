import Foundation
package import ServiceConfiguration
package import ServiceConfigurationFileStore

/// What the programs that use a store read, as the menu and `config-menu coverage` show it: the reports of the
/// running programs (or, when none runs, of the one that ran last), merged.
///
/// ```swift
/// let coverage = ProgramCoverage(listing: ProgramReports.read(forStoreAt: store.url))
/// let summary = coverage.summary(catalogKeys: catalog.keys.map(\.name), overridden: Set(service.overrides.keys))
/// print(summary.overriddenUnread)   // overrides no program read
/// ```
///
/// A key counts as read when any of the programs shown read it (an app and its extension may share a store).
package struct ProgramCoverage: Equatable, Sendable {
    /// One key's first read, and the program that read it first.
    package struct KeyRead: Equatable, Sendable {
        /// The read (its first time, and whether the current value was read).
        package var read: ConfigurationReadCoverage.Read
        /// The program that read the key first.
        package var program: ProgramReport
    }

    /// What a program read, set against a catalog and the overrides in the store.
    package struct Summary: Equatable, Sendable {
        /// Keys read (of the catalog, or not: see ``readOutsideCatalog``; unregistered ones aside), sorted.
        package var read: [String]
        /// Keys of the catalog no program read, sorted.
        package var unread: [String]
        /// Keys with an override that no program read, sorted.
        package var overriddenUnread: [String]
        /// Keys read that are not in the program's catalog, by name.
        package var unregistered: [UnregisteredConfigurationKey]
        /// Keys a program read that the catalog at hand does not list (the tool may use another program's catalog).
        package var readOutsideCatalog: [String]
    }

    /// The reports shown: every running program's, or the newest finished one (newest first).
    package var programs: [ProgramReport]
    /// Files in the programs folder that are not readable reports.
    package var problems: [ProgramReportListing.Problem]
    /// The first read of each key by any program shown, by name, with the index of that program in ``programs``
    /// (a copy of the whole report per key made merging 100,000 reads cost a quarter of a second).
    private var reads: [String: (read: ConfigurationReadCoverage.Read, program: Int)]
    /// Keys read but not in the programs' catalogs, by name (the earliest read of each).
    package private(set) var unregistered: [UnregisteredConfigurationKey]

    /// The coverage of the reports in `listing` that ``ProgramReportListing/runningOrLatest`` picks.
    package init(listing: ProgramReportListing) {
        self.init(programs: listing.runningOrLatest, problems: listing.problems)
    }

    /// The coverage of `programs`.
    package init(programs: [ProgramReport], problems: [ProgramReportListing.Problem] = []) {
        self.programs = programs
        self.problems = problems
        var reads: [String: (read: ConfigurationReadCoverage.Read, program: Int)] = [:]
        reads.reserveCapacity(programs.first?.reads.count ?? 0)
        var unregistered: [String: UnregisteredConfigurationKey] = [:]
        for (index, program) in programs.enumerated() {
            for read in program.reads where reads[read.name].map({ read.firstRead < $0.read.firstRead }) ?? true {
                reads[read.name] = (read, index)
            }
            for key in program.unregistered where unregistered[key.name].map({ key.firstRead < $0.firstRead }) ?? true {
                unregistered[key.name] = key
            }
        }
        self.reads = reads
        self.unregistered = unregistered.values.sorted { $0.name < $1.name }
    }

    /// Equal when the same reports are shown: everything else derives from them. (A derived `==` compared each
    /// key's copy of its program's whole report, N² for N reads: a report of 10,000 reads froze the menu.)
    package static func == (lhs: ProgramCoverage, rhs: ProgramCoverage) -> Bool {
        lhs.programs == rhs.programs && lhs.problems == rhs.problems
    }

    /// No program report to show.
    package var isEmpty: Bool { programs.isEmpty }

    /// Whether any program shown still runs.
    package var isRunning: Bool { programs.contains { $0.status == .running } }

    /// Whether any program shown records reads (otherwise only unregistered keys are known).
    package var recordsReads: Bool { programs.contains(where: \.recordsReads) }

    /// The first read of the key named `name` by any program shown, or `nil`.
    package func read(named name: String) -> KeyRead? {
        reads[name].map { KeyRead(read: $0.read, program: programs[$0.program]) }
    }

    /// The names of every key read (unregistered ones included), sorted.
    package var readNames: [String] { reads.keys.sorted() }

    /// How many keys of a catalog were read (`isInCatalog` says which names it lists); keys read that it does not
    /// list (another program's catalog, unregistered keys) are not counted, so the count is never more than the
    /// catalog's keys.
    package func readCount(isInCatalog: (String) -> Bool) -> Int {
        let unregisteredNames = Set(unregistered.map(\.name))
        return reads.keys.count { isInCatalog($0) && !unregisteredNames.contains($0) }
    }

    /// ``readCount(isInCatalog:)`` for the keys of `table`, walking whichever of the two is smaller.
    package func readCount(of table: KeyTable) -> Int {
        guard table.keys.count < reads.count else { return readCount { table.index(of: $0) != nil } }
        let unregisteredNames = Set(unregistered.map(\.name))
        return table.keys.count { reads[$0.descriptor.name] != nil && !unregisteredNames.contains($0.descriptor.name) }
    }

    /// The keys read, unread and overridden but unread, against the catalog's `catalogKeys` and the keys that have
    /// an override.
    package func summary(catalogKeys: [String], overridden: Set<String>) -> Summary {
        let catalog = Set(catalogKeys)
        let unregisteredNames = Set(unregistered.map(\.name))
        let readAtAll = { (name: String) in reads[name] != nil || unregisteredNames.contains(name) }
        return Summary(
            read: readNames.filter { !unregisteredNames.contains($0) },
            unread: recordsReads ? catalogKeys.filter { reads[$0] == nil }.sorted() : [],
            overriddenUnread: recordsReads ? overridden.filter { !readAtAll($0) }.sorted() : [],
            unregistered: unregistered,
            readOutsideCatalog: reads.keys.filter { !catalog.contains($0) && !unregisteredNames.contains($0) }.sorted()
        )
    }

    /// The programs that refused `value` as the override of the key named `name` (a standalone tool validates a
    /// custom string type only as text; the program decodes it for real). A rejection of another value is left
    /// out: the program has not seen this one yet.
    package func rejections(of name: String, value: String) -> [(program: ProgramReport, reason: String)] {
        programs.flatMap { program in
            program.rejectedOverrides.filter { $0.name == name && $0.value == value }.map { (program, $0.reason) }
        }
    }

    /// The running programs that were launched with an override of the key named `name`, with its value: they use
    /// it until they end, whatever the store says (see `ConfigurationLaunchOverrides`). Ended programs are left out.
    package func launchOverrides(of name: String) -> [(program: ProgramReport, value: String)] {
        programs.compactMap { program in
            guard program.status == .running, let value = program.launchOverrides[name] else { return nil }
            return (program, value)
        }
    }

    /// Whether a program refused the key's current override.
    package func rejectsOverride(of status: ConfigurationKeyStatus) -> Bool {
        guard let value = status.override?.value else { return false }
        return !rejections(of: status.name, value: value).isEmpty
    }

    /// A report's status in words: `running`, `ended at …`, `stale: the process is gone …`.
    package static func describeStatus(of report: ProgramReport) -> String {
        switch report.status {
        case .running: "running"
        case .ended: "ended" + (report.endedAt.map { " at \(Timestamp.format($0))" } ?? "")
        case .stale: "stale: the process is gone without ending its report (it crashed, was killed, or did not end it)"
        }
    }
}
