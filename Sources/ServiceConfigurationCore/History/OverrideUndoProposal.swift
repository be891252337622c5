/// What undoing one recorded change does: the entries it puts back, what those keys hold now, and which of them
/// changed since (so a tool can say so and ask first).
///
/// ```swift
/// if let proposal = history.undoProposal(current: store.entries), proposal.record.canBeUndone {
///     if !proposal.changedSince.isEmpty { /* ask: another change came after it */ }
///     try service.undoOverrideChange(proposal)
/// }
/// ```
///
/// Any recorded change can be proposed, not only the last one (``OverrideHistory/undoProposal(for:current:)``);
/// when later changes touched its keys, ``laterChanges`` lists them, and
/// ``OverrideHistory/undoProposal(backTo:current:)`` undoes them with it.
public struct OverrideUndoProposal: Sendable, Hashable {
    /// The change to undo.
    public var record: OverrideJournalRecord
    /// Each key's entry as the change found it (`nil`: no override), which the undo puts back.
    public var restores: [String: OverrideEntry?]
    /// Each key's entry now; the undo is refused if any differs when it is saved (someone changed it meanwhile).
    public var expected: [String: OverrideEntry?]
    /// Keys whose entry now differs from what the change left: changed again since.
    public var changedSince: [String]
    /// The changes recorded after ``record`` that changed one of its keys, oldest first: they are in the way of
    /// undoing exactly ``record``, since putting its keys back replaces what they did to those keys.
    public var laterChanges: [OverrideJournalRecord]
    /// Whether the undo goes back to before ``record`` on purpose, undoing ``laterChanges`` too (for its keys).
    public var includesLaterChanges: Bool
    /// Whether this is a redo: ``record`` is an undo, and reversing it makes the change it undid again
    /// (``OverrideHistory/redoProposal(current:)``).
    public var isRedo: Bool

    /// The proposal to undo `record` over the store's `current` entries; `laterChanges` are the changes recorded
    /// after it that changed one of its keys, and `includingLaterChanges` says the undo is meant to undo them too.
    ///
    /// With `redoing`, `record` is an undo and the proposal reverses it, recorded as a redo (``isRedo``).
    public init(
        record: OverrideJournalRecord, current: [String: OverrideEntry], laterChanges: [OverrideJournalRecord] = [],
        includingLaterChanges: Bool = false, redoing: Bool = false
    ) {
        self.record = record
        isRedo = redoing
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
        self.laterChanges = laterChanges
        includesLaterChanges = includingLaterChanges && !laterChanges.isEmpty
    }

    /// Whether undoing it would change nothing: every key already holds what the undo puts back.
    public var changesNothing: Bool { restores.allSatisfy { expected[$0.key] ?? nil == $0.value } }

    /// The reason the undo is journaled with: an undo of ``record``, and when it goes back through later changes,
    /// how many (`back to before it, with 2 later changes`); for a redo, a redo naming the undo it reverses.
    public var reason: OverrideChangeReason {
        if isRedo { return OverrideChangeReason(.redo, undoes: record.id) }
        guard includesLaterChanges else { return OverrideChangeReason(.undo, undoes: record.id) }
        let count = laterChanges.count
        return OverrideChangeReason(
            .undo, detail: "back to before it, with \(count) later change\(count == 1 ? "" : "s")", undoes: record.id)
    }
}
