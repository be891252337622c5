import ServiceConfiguration

/// The whole state of the debug menu: one value, compared in tests, changed only by ``MenuReducer``.
///
/// Each interactive piece keeps its own state in a component (``KeyList``, ``ModulePane``, ``ValueEditor``,
/// ``JSONEditor``, ``Picker``, ``HelpScreen``, ...); the mode says which one has the keyboard and carries exactly
/// the data that mode needs, so no impossible state exists.
package struct MenuState: Equatable, Sendable {
    /// Which pane has the keyboard while browsing.
    package enum Pane: Equatable, Sendable {
        case modules
        case keys
    }

    /// What the keyboard is doing.
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
    }

    /// The catalog and everything known about its values.
    package var data: MenuData
    /// The screen size.
    package var width: Int
    /// The screen size.
    package var height: Int
    /// Which pane has the keyboard.
    package var focus: Pane = .keys
    /// Whether the module pane is shown: `nil` shows it on screens at least ``MenuLayout/modulePaneWidth`` wide
    /// (and whenever it has the keyboard); `m` sets it either way.
    package var modulePaneShown: Bool?
    /// The filters that decide which keys the list shows.
    package var filters = KeyFilters()
    /// The key list: its rows (derived from ``data`` and ``filters``), selection and scroll position.
    package var list: KeyList
    /// The module pane's scroll position.
    package var modules = ModulePane()
    /// What the keyboard is doing.
    package var mode: Mode = .browsing
    /// The footer message, if any.
    package var status: StatusMessage?
    /// Keys (by name) that another process changed recently, with the time it was noticed (seconds on a monotonic
    /// clock); the list marks them for a few seconds.
    package var changedElsewhere: [String: Double] = [:]
    /// The time of the last tick or refresh (seconds on a monotonic clock): the server line's age counts from it.
    package var clock: Double = 0
    /// Changes sent to the store (or waiting their turn) that it has not confirmed, oldest first.
    package var pending: [PendingChange] = []
    /// The id the next change gets (0 is never one: results with id 0 end no pending change).
    package var nextChangeID = 1
    /// Every status, warning and error shown, oldest first (the message log, `L`, shows them newest first).
    package var messages: [MenuMessage] = []
    /// The wall clock (seconds since 1970) at 0 on the loop's monotonic clock, for the log's times.
    package var wallClockOffset: Double

    /// Creates the state for a screen size; the rows are computed at once. The store's and the server's problems
    /// at the start are the first messages of the log.
    package init(data: MenuData, width: Int, height: Int, wallClockOffset: Double = 0) {
        self.data = data
        self.width = width
        self.height = height
        self.wallClockOffset = wallClockOffset
        list = KeyList(data: data, filters: KeyFilters(), visibleRows: 1)
        list.keepVisible(visibleRows: visibleKeyRows)
        logProblems(since: .none)
    }

    /// The layout for the current screen size.
    package var layout: MenuLayout {
        MenuLayout(
            width: width, height: height,
            showsModules: focus == .modules || (modulePaneShown ?? (width >= MenuLayout.modulePaneWidth)),
            showsServerLine: data.showsServerLine)
    }

    /// The key list's rows on screen.
    package var listRows: Rect { layout.listRows(filtered: filters.isActive) }

    /// How many key-list rows fit on screen.
    package var visibleKeyRows: Int { max(1, listRows.height) }

    /// The selected key's index in the table, if a key (not an orphan) is selected.
    package var selectedKey: Int? { list.selectedKey }

    /// The selected orphan's index, if an orphan is selected.
    package var selectedOrphan: Int? { list.selectedOrphan }

    /// Which key map applies now.
    package var keymapContext: KeymapContext {
        switch mode {
        case .browsing: focus == .modules ? .modules : .keys
        case .filtering: .filtering
        case .editing: .editing
        case .editingJSON: .editingJSON
        case .editingNote: .editingNote
        case .picking: .picking
        case .confirming: .confirming
        case .help: .help
        case .history: .history
        case .scenarios: .scenarios
        case .prompting: .prompting
        case .choosingExpiry: .expiry
        case .paging: .pager
        }
    }

    /// Shows `text` in the footer until the next key press, and keeps it in the message log.
    package mutating func inform(_ text: String) {
        status = StatusMessage(text: text, isError: false)
        log(text, kind: .info)
    }

    /// Shows a failure in the footer (in red, and prefixed with "error:" so it reads the same without colour), and
    /// keeps it in the message log.
    package mutating func fail(_ text: String) {
        status = StatusMessage(text: "error: " + text, isError: true)
        log(text, kind: .error)
    }

    /// Recomputes the key list from the data and the filters, keeping the selected item if it is still listed (or
    /// selecting the first item, with `selectFirst`).
    package mutating func refreshList(selectFirst: Bool = false) {
        list.refresh(data: data, filters: filters, visibleRows: visibleKeyRows, selectFirst: selectFirst)
    }
}

extension MenuState.Mode {
    /// Whether the menu is asking whether to quit (a second quit then quits).
    package var isAskingToQuit: Bool {
        switch self {
        case .confirming(.quitDiscardingEdit), .confirming(.quitWithPendingChanges): true
        default: false
        }
    }
}

/// A message in the footer until the next key press.
package struct StatusMessage: Equatable, Sendable {
    /// The text.
    package var text: String
    /// Whether it reports a failure.
    package var isError: Bool
}

/// The filters over the key list. They combine: a key is listed when it passes every one.
package struct KeyFilters: Equatable, Sendable {
    /// The scope the module pane selected; `nil` is "All".
    package var scope: Int?
    /// The fuzzy filter's text.
    package var query = ""
    /// Show only keys with an override.
    package var onlyOverridden = false
    /// Show only keys with a problem (rejected value, stale override) and orphaned overrides.
    package var onlyProblems = false
    /// Search every module, whatever module is selected.
    package var searchEverywhere = false
    /// Show only keys whose server value the last server sync changed.
    package var onlySyncChanged = false
    /// Show only keys no program using the store read in this run (see ``MenuData/coverage``).
    package var onlyUnread = false

    package init(scope: Int? = nil, query: String = "", onlyOverridden: Bool = false, onlyProblems: Bool = false) {
        self.scope = scope
        self.query = query
        self.onlyOverridden = onlyOverridden
        self.onlyProblems = onlyProblems
    }

    /// Whether any filter is on.
    package var isActive: Bool {
        scope != nil || !query.isEmpty || onlyOverridden || onlyProblems || onlySyncChanged || onlyUnread
    }

    /// The module the list is restricted to: the selected one, unless a search covers every module.
    package var effectiveScope: Int? { searchEverywhere && !query.isEmpty ? nil : scope }
}

/// A change to the override layer as one unit: what a write performs, or what an undo restores.
package struct OverrideWrite: Equatable, Sendable {
    /// One key's new override: a wire string, or `nil` to remove it.
    package struct Change: Equatable, Sendable {
        /// The key name.
        package var key: String
        /// The new override, or `nil` to remove it.
        package var value: String?

        package init(key: String, value: String?) {
            self.key = key
            self.value = value
        }
    }

    /// The changes, applied together.
    package var changes: [Change]
    /// Which pending change it is (``MenuState/pending``); 0 for none.
    package var id: Int
    /// A short description for the status line, such as "function.album.like.enabled = Y".
    package var summary: String
    /// When the changed overrides expire (`nil`: a new value never expires, an unchanged one keeps its rule).
    package var expiry: ExpiryChoice?

    package init(changes: [Change], summary: String, expiry: ExpiryChoice? = nil, id: Int = 0) {
        self.changes = changes
        self.summary = summary
        self.expiry = expiry
        self.id = id
    }

    /// Each key's new override value.
    package var values: [String: String?] {
        Dictionary(changes.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
