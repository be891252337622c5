package import ServiceConfiguration

/// Everything the menu shows, as of the last refresh from the service and its override store.
package struct MenuData: Equatable, Sendable {
    /// The catalog.
    package let table: KeyTable
    /// One status per key of ``table``, in the same order; change them with ``setStatus(_:at:)``.
    package private(set) var statuses: KeyStatuses
    /// How many keys of each scope have an override (applied or not).
    package private(set) var scopeOverrideCounts: [Int]
    /// How many catalog keys' overrides have expired, kept up to date by ``setStatus(_:at:)`` so the footer, drawn
    /// every frame, does not walk every key.
    private var expiredKeyCount = 0
    /// Overrides (and entries kept without being applied) of keys that are not in the catalog.
    package var orphans: [ConfigurationKeyStatus]
    /// A short label for the title bar, such as "demo catalog".
    package var label: String
    /// Where the overrides live (a path, or `memory`).
    package var storeLocation: String?
    /// The store's last problem, if any.
    package var storeProblem: String?
    /// Why changes made elsewhere may not show promptly, if so.
    package var liveReloadProblem: String?
    /// Whether overrides apply in the program's build.
    package var overridesApply: Bool
    /// Where server values come from and how current they are, when the menu knows a source.
    package var server: ServerSyncDisplay?
    /// The previous server value of each key the last server sync changed (`nil`: the key was new).
    package var syncChanges: [String: String?]
    /// What the programs using the store read (from their program reports); empty when none published one.
    package var coverage = ProgramCoverage(programs: []) {
        didSet { coverageReadCount = coverage.readCount(of: table) }
    }
    /// How many of the table's keys ``coverage`` says were read, counted once per new coverage (a frame draws it;
    /// counting there walked every read of a 100,000-read report on each key press).
    package private(set) var coverageReadCount = 0
    /// The changes recorded in the store's history.
    package var history: OverrideHistory
    /// Who this menu's changes are recorded as made by (its own changes in the history).
    package var origin: OverrideChangeOrigin
    /// The folder of scenarios (profiles), if there is one.
    package var scenariosFolder: String?

    package init(
        table: KeyTable,
        statuses: KeyStatuses,
        orphans: [ConfigurationKeyStatus] = [],
        label: String,
        storeLocation: String? = nil,
        storeProblem: String? = nil,
        liveReloadProblem: String? = nil,
        overridesApply: Bool = true,
        server: ServerSyncDisplay? = nil,
        syncChanges: [String: String?] = [:],
        history: OverrideHistory = OverrideHistory(),
        origin: OverrideChangeOrigin = OverrideChangeOrigin(kind: .menu, name: "config-menu", pid: nil),
        scenariosFolder: String? = nil
    ) {
        precondition(statuses.table === table, "the statuses of the table's keys")
        self.table = table
        self.statuses = statuses
        // Only the statuses that are not a key's default can have an override or have expired.
        var counts = [Int](repeating: 0, count: table.scopes.count)
        var expired = 0
        statuses.forEachNotDefault { index, status in
            if Self.hasOverride(status) { counts[table.keys[index].scope] += 1 }
            if status.expiration != nil { expired += 1 }
        }
        (scopeOverrideCounts, expiredKeyCount) = (counts, expired)
        self.orphans = orphans
        self.label = label
        self.storeLocation = storeLocation
        self.storeProblem = storeProblem
        self.liveReloadProblem = liveReloadProblem
        self.overridesApply = overridesApply
        self.server = server
        self.syncChanges = syncChanges
        self.history = history
        self.origin = origin
        self.scenariosFolder = scenariosFolder
    }

    /// Equal when built on the same table with equal statuses, orphans and labels.
    package static func == (lhs: MenuData, rhs: MenuData) -> Bool {
        lhs.table === rhs.table && lhs.statuses == rhs.statuses && lhs.orphans == rhs.orphans
            && lhs.label == rhs.label && lhs.storeLocation == rhs.storeLocation && lhs.storeProblem == rhs.storeProblem
            && lhs.liveReloadProblem == rhs.liveReloadProblem && lhs.overridesApply == rhs.overridesApply
            && lhs.server == rhs.server && lhs.syncChanges == rhs.syncChanges && lhs.coverage == rhs.coverage
            && lhs.history == rhs.history && lhs.origin == rhs.origin && lhs.scenariosFolder == rhs.scenariosFolder
    }

    /// Whether a key has an override stored: applied, rejected by the key, or kept by the store unapplied.
    package static func hasOverride(_ status: ConfigurationKeyStatus) -> Bool {
        status.override != nil || status.isQuarantined
    }

    /// Replaces one key's status, keeping the override counts right.
    package mutating func setStatus(_ status: ConfigurationKeyStatus, at index: Int) {
        let scope = table.keys[index].scope
        scopeOverrideCounts[scope] += (Self.hasOverride(status) ? 1 : 0) - (Self.hasOverride(statuses[index]) ? 1 : 0)
        expiredKeyCount += (status.isExpired ? 1 : 0) - (statuses[index].isExpired ? 1 : 0)
        statuses.set(status, at: index)
    }

    /// Whether the server line is shown (a source of server values is known).
    package var showsServerLine: Bool { server?.isShown ?? false }

    /// How many keys have an override (valid or not), plus orphaned overrides.
    package var overrideCount: Int { scopeOverrideCounts.reduce(0, +) + orphans.count }

    /// The stored overrides the menu knows (of catalog keys and orphans, expired ones included), by key.
    package var currentOverrides: [String: OverrideEntry] {
        var result: [String: OverrideEntry] = [:]
        // Only scopes that hold an override are walked: the scenarios view asks for this on every frame.
        for (scope, count) in scopeOverrideCounts.enumerated() where count > 0 {
            for index in table.scopes[scope].range {
                if let entry = statuses.override(at: index) { result[table.keys[index].descriptor.name] = entry }
            }
        }
        for orphan in orphans where orphan.override != nil { result[orphan.name] = orphan.override }
        return result
    }

    /// The keys with a stored entry, usable or quarantined (what replacing every override removes).
    package var storedKeys: Set<String> {
        var keys = Set(currentOverrides.keys)
        statuses.forEachNotDefault { _, status in if status.isQuarantined { keys.insert(status.name) } }
        for status in orphans where status.isQuarantined { keys.insert(status.name) }
        return keys
    }

    /// How many stored overrides have expired.
    package var expiredCount: Int {
        expiredKeyCount + orphans.reduce(0) { $0 + ($1.isExpired ? 1 : 0) }
    }

    /// The keys (and orphans) whose stored override has expired.
    package var expiredNames: [String] {
        var names: [String] = []
        statuses.forEachNotDefault { _, status in if status.isExpired { names.append(status.name) } }
        return names + orphans.filter(\.isExpired).map(\.name)
    }
}
