public import ServiceConfigurationCore
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
    /// How many keys both sides have with the same value (for an import: how many of the profile's keys).
    public var unchangedCount: Int
    /// For an import (``init(importing:into:mode:)``), how it combines with the overrides; `nil` for a comparison.
    public var importMode: OverrideImportPlan.Mode?
    /// For a merging import, how many overrides the profile does not name and the merge keeps.
    public var keptCount = 0

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

    /// What importing the profile `incoming` into the overrides `current` changes: a merge keeps the overrides the
    /// profile does not name (counted in ``keptCount``), a replace removes them. ``unchangedCount`` counts the
    /// profile's keys that already have its value.
    ///
    /// ```swift
    /// OverrideDiff(importing: profile, into: store.entries, mode: .merge).summary
    /// // 1 added, 0 changed, 4 unchanged; 2 other overrides kept
    /// ```
    public init(
        importing incoming: [String: OverrideEntry], into current: [String: OverrideEntry],
        mode: OverrideImportPlan.Mode
    ) {
        self.init(from: current, to: mode == .replace ? incoming : current.merging(incoming) { $1 })
        importMode = mode
        unchangedCount = incoming.filter { current[$0.key]?.value == $0.value.value }.count
        if mode == .merge { keptCount = current.keys.filter { incoming[$0] == nil }.count }
    }

    /// Whether nothing differs.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Every difference, sorted by key.
    public var all: [Change] { (added + removed + changed).sorted { OverrideDocument.precedes($0.key, $1.key) } }

    /// `1 added, 2 removed, 1 changed, 3 unchanged`; for an import, `1 added, 1 changed, 3 unchanged` followed by
    /// `; 2 other overrides kept` (a merge that keeps any) or `, 2 removed` (a replace).
    public var summary: String {
        switch importMode {
        case nil:
            return
                "\(added.count) added, \(removed.count) removed, \(changed.count) changed, \(unchangedCount) unchanged"
        case .replace?:
            return
                "\(added.count) added, \(changed.count) changed, \(unchangedCount) unchanged, \(removed.count) removed"
        case .merge?:
            let kept = keptCount == 0 ? "" : "; \(keptCount) other override\(keptCount == 1 ? "" : "s") kept"
            return "\(added.count) added, \(changed.count) changed, \(unchangedCount) unchanged" + kept
        }
    }
}
