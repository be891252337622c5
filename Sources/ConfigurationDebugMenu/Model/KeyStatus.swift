import Foundation
package import ServiceConfiguration

/// What the menu knows about one key's value right now.
package struct KeyStatus: Equatable, Sendable {
    /// The effective value's canonical wire string (`nil` only for a default with no wire form).
    package var value: String?
    /// Where the value came from.
    package var source: ValueSource
    /// The server's wire string, if the server sent one.
    package var serverValue: String?
    /// The override, if one is stored (valid or not).
    package var override: OverrideInfo?
    /// Candidates that failed to decode, highest first.
    package var rejections: [ConfigurationRejection]
    /// The server value before the last server sync that changed values, when that sync changed this key.
    package var syncChange: SyncChange?

    /// Creates a status.
    package init(
        value: String?,
        source: ValueSource,
        serverValue: String? = nil,
        override: OverrideInfo? = nil,
        rejections: [ConfigurationRejection] = [],
        syncChange: SyncChange? = nil
    ) {
        self.value = value
        self.source = source
        self.serverValue = serverValue
        self.override = override
        self.rejections = rejections
        self.syncChange = syncChange
    }

    /// A value from the server or an override was rejected.
    package var isRejected: Bool { !rejections.isEmpty }
    /// The server value changed since the override was set.
    package var isStale: Bool { override?.isStale(currentServerValue: serverValue) ?? false }
    /// Worth a look: rejected or stale.
    package var hasProblem: Bool { isRejected || isStale }
}

/// A key's server value before the last server sync changed it.
package struct SyncChange: Equatable, Sendable {
    /// The server value before; `nil` when the server did not send the key before.
    package var previous: String?

    package init(previous: String?) {
        self.previous = previous
    }
}

/// A stored override as the menu shows it.
package struct OverrideInfo: Equatable, Sendable {
    /// The override's wire string.
    package var value: String
    /// The store's record of it (time, server value then, note), when the override comes from a store.
    package var entry: OverrideEntry?

    /// Creates the information.
    package init(value: String, entry: OverrideEntry?) {
        self.value = value
        self.entry = entry
    }

    /// Whether the server value differs from the one recorded when the override was set.
    package func isStale(currentServerValue: String?) -> Bool {
        guard let entry, entry.setAt != nil else { return false }
        return entry.isStale(currentServerValue: currentServerValue)
    }
}

/// An override for a key the catalog does not have: kept in the store, shown so it can be seen and reset.
package struct OrphanStatus: Equatable, Sendable {
    /// The key name in the store.
    package var name: String
    /// The override.
    package var override: OverrideInfo
}

/// Everything the menu shows, as of the last refresh from the service and the store.
package struct MenuData: Equatable, Sendable {
    /// The catalog.
    package let table: KeyTable
    /// One status per key of ``table``, in the same order; change them with ``setStatus(_:at:)``.
    package private(set) var statuses: [KeyStatus]
    /// How many keys of each scope have an override.
    package private(set) var scopeOverrideCounts: [Int]
    /// Overrides of keys that are not in the catalog.
    package var orphans: [OrphanStatus]
    /// A short label for the title bar, such as "demo catalog".
    package var label: String
    /// The store file's path, if the overrides are persisted.
    package var storePath: String?
    /// The store's last problem, if any.
    package var storeProblem: String?
    /// Where server values come from and how current they are, when the menu knows a source.
    package var server: ServerSyncDisplay?

    /// Creates menu data.
    package init(
        table: KeyTable,
        statuses: [KeyStatus],
        orphans: [OrphanStatus] = [],
        label: String,
        storePath: String? = nil,
        storeProblem: String? = nil,
        server: ServerSyncDisplay? = nil
    ) {
        self.table = table
        self.statuses = statuses
        self.scopeOverrideCounts = table.scopes.map { scope in
            scope.range.reduce(0) { $0 + (statuses[$1].override == nil ? 0 : 1) }
        }
        self.orphans = orphans
        self.label = label
        self.storePath = storePath
        self.storeProblem = storeProblem
        self.server = server
    }

    /// Equal when built on the same table with equal statuses, orphans and labels.
    package static func == (lhs: MenuData, rhs: MenuData) -> Bool {
        lhs.table === rhs.table && lhs.statuses == rhs.statuses && lhs.orphans == rhs.orphans
            && lhs.label == rhs.label && lhs.storePath == rhs.storePath && lhs.storeProblem == rhs.storeProblem
            && lhs.server == rhs.server
    }

    /// Replaces one key's status, keeping the override counts right.
    package mutating func setStatus(_ status: KeyStatus, at index: Int) {
        let scope = table.keys[index].scope
        scopeOverrideCounts[scope] += (status.override == nil ? 0 : 1) - (statuses[index].override == nil ? 0 : 1)
        statuses[index] = status
    }

    /// Whether the server line is shown (a source of server values is known).
    package var showsServerLine: Bool { server?.isShown ?? false }

    /// How many keys have an override (valid or not), plus orphaned overrides.
    package var overrideCount: Int { scopeOverrideCounts.reduce(0, +) + orphans.count }
}
