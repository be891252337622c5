package import ServiceConfiguration

/// What the runtime reports to the reducer: the outcome of an effect (``MenuEffect``), new data from the store, the
/// terminal's size, the clock. What the person at the keyboard asks for is a ``MenuIntent``; feedback never comes
/// from a key.
package enum MenuFeedback: Equatable, Sendable {
    // The terminal and the clock
    /// The terminal was resized.
    case resize(width: Int, height: Int)
    /// Time passes (seconds on a monotonic clock): marks of changes made elsewhere fade.
    case tick(Double)

    // Effect results
    /// New statuses for some keys, after a change by anyone (this menu, another process, the program).
    case refreshed(MenuDataUpdate)
    /// A write finished (it is no longer pending).
    case writeSucceeded(OverrideWrite)
    /// What undoing the last recorded change would do (`nil`: nothing is recorded).
    case undoProposed(OverrideUndoProposal?)
    /// What redoing would do: the last undo reversed (`nil`: no undo since the last change).
    case redoProposed(OverrideUndoProposal?)
    /// What undoing the change chosen in the history would do (back to before it, when later changes of its keys
    /// are in the way), and the undo that already undid it, if any; `nil`: it is no longer in the history.
    case chosenUndoProposed(OverrideUndoProposal?, undoneBy: OverrideJournalRecord?)
    /// An undo finished; the text says what was undone. `id` is its pending change.
    case undoSucceeded(String, id: Int)
    /// A redo finished; the text says what was made again. `id` is its pending change.
    case redoSucceeded(String, id: Int)
    /// Expired overrides were removed (their keys). `id` is its pending change.
    case pruned([String], id: Int)
    /// The scenarios folder was read.
    case scenariosLoaded(ScenarioListing)
    /// A scenario was applied (its name). `id` is its pending change.
    case scenarioApplied(String, id: Int)
    /// The overrides were saved as a scenario (its name).
    case scenarioSaved(String)
    /// A write or an undo failed; the message says why. The old value stays. `id` is its pending change (0: none).
    case writeFailed(String, id: Int)
    /// The store did not answer change `id` in time: whether it was made is unknown (the message says so). It stays
    /// pending until the store answers again.
    case writeUnanswered(String, id: Int)
    /// The store answered again after change `id` went unanswered: whether it was `applied`, and what the store now
    /// holds for its keys (`nil`: no override).
    case writeSettled(id: Int, applied: Bool, now: [String: String?])
    /// `$EDITOR` returned this text for the edit.
    case externalEditFinished(ExternalEdit, text: String)
    /// `$EDITOR` could not be run.
    case externalEditFailed(String)
    /// A sync asked for with ``MenuIntent/syncNow`` finished.
    case syncFinished(ServerSyncOutcome)
    /// A background ranking finished (``KeyList/pendingRank``): the key list for the filters it was asked for. Taken
    /// only while it is still the newest one asked for.
    case ranked(KeyList, id: Int)
}

/// Changed statuses, from the data source.
package struct MenuDataUpdate: Equatable, Sendable {
    /// New statuses by key index.
    package var statuses: [Int: ConfigurationKeyStatus]
    /// The orphaned overrides now.
    package var orphans: [ConfigurationKeyStatus]
    /// The store's problem now, if any.
    package var storeProblem: String?
    /// Why live reload is degraded now, if it is.
    package var liveReloadProblem: String?
    /// The keys (by name) another process changed, as opposed to this menu.
    package var changedElsewhere: Set<String>
    /// When the update was taken, in seconds on a monotonic clock.
    package var time: Double
    /// The server values' new status, if it changed.
    package var server: ServerSyncDisplay?
    /// The previous server value of each key the last sync changed, if that changed (`nil`: unchanged).
    package var syncChanges: [String: String?]?
    /// What the programs using the store read, if that changed (`nil`: unchanged).
    package var coverage: ProgramCoverage?
    /// The history of changes, if it changed (`nil`: unchanged).
    package var history: OverrideHistory?

    /// Creates an update.
    package init(
        statuses: [Int: ConfigurationKeyStatus], orphans: [ConfigurationKeyStatus], storeProblem: String?,
        liveReloadProblem: String? = nil, changedElsewhere: Set<String> = [], time: Double = 0,
        server: ServerSyncDisplay? = nil, syncChanges: [String: String?]? = nil, coverage: ProgramCoverage? = nil,
        history: OverrideHistory? = nil
    ) {
        self.statuses = statuses
        self.orphans = orphans
        self.storeProblem = storeProblem
        self.liveReloadProblem = liveReloadProblem
        self.changedElsewhere = changedElsewhere
        self.time = time
        self.server = server
        self.syncChanges = syncChanges
        self.coverage = coverage
        self.history = history
    }
}
