package import ServiceConfiguration

/// Work the reducer asks the runtime to do; its outcome comes back as ``MenuFeedback``. The runtime does the work on the
/// store off the input thread, one piece at a time in the order asked (a change waits for the one before it, and
/// for the store to answer again after one it did not answer); each change carries the id of its pending change.
package enum MenuEffect: Equatable, Sendable {
    /// Save a change to the overrides through the service (validated by each key), then report
    /// ``MenuFeedback/writeSucceeded(_:)``, ``MenuFeedback/writeFailed(_:id:)``, or
    /// ``MenuFeedback/writeUnanswered(_:id:)`` and later ``MenuFeedback/writeSettled(id:applied:now:)``.
    case write(OverrideWrite)
    /// Read the history and report what undoing its last change would do (``MenuFeedback/undoProposed(_:)``).
    case proposeUndo
    /// Read the history and report what redoing what the last undo undid would do (``MenuFeedback/redoProposed(_:)``).
    case proposeRedo
    /// Read the history and report what undoing this change would do, found in it afresh
    /// (``MenuFeedback/chosenUndoProposed(_:undoneBy:)``).
    case proposeUndoOfChange(OverrideJournalRecord)
    /// Undo a recorded change through the service, then report ``MenuFeedback/undoSucceeded(_:id:)`` or
    /// ``MenuFeedback/writeFailed(_:id:)`` (also when a key changed meanwhile).
    case undo(OverrideUndoProposal, id: Int)
    /// Remove the expired overrides through the service, then report ``MenuFeedback/pruned(_:id:)``.
    case pruneExpired(id: Int)
    /// Read the scenarios folder, then report ``MenuFeedback/scenariosLoaded(_:)``.
    case loadScenarios
    /// Put a scenario's entries in place (`nil` removes) as one change named after it, then report
    /// ``MenuFeedback/scenarioApplied(_:id:)``.
    case applyScenario(name: String, changes: [String: OverrideEntry?], id: Int)
    /// Save the current overrides (only those of `keys`, when given: the marked keys) as a new scenario file, then
    /// report ``MenuFeedback/scenarioSaved(_:)``.
    case saveScenario(name: String, keys: [String]? = nil)
    /// Replace the note of the keys' overrides (their values and other metadata kept) as one change, then report
    /// ``MenuFeedback/writeSucceeded(_:)`` or ``MenuFeedback/writeFailed(_:id:)``.
    case note(keys: [String], note: String?, id: Int)
    /// Leave the terminal, run `$EDITOR` on the edit's text, come back, read what changed meanwhile, and report
    /// the result.
    case openExternalEditor(ExternalEdit)
    /// Send `text` to the terminal's clipboard (OSC 52); nothing is reported back (the terminal does not answer).
    case copyToClipboard(String)
    /// Sync the server values (in the background), then report ``MenuFeedback/syncFinished(_:)``.
    case syncServerValues
    /// Revert the store to just after a recorded change (undo every later change at once), then report
    /// ``MenuFeedback/undoSucceeded(_:id:)`` or ``MenuFeedback/writeFailed(_:id:)``.
    case revert(OverrideRevertProposal, id: Int)
    /// Stop the process as a shell job (the terminal restored first), redraw when the shell resumes it.
    case suspend
    /// Leave the menu.
    case quit
}
