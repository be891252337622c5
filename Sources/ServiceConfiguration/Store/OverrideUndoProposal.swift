/// What undoing one recorded change does: the entries it puts back, what those keys hold now, and which of them
/// changed since (so a tool can say so and ask first).
///
/// ```swift
/// if let proposal = history.undoProposal(current: store.entries), proposal.record.canBeUndone {
///     if !proposal.changedSince.isEmpty { /* ask: another change came after it */ }
///     try service.undoOverrideChange(proposal)
/// }
/// ```
public struct OverrideUndoProposal: Sendable, Hashable {
    /// The change to undo.
    public var record: OverrideJournalRecord
    /// Each key's entry as the change found it (`nil`: no override), which the undo puts back.
    public var restores: [String: OverrideEntry?]
    /// Each key's entry now; the undo is refused if any differs when it is saved (someone changed it meanwhile).
    public var expected: [String: OverrideEntry?]
    /// Keys whose entry now differs from what the change left: changed again since.
    public var changedSince: [String]

    /// The proposal to undo `record` over the store's `current` entries.
    public init(record: OverrideJournalRecord, current: [String: OverrideEntry]) {
        self.record = record
        var restores: [String: OverrideEntry?] = [:]
        var expected: [String: OverrideEntry?] = [:]
        var changedSince: [String] = []
        for change in record.changes {
            restores[change.key] = change.old
            expected[change.key] = current[change.key]
            if current[change.key] != change.new { changedSince.append(change.key) }
        }
        self.restores = restores
        self.expected = expected
        self.changedSince = changedSince
    }

    /// The reason the undo is journaled with.
    public var reason: OverrideChangeReason { OverrideChangeReason(.undo, undoes: record.id) }
}
