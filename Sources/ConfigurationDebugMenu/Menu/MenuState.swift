package import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// The whole state of the debug menu: one value, compared in tests, changed only by ``MenuReducer``.
///
/// Each interactive piece keeps its own state in a component (``MenuComponent``: ``ValueEditor``, ``JSONEditor``,
/// ``Picker``, ``HelpScreen``, ...); the mode says which one has the keyboard and carries exactly the data that mode
/// needs, so no impossible state exists. What the browse screen shows — the key list, the module pane's scroll
/// position, the filters, the focused pane — is kept here, as other components change it too.
package struct MenuState: Equatable, Sendable {
    /// Which pane has the keyboard while browsing.
    package enum Pane: Equatable, Sendable {
        case modules
        case keys
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
    /// The keys marked for a bulk action (`v`, `V`), by name: kept while filters change, cleared by Esc or an action.
    package var marks: Set<String> = []
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
    /// From how many keys to look at a new query is ranked off the input thread (``requery(selectFirst:)``): below
    /// it, ranking takes at most about 2 ms and the rows change with the keystroke that changed the query. (Keys
    /// that matched the previous query cost the most: 0.13-0.45 µs each at 100,000 to 1,000,000 keys on a 2-core
    /// VM; at 20,000 such keys a keystroke's echo waited 5-16 ms.)
    package var backgroundRankingFrom = 5_000
    /// The id the next background ranking gets.
    package var nextRankID = 1

    /// The wall clock now, as of the last tick; `nil` when the menu was not given it (tests of fixed screens), so
    /// nothing says "in 59 min" from a made-up now.
    package var wallClock: Date? {
        wallClockOffset == 0 ? nil : Date(timeIntervalSince1970: wallClockOffset + clock)
    }

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

    /// The key bindings that apply now: the focused component's (see ``Mode/component``).
    package var keymap: Keymap { mode.component.keymap(in: self) }

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

    /// After a keystroke changed the query: recomputes the list at once when that is cheap, otherwise asks for a
    /// ranking off the input thread (``KeyList/pendingRank``), so the keystroke shows in the next frame and the rows
    /// follow when ready. Only the query's rows wait: the data they index stays as it is until they are adopted
    /// (anything that changes it refreshes the list at once, superseding the ranking).
    package mutating func requery(selectFirst: Bool = true) {
        guard list.rankingWork(data: data, filters: filters) >= backgroundRankingFrom else {
            refreshList(selectFirst: selectFirst)
            return
        }
        list.pendingRank = KeyList.PendingRank(id: nextRankID, selectFirst: selectFirst)
        nextRankID += 1
    }
}

/// A message in the footer until the next key press.
package struct StatusMessage: Equatable, Sendable {
    /// The text.
    package var text: String
    /// Whether it reports a failure.
    package var isError: Bool
}
