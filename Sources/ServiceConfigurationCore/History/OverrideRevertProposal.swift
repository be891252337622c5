/// What reverting the store to just after one recorded change does ("revert to here" in the menu's history): every
/// change recorded after it is undone at once, so each key those changes touched goes back to what it held right
/// after that change; keys they did not touch stay as they are.
///
/// ```swift
/// let revert = try history.revertProposal(to: selected, current: store.entries)
/// try service.restoreOverrides(revert.restores, reason: revert.reason, expecting: revert.expected)
/// ```
public struct OverrideRevertProposal: Sendable, Hashable {
    /// The change to go back to (it stays in effect).
    public var record: OverrideJournalRecord
    /// The changes recorded after it, oldest first: what the revert undoes.
    public var laterChanges: [OverrideJournalRecord]
    /// Each key's entry right after ``record`` (`nil`: no override), which the revert puts back.
    public var restores: [String: OverrideEntry?]
    /// Each of those keys' entry now; the revert is refused if any differs when it is saved.
    public var expected: [String: OverrideEntry?]

    /// Whether reverting would change nothing: no later change, or every key already holds what it would get back.
    public var changesNothing: Bool { restores.allSatisfy { expected[$0.key] ?? nil == $0.value } }

    /// The reason the revert is journaled with: a restore "to <the change's time>, undoing N later changes,".
    public var reason: OverrideChangeReason {
        let count = laterChanges.count
        return OverrideChangeReason(
            .restore,
            detail: "to \(Timestamp.format(record.time)), undoing \(count) later change\(count == 1 ? "" : "s"),")
    }
}

/// Why a revert cannot be proposed.
public struct OverrideRevertRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The explanation, naming the change in the way.
    public var description: String
}

extension OverrideHistory {
    /// What reverting to just after `record` would do, given the store's `current` entries: the first later change
    /// of each key says what the key held right after `record` (its "before"). Refused when `record` is not in this
    /// history, or a later change was too large to record its values (what it replaced is unknown).
    public func revertProposal(to record: OverrideJournalRecord, current: [String: OverrideEntry])
        throws(OverrideRevertRefusal) -> OverrideRevertProposal
    {
        let all = changes
        guard let index = all.firstIndex(where: { $0.id == record.id }) else {
            throw OverrideRevertRefusal(description: "the change \(record.id) is not in the history any more")
        }
        let later = Array(all[(index + 1)...])
        var restores: [String: OverrideEntry?] = [:]
        var expected: [String: OverrideEntry?] = [:]
        for change in later {
            guard change.canBeUndone || change.changes.isEmpty else {
                throw OverrideRevertRefusal(
                    description: "a later change is too large to have recorded its values: \(change.summary)")
            }
            for key in change.changes where restores.index(forKey: key.key) == nil {
                restores[key.key] = key.old
                expected[key.key] = current[key.key]
            }
        }
        return OverrideRevertProposal(record: record, laterChanges: later, restores: restores, expected: expected)
    }
}
