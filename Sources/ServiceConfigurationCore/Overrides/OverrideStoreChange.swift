/// What changed in an ``OverrideStore``: each added, changed or removed key with its new entry (`nil`: removed).
public struct OverrideStoreChange: Sendable, Hashable {
    /// The new entry of each changed key; `nil` for a removed one.
    public var changes: [String: OverrideEntry?]

    /// A change of the keys in `changes`.
    package init(changes: [String: OverrideEntry?]) {
        self.changes = changes
    }

    /// The keys whose entry was added, changed or removed.
    public var changedKeys: Set<String> { Set(changes.keys) }
}
