/// The changes an ``OverrideStore`` has recorded, oldest first, and what an undo would undo.
///
/// ```swift
/// let history = service.overrideStore.history()
/// for record in history.changes(forKey: "function.album.like.enabled") { print(record.summary) }
/// if let proposal = history.undoProposal(current: service.overrideStore.entries) {
///     print("undo \(proposal.record.origin)'s change: \(proposal.record.summary)")
///     try service.undoOverrideChange(proposal)
/// }
/// ```
public struct OverrideHistory: Sendable, Hashable {
    /// The recorded changes, oldest first.
    public var records: [OverrideJournalRecord]
    /// A change the file shows that no journaling writer recorded yet (a hand edit): the next writer records it.
    public var unrecorded: OverrideJournalRecord?
    /// Journal lines that could not be read (cut short by a killed writer, or from a newer build).
    public var unreadableLines: Int
    /// Why the journal could not be read, if so.
    public var problem: String?
    /// Whether the store keeps a history at all.
    public var isKept: Bool

    /// A history.
    public init(
        records: [OverrideJournalRecord] = [], unrecorded: OverrideJournalRecord? = nil, unreadableLines: Int = 0,
        problem: String? = nil, isKept: Bool = true
    ) {
        self.records = records
        self.unrecorded = unrecorded
        self.unreadableLines = unreadableLines
        self.problem = problem
        self.isKept = isKept
    }

    /// A store that keeps no history.
    public static let notKept = OverrideHistory(isKept: false)

    /// Every change, the unrecorded one last, oldest first.
    public var changes: [OverrideJournalRecord] { records + (unrecorded.map { [$0] } ?? []) }

    /// The changes that touched `key`, oldest first.
    public func changes(forKey key: String) -> [OverrideJournalRecord] {
        changes.filter { record in record.changes.contains { $0.key == key } }
    }

    /// The change an undo undoes: the newest change not undone yet. Undo records themselves are skipped with the
    /// change each one undid, so repeated undos walk back through the history.
    public var lastUndoable: OverrideJournalRecord? {
        var undone: Set<String> = []
        for record in changes.reversed() {
            if record.reason.action == .undo {
                if let target = record.reason.undoes { undone.insert(target) }
                continue
            }
            if undone.contains(record.id) { continue }
            return record
        }
        return nil
    }

    /// The undo a redo reverses: the newest undo not redone yet, as long as no other change came after it (a new
    /// change after an undo ends what can be redone, as in any editor). Redo records are skipped with the undo each
    /// one reversed, so repeated redos walk forward again through what repeated undos walked back.
    ///
    /// ```swift
    /// if let proposal = history.redoProposal(current: store.entries) {
    ///     try service.undoOverrideChange(proposal)    // recorded as a redo
    /// }
    /// ```
    public var lastRedoable: OverrideJournalRecord? {
        var redone: Set<String> = []
        for record in changes.reversed() {
            switch record.reason.action {
            case .redo:
                if let target = record.reason.undoes { redone.insert(target) }
            case .undo:
                if !redone.contains(record.id) { return record }
            default:
                return nil
            }
        }
        return nil
    }

    /// What redoing ``lastRedoable`` would do, given the store's `current` entries: the entries its undo replaced
    /// come back. `nil` when there is nothing to redo. Applied with ``ConfigurationService/undoOverrideChange(_:)``
    /// like an undo (refused if a key changed meanwhile) and recorded as a redo.
    public func redoProposal(current: [String: OverrideEntry]) -> OverrideUndoProposal? {
        lastRedoable.map { OverrideUndoProposal(record: $0, current: current, redoing: true) }
    }

    /// What undoing ``lastUndoable`` would do, given the store's `current` entries; `nil` when there is nothing to
    /// undo.
    public func undoProposal(current: [String: OverrideEntry]) -> OverrideUndoProposal? {
        lastUndoable.map { OverrideUndoProposal(record: $0, current: current, laterChanges: laterChanges(of: $0)) }
    }

    /// The change with this id, if recorded (or shown as not recorded yet).
    public func change(id: String) -> OverrideJournalRecord? {
        changes.first { $0.id == id }
    }

    /// `record` as this history holds it: the change with its id, or else the newest with the same changes (one
    /// read before its writer recorded it, shown then as ``unrecorded`` under an id of its own, is found once
    /// recorded).
    public func change(matching record: OverrideJournalRecord) -> OverrideJournalRecord? {
        change(id: record.id) ?? changes.last { $0.changes == record.changes }
    }

    /// The changes after `record` that changed one of its keys, oldest first (an undo of it among them).
    public func laterChanges(of record: OverrideJournalRecord) -> [OverrideJournalRecord] {
        let all = changes
        guard let index = all.firstIndex(where: { $0.id == record.id }) else { return [] }
        let keys = Set(record.keys)
        return all[(index + 1)...].filter { later in later.changes.contains { keys.contains($0.key) } }
    }

    /// The recorded undo of `record`, if it was undone.
    public func undo(of record: OverrideJournalRecord) -> OverrideJournalRecord? {
        changes.last { $0.reason.action == .undo && $0.reason.undoes == record.id }
    }

    /// What undoing exactly `record` (any recorded change, not only the last) would do, given the store's `current`
    /// entries. When later changes touched its keys (``OverrideUndoProposal/laterChanges``), undoing it alone
    /// would replace what they did too: ask with ``undoProposal(backTo:current:)`` instead, which says so.
    ///
    /// ```swift
    /// let proposal = history.undoProposal(for: selected, current: store.entries)
    /// if let first = proposal.laterChanges.first { print("in the way: \(first.summary)") }
    /// ```
    public func undoProposal(for record: OverrideJournalRecord, current: [String: OverrideEntry])
        -> OverrideUndoProposal
    {
        OverrideUndoProposal(record: record, current: current, laterChanges: laterChanges(of: record))
    }

    /// What undoing `record` and, for its keys, every change after it would do: its keys go back to what they held
    /// before it (other keys the later changes touched stay). Recorded as an undo of `record` "back to before it".
    ///
    /// ```swift
    /// let back = history.undoProposal(backTo: selected, current: store.entries)
    /// try service.undoOverrideChange(back)    // refused if a key changes meanwhile
    /// ```
    public func undoProposal(backTo record: OverrideJournalRecord, current: [String: OverrideEntry])
        -> OverrideUndoProposal
    {
        OverrideUndoProposal(
            record: record, current: current, laterChanges: laterChanges(of: record), includingLaterChanges: true)
    }
}
