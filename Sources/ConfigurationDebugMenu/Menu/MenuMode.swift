extension MenuState {
    /// What has the keyboard: one case per screen, editor or dialog, carrying that component's state, so no
    /// impossible state exists.
    ///
    /// A new screen is one case here and its line in ``component``; everything else about it (its state, keys,
    /// update and drawing) is in its own folder. The key map, the help screen, the footer and the renderer all ask
    /// the component, so nothing else switches over the modes.
    package indirect enum Mode: Equatable, Sendable {
        /// Moving around and acting on keys.
        case browsing
        /// Typing a filter.
        case filtering(FilterBar)
        /// Editing a text or number value on one line.
        case editing(ValueEditor)
        /// Editing a JSON value over several lines.
        case editingJSON(JSONEditor)
        /// Editing an override's note.
        case editingNote(NoteEditor)
        /// Choosing one of a picker's choices.
        case picking(Picker)
        /// Waiting for y/N before a reset.
        case confirming(Confirmation)
        /// The help screen, over the mode it was opened from.
        case help(HelpScreen)
        /// The history of changes (who changed what, when).
        case history(HistoryView)
        /// The scenarios folder: profiles to preview and apply.
        case scenarios(ScenariosView)
        /// A line of text asked for (a scenario's name, a program version), over the mode it was asked from.
        case prompting(Prompt)
        /// Choosing when the selected override expires.
        case choosingExpiry(ExpiryMenu)
        /// Reading a page of text too long for where it is shown (the selected key's details).
        case paging(Pager)
        /// Choosing what to do with the marked keys.
        case bulkActions(BulkMenu)
        /// Choosing what of the selected key to copy to the clipboard.
        case copying(CopyMenu)
        /// One module's keys side by side: default, server value, override.
        case comparing(ModuleCompareView)
    }
}

extension MenuState.Mode {
    /// The component that has the keyboard in this mode: the one place that looks inside the cases.
    package var component: any MenuComponent {
        switch self {
        case .browsing: BrowseScreen()
        case .filtering(let bar): bar
        case .editing(let editor): editor
        case .editingJSON(let editor): editor
        case .editingNote(let editor): editor
        case .picking(let picker): picker
        case .confirming(let confirmation): confirmation
        case .help(let help): help
        case .history(let view): view
        case .scenarios(let view): view
        case .prompting(let prompt): prompt
        case .choosingExpiry(let menu): menu
        case .paging(let pager): pager
        case .bulkActions(let menu): menu
        case .copying(let menu): menu
        case .comparing(let view): view
        }
    }

    /// Whether the menu is asking whether to quit (a second quit then quits).
    package var isAskingToQuit: Bool {
        switch self {
        case .confirming(.quitDiscardingEdit), .confirming(.quitWithPendingChanges): true
        default: false
        }
    }
}
