package import Foundation

/// A store seen through a few keys: a command that reads or changes only those builds its service over this, so
/// what it costs follows the keys it names, not the 100,000 overrides the store may hold.
///
/// Reads see the entries of `keys` alone (``entry(forKey:)`` answers `nil` for any other key); changes go to the
/// store as changes of those keys; the store's problems, errors, history and origin are the store's own, so every
/// warning about the store is still given.
package final class KeyLimitedOverrideStore: OverrideStore {
    /// The store seen.
    package let store: any OverrideStore
    /// The keys seen.
    package let keys: Set<String>

    /// `store` seen through `keys`.
    package init(_ store: any OverrideStore, keys: Set<String>) {
        self.store = store
        self.keys = keys
    }

    package var location: String { store.location }
    package var localFileURL: URL? { store.localFileURL }
    package var origin: OverrideChangeOrigin { store.origin }
    package var problems: [OverrideStoreProblem] { store.problems }
    package var lastError: OverrideStoreError? { store.lastError }
    package var liveReloadProblem: String? { store.liveReloadProblem }

    package var entries: [String: OverrideEntry] {
        var result: [String: OverrideEntry] = [:]
        for key in keys { result[key] = store.entry(forKey: key) }
        return result
    }

    package func entry(forKey key: String) -> OverrideEntry? {
        keys.contains(key) ? store.entry(forKey: key) : nil
    }

    @discardableResult
    package func reload() -> OverrideStoreError? { store.reload() }

    package func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try store.modify(keys: keys, OverrideChangeReason.change, body)
    }

    package func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try store.modify(keys: keys, reason, body)
    }

    package func modify(
        keys: Set<String>, _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try store.modify(keys: keys.intersection(self.keys), reason, body)
    }

    package func history() -> OverrideHistory { store.history() }

    package func removeValue(forKey key: String) throws(OverrideStoreError) {
        guard keys.contains(key) else { return }
        try store.removeValue(forKey: key)
    }

    /// Removes the overrides of ``keys`` (quarantined ones included), each as its own change; the others stay.
    package func removeAll() throws(OverrideStoreError) {
        for key in keys.sorted() { try store.removeValue(forKey: key) }
    }

    package func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        store.observe { [keys] change in
            var seen = change
            seen.changes = change.changes.filter { keys.contains($0.key) }
            if !seen.changes.isEmpty { handler(seen) }
        }
    }

    @discardableResult
    package func startWatching(_ mode: OverrideStoreWatchMode) -> String { store.startWatching(mode) }
}
