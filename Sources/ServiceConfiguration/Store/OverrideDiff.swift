/// What changes between two sets of overrides (the current ones and a profile, or two profiles): keys added, removed
/// and changed, with their values. Keys are compared by value; metadata (times, notes) does not count.
///
/// ```swift
/// let diff = OverrideDiff(from: store.entries, to: profileEntries)
/// print(diff.summary)                        // 1 added, 2 removed, 1 changed, 3 unchanged
/// for change in diff.changed { print(change.key, change.old!.value, "→", change.new!.value) }
/// ```
public struct OverrideDiff: Sendable, Hashable {
    /// One key that differs.
    public struct Change: Sendable, Hashable {
        /// The key name.
        public var key: String
        /// Its entry on the old side (`nil`: added).
        public var old: OverrideEntry?
        /// Its entry on the new side (`nil`: removed).
        public var new: OverrideEntry?
    }

    /// Keys only the new side has, sorted by name.
    public var added: [Change]
    /// Keys only the old side has, sorted by name.
    public var removed: [Change]
    /// Keys both sides have with different values, sorted by name.
    public var changed: [Change]
    /// How many keys both sides have with the same value.
    public var unchangedCount: Int

    /// The difference from `old` to `new`.
    public init(from old: [String: OverrideEntry], to new: [String: OverrideEntry]) {
        func sorted(_ changes: [Change]) -> [Change] { changes.sorted { OverrideDocument.precedes($0.key, $1.key) } }
        added = sorted(new.filter { old[$0.key] == nil }.map { Change(key: $0.key, old: nil, new: $0.value) })
        removed = sorted(old.filter { new[$0.key] == nil }.map { Change(key: $0.key, old: $0.value, new: nil) })
        changed = sorted(
            new.compactMap { key, entry in
                guard let previous = old[key], previous.value != entry.value else { return nil }
                return Change(key: key, old: previous, new: entry)
            })
        unchangedCount = new.filter { old[$0.key]?.value == $0.value.value }.count
    }

    /// Whether nothing differs.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Every difference, sorted by key.
    public var all: [Change] { (added + removed + changed).sorted { OverrideDocument.precedes($0.key, $1.key) } }

    /// `1 added, 2 removed, 1 changed, 3 unchanged`.
    public var summary: String {
        "\(added.count) added, \(removed.count) removed, \(changed.count) changed, \(unchangedCount) unchanged"
    }
}
