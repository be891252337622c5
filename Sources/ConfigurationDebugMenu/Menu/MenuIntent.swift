/// What the person at the keyboard asks for: a key press the focused component's ``Keymap`` maps, a click, the mouse
/// wheel. The reducer routes an intent to the component that has the keyboard (``MenuState/Mode/component``); what
/// the runtime reports back — the outcome of effects, new data, the terminal's size, the clock — is ``MenuFeedback``.
package enum MenuIntent: Equatable, Sendable {
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
    /// Show only keys whose values hold invisible or control characters, or every key again.
    case toggleOnlyInvisible
    /// Show or hide the module pane.
    case toggleModulePane
    /// Filter by the module at this place in the module pane (0: All), the focus staying where it is.
    case jumpToModule(Int)
    /// Mark or unmark the selected key for a bulk action, then move to the next key.
    case toggleMark
    /// Mark every key the list shows (unmark them when all are marked already).
    case markShown

    // Changing values
    /// Flip a Bool key.
    case toggle
    /// Enter: flip a Bool, open the picker, or open the editor, depending on the key's control.
    case activate
    /// Open the selected key's value in `$EDITOR`.
    case externalEdit
    /// Remove the selected key's override.
    case resetSelected
    /// Ask to remove every override of the selected scope.
    case resetScope
    /// Ask to remove every override.
    case resetAll
    /// Redo: reverse the last undo, if nothing changed after it.
    case redo
    /// Undo the last change anyone made (from the history journal).
    case undo
    /// Move a number key with a range by this many steps (`+`: 1, `-`: -1).
    case step(Int)
    /// A number with a range: its minimum (`false`) or maximum (`true`).
    case toBound(Bool)
    /// Sync the server values now.
    case syncNow
    /// In an editor: step through when the saved override expires.
    case cycleExpiry
    /// Ask to remove every expired override.
    case pruneExpired

    // Views
    /// Show the selected key's whole details in a pager (or close the pager showing them).
    case showDetails
    /// Show the message log: every status, warning and error shown, whole, newest first (or close it).
    case showMessages
    /// Close the history or scenarios view.
    case closeView
    /// In the history: show only the changes of the key selected in the list, or every change again.
    case toggleHistoryFilter
    /// In the history: revert the store to just after the selected change (undo every later change at once).
    case revertToHere
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
    /// Ctrl-Z: stop the menu as a shell job (the terminal restored), and come back where it was on `fg`.
    case suspend

    // Components
    /// Open a component that a key opens from another one (``OpenableComponent``): the filter bar, the note editor,
    /// the expiry menu, the history, the scenarios. The intents that name one are declared beside it
    /// (``startFilter``, ``editNote``, ``chooseExpiry``, ``openHistory``, ``openScenarios``).
    case open(ComponentType)

    // The mouse
    /// A mouse click.
    case click(x: Int, y: Int)
    /// The mouse wheel; negative is up.
    case wheel(Int, x: Int, y: Int)

    /// How the caret moves.
    package enum CaretMove: Equatable, Sendable {
        case left, right, up, down, lineStart, lineEnd
    }

    /// What to delete.
    package enum Deletion: Equatable, Sendable {
        case backward, forward, toLineStart, toLineEnd, wordBackward
    }
}

extension MenuIntent {
    /// Whether the intent only changes the filter's text or where it searches (or closes the filter bar keeping
    /// them): such keystrokes go on while the list is ranked in the background; any other waits for the ranking, so
    /// it acts on the rows the query has.
    var changesQueryOnly: Bool {
        switch self {
        case .filterInsert, .filterBackspace, .filterErase, .filterAccept, .toggleSearchEverywhere: true
        default: false
        }
    }

    /// Whether the intent asks for a new query (its text or where it searches): a ranking under way for the old one
    /// can only end stale.
    var replacesQuery: Bool {
        switch self {
        case .filterInsert, .filterBackspace, .filterErase, .toggleSearchEverywhere: true
        default: false
        }
    }
}
