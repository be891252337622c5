package import ServiceConfiguration

/// Everything that can happen to the menu: key presses already mapped by the ``Keymap``, mouse and resize events,
/// and the results of effects.
package enum MenuAction: Equatable, Sendable {
    // Moving
    /// Move the selection by this many rows (in the focused pane).
    case move(Int)
    /// Move by a screenful: +1 down, -1 up.
    case page(Int)
    /// Jump to the first row.
    case top
    /// Jump to the last row.
    case bottom
    /// Give the keyboard to the key list.
    case focusKeys
    /// Give the keyboard to the module pane.
    case focusModules

    // Filtering
    /// Start typing a filter.
    case startFilter
    /// Add text to the filter (one typed character, or a whole paste).
    case filterInsert(String)
    /// Delete the filter's last character.
    case filterBackspace
    /// Clear the filter text while typing it.
    case filterErase
    /// Keep the filter and go back to browsing.
    case filterAccept
    /// Clear the filter and go back to browsing.
    case filterCancel
    /// Show only overridden keys, or all again.
    case toggleOnlyOverridden
    /// Show only keys with problems, or all again.
    case toggleOnlyProblems
    /// Clear every filter (text, module, overridden-only, problems-only).
    case clearFilters
    /// While typing a filter: search every module, or only the selected one again.
    case toggleSearchEverywhere
    /// Show only keys whose server value the last server sync changed, or all again.
    case toggleOnlySyncChanged
    /// Show only keys the program never read in this run, or every key again.
    case toggleOnlyUnread
    /// Show or hide the module pane.
    case toggleModulePane

    // Changing values
    /// Flip a Bool key.
    case toggle
    /// Enter: flip a Bool, open the picker, or open the editor, depending on the key's control.
    case activate
    /// Open the selected key's value in `$EDITOR`.
    case externalEdit
    /// Open the note editor for the selected key's override.
    case editNote
    /// Remove the selected key's override.
    case resetSelected
    /// Ask to remove every override of the selected scope.
    case resetScope
    /// Ask to remove every override.
    case resetAll
    /// Undo the last change anyone made (from the history journal).
    case undo
    /// Move a number key with a range by this many steps (`+`: 1, `-`: -1).
    case step(Int)
    /// Sync the server values now.
    case syncNow
    /// Choose when the selected override expires.
    case chooseExpiry
    /// In an editor: step through when the saved override expires.
    case cycleExpiry
    /// Ask to remove every expired override.
    case pruneExpired

    // Views
    /// Show the selected key's whole details in a pager (or close the pager showing them).
    case showDetails
    /// Show the message log: every status, warning and error shown, whole, newest first (or close it).
    case showMessages
    /// Show the history of changes.
    case openHistory
    /// Show the scenarios folder.
    case openScenarios
    /// Close the history or scenarios view.
    case closeView
    /// In the history: show only the changes of the key selected in the list, or every change again.
    case toggleHistoryFilter
    /// In the scenarios view: apply by merging into the overrides, or by replacing them.
    case toggleScenarioMode
    /// In the scenarios view: save the current overrides as a new scenario (asks for a name).
    case saveScenarioAs

    // Editors
    /// Insert text at the caret (one typed character, or a whole paste).
    case editInsert(String)
    /// Insert a line break (JSON editor).
    case editNewline
    /// Move the caret.
    case editMove(CaretMove)
    /// Delete text.
    case editDelete(Deletion)
    /// Save the edited value (only when valid).
    case editSave
    /// Close the editor without saving.
    case editCancel

    // Picker and confirmation
    /// Choose the highlighted choice.
    case pickerChoose
    /// Close the picker without changing anything.
    case pickerCancel
    /// Answer yes.
    case confirm
    /// Answer no.
    case cancel

    // Screens
    /// Show the help screen for the current mode.
    case help
    /// Close the help screen.
    case closeHelp
    /// Leave the menu.
    case quit

    // Events
    /// The terminal was resized.
    case resize(width: Int, height: Int)
    /// A mouse click.
    case click(x: Int, y: Int)
    /// The mouse wheel; negative is up.
    case wheel(Int, x: Int, y: Int)
    /// Time passes (seconds on a monotonic clock): marks of changes made elsewhere fade.
    case tick(Double)

    // Effect results
    /// New statuses for some keys, after a change by anyone (this menu, another process, the program).
    case refreshed(MenuDataUpdate)
    /// A write finished (it is no longer pending).
    case writeSucceeded(OverrideWrite)
    /// What undoing the last recorded change would do (`nil`: nothing is recorded).
    case undoProposed(OverrideUndoProposal?)
    /// What undoing the change chosen in the history would do (back to before it, when later changes of its keys
    /// are in the way), and the undo that already undid it, if any; `nil`: it is no longer in the history.
    case chosenUndoProposed(OverrideUndoProposal?, undoneBy: OverrideJournalRecord?)
    /// An undo finished; the text says what was undone. `id` is its pending change.
    case undoSucceeded(String, id: Int)
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
    /// A sync asked for with ``syncNow`` finished.
    case syncFinished(ServerSyncOutcome)

    /// How the caret moves.
    package enum CaretMove: Equatable, Sendable {
        case left, right, up, down, lineStart, lineEnd
    }

    /// What to delete.
    package enum Deletion: Equatable, Sendable {
        case backward, forward, toLineStart, toLineEnd, wordBackward
    }
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

/// Work the reducer asks the runtime to do; its outcome comes back as an action. The runtime does the work on the
/// store off the input thread, one piece at a time in the order asked (a change waits for the one before it, and
/// for the store to answer again after one it did not answer); each change carries the id of its pending change.
package enum MenuEffect: Equatable, Sendable {
    /// Save a change to the overrides through the service (validated by each key), then report
    /// ``MenuAction/writeSucceeded(_:)``, ``MenuAction/writeFailed(_:id:)``, or
    /// ``MenuAction/writeUnanswered(_:id:)`` and later ``MenuAction/writeSettled(id:applied:now:)``.
    case write(OverrideWrite)
    /// Read the history and report what undoing its last change would do (``MenuAction/undoProposed(_:)``).
    case proposeUndo
    /// Read the history and report what undoing this change would do, found in it afresh
    /// (``MenuAction/chosenUndoProposed(_:undoneBy:)``).
    case proposeUndoOfChange(OverrideJournalRecord)
    /// Undo a recorded change through the service, then report ``MenuAction/undoSucceeded(_:id:)`` or
    /// ``MenuAction/writeFailed(_:id:)`` (also when a key changed meanwhile).
    case undo(OverrideUndoProposal, id: Int)
    /// Remove the expired overrides through the service, then report ``MenuAction/pruned(_:id:)``.
    case pruneExpired(id: Int)
    /// Read the scenarios folder, then report ``MenuAction/scenariosLoaded(_:)``.
    case loadScenarios
    /// Put a scenario's entries in place (`nil` removes) as one change named after it, then report
    /// ``MenuAction/scenarioApplied(_:id:)``.
    case applyScenario(name: String, changes: [String: OverrideEntry?], id: Int)
    /// Save the current overrides as a new scenario file, then report ``MenuAction/scenarioSaved(_:)``.
    case saveScenario(name: String)
    /// Replace the note of a key's override (its value and other metadata kept), then report
    /// ``MenuAction/writeSucceeded(_:)`` or ``MenuAction/writeFailed(_:id:)``.
    case note(key: String, note: String?, id: Int)
    /// Leave the terminal, run `$EDITOR` on the edit's text, come back, read what changed meanwhile, and report
    /// the result.
    case openExternalEditor(ExternalEdit)
    /// Sync the server values (in the background), then report ``MenuAction/syncFinished(_:)``.
    case syncServerValues
    /// Leave the menu.
    case quit
}
