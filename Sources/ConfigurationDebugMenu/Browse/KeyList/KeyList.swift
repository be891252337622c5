/// The key list component: which rows the filters leave, which one is selected, and what is scrolled into view.
///
/// Its rows are derived from the menu's data and filters (``refresh(data:filters:visibleRows:selectFirst:)``);
/// moving, paging and clicking change only the selection and the scroll position. Drawing is in
/// `KeyList+Drawing.swift`, filtering in `KeyList+Rows.swift`.
package struct KeyList: Equatable, Sendable {
    /// One line of the list.
    package enum Row: Hashable, Sendable {
        /// A scope heading (not selectable).
        case heading(scope: Int)
        /// A key, by index in the ``KeyTable``.
        case key(Int)
        /// The heading above orphaned overrides.
        case orphanHeading
        /// An orphaned override, by index in ``MenuData/orphans``.
        case orphan(Int)
        /// The heading above keys the program read whose scope is not in its catalog.
        case unregisteredHeading
        /// A key the program read whose scope is not in its catalog, by index in ``ProgramCoverage/unregistered``.
        case unregistered(Int)

        /// Whether the row can be selected.
        package var isSelectable: Bool {
            switch self {
            case .key, .orphan, .unregistered: true
            case .heading, .orphanHeading, .unregisteredHeading: false
            }
        }
    }

    /// The rows the filters leave, in order.
    package private(set) var rows: [Row] = []
    /// How many of ``rows`` are keys.
    package private(set) var keyCount = 0
    /// How many of ``rows`` are orphaned overrides.
    package private(set) var orphanCount = 0
    /// How many of ``rows`` are unregistered keys.
    package private(set) var unregisteredCount = 0
    /// Keys found by what they say or hold (see ``TextSearch``) rather than by name, with the field that matched.
    package internal(set) var textMatches: [Int: TextSearch.Field] = [:]
    /// The selected row in ``rows``.
    package var selection = 0
    /// The first row on screen.
    package var scroll = 0
    /// The keys the last query matched, for narrowing the next keystroke's search.
    var cache: FilterCache?
    /// The query the rows answer: the filter's query when they were last computed. While a newer query is ranked in
    /// the background (``pendingRank``), the rows are the previous query's, and are drawn and highlighted for it.
    package private(set) var shownQuery = ""
    /// A ranking of the filters as they are now that the loop runs off the input thread (``RankWorker``); until its
    /// result is adopted (``adopt(_:id:visibleRows:)``) the rows stay those of ``shownQuery``. `nil` when the rows
    /// answer the filters.
    package var pendingRank: PendingRank?

    /// A ranking asked for while typing, too big to run between two frames.
    package struct PendingRank: Equatable, Sendable {
        /// Tells this ranking from earlier ones: only the newest one's result is adopted.
        package var id: Int
        /// Whether the result selects its first row (a new query) or keeps the selected row if still listed.
        package var selectFirst: Bool
    }

    /// The matches of a query, kept so that typing one more character searches only these.
    struct FilterCache: Equatable, Sendable {
        var query: String
        var scope: Int?
        var keys: [Int]
    }

    /// Creates the list for `data` under `filters`, with the first key selected.
    package init(data: MenuData, filters: KeyFilters, visibleRows: Int) {
        refresh(data: data, filters: filters, visibleRows: visibleRows, selectFirst: true)
    }

    /// The selected key's index in the table, if a key (not an orphan) is selected.
    package var selectedKey: Int? {
        guard rows.indices.contains(selection), case .key(let key) = rows[selection] else { return nil }
        return key
    }

    /// The selected orphan's index, if an orphan is selected.
    package var selectedOrphan: Int? {
        guard rows.indices.contains(selection), case .orphan(let orphan) = rows[selection] else { return nil }
        return orphan
    }

    /// The selected unregistered key's index in ``ProgramCoverage/unregistered``, if one is selected.
    package var selectedUnregistered: Int? {
        guard rows.indices.contains(selection), case .unregistered(let index) = rows[selection] else { return nil }
        return index
    }

    /// Recomputes the rows, keeping the selected item selected if it is still listed (or selecting the first item,
    /// with `selectFirst`).
    /// Any ranking still pending is superseded: these rows answer the filters as they are now.
    ///
    /// `shouldStop` is asked now and then while ranking; when it says yes the refresh gives up and returns false,
    /// leaving the list part way (a ``RankWorker`` refreshes a copy, and drops it then).
    @discardableResult
    package mutating func refresh(
        data: MenuData, filters: KeyFilters, visibleRows: Int, selectFirst: Bool = false,
        shouldStop: () -> Bool = { false }
    ) -> Bool {
        let previous = rows.indices.contains(selection) ? rows[selection] : nil
        guard let computed = computeRows(data: data, filters: filters, shouldStop: shouldStop) else { return false }
        rows = computed
        shownQuery = filters.query
        pendingRank = nil
        keyCount = 0
        orphanCount = 0
        unregisteredCount = 0
        for row in rows {
            switch row {
            case .key: keyCount += 1
            case .orphan: orphanCount += 1
            case .unregistered: unregisteredCount += 1
            case .heading, .orphanHeading, .unregisteredHeading: break
            }
        }
        if !selectFirst, let previous, let index = rows.firstIndex(of: previous) {
            selection = index
        } else if selectFirst {
            selection = firstSelectable
            scroll = 0
        } else {
            selection = min(selection, max(0, rows.count - 1))
            if rows.indices.contains(selection), !rows[selection].isSelectable {
                selection =
                    rows[selection...].firstIndex(where: \.isSelectable)
                    ?? rows[..<selection].lastIndex(where: \.isSelectable) ?? 0
            }
        }
        keepVisible(visibleRows: visibleRows)
        return true
    }

    /// How many keys ranking `filters` would look at: what decides whether it runs between two frames or in the
    /// background (``MenuState/backgroundRankingFrom``). The previous query's matches when the new one extends it.
    func rankingWork(data: MenuData, filters: KeyFilters) -> Int {
        let scope = filters.effectiveScope
        if !filters.query.isEmpty, let cache, cache.scope == scope, filters.query.hasPrefix(cache.query) {
            return cache.keys.count
        }
        return scope.map { data.table.scopes[$0].range.count } ?? data.table.keys.count
    }

    /// Takes the rows a ``RankWorker`` computed for the pending ranking `id`, keeping this list's scroll in view of
    /// `visibleRows`; a result for an earlier ranking, or for none, is dropped. Returns whether it was taken.
    @discardableResult
    package mutating func adopt(_ ranked: KeyList, id: Int, visibleRows: Int) -> Bool {
        guard pendingRank?.id == id, ranked.pendingRank == nil else { return false }
        self = ranked
        keepVisible(visibleRows: visibleRows)
        return true
    }

    /// Moves the selection `delta` selectable rows (clamped at the ends).
    package mutating func move(by delta: Int, visibleRows: Int) {
        guard !rows.isEmpty else { return }
        var index = selection
        var remaining = abs(delta)
        let step = delta < 0 ? -1 : 1
        var candidate = index
        while remaining > 0 {
            candidate += step
            guard rows.indices.contains(candidate) else { break }
            if rows[candidate].isSelectable {
                index = candidate
                remaining -= 1
            }
        }
        selection = index
        keepVisible(visibleRows: visibleRows)
    }

    /// Selects the row shown on line `line` of the list (a click), if it is selectable.
    package mutating func click(line: Int) {
        let row = scroll + line
        if rows.indices.contains(row), rows[row].isSelectable { selection = row }
    }

    /// Keeps the selection on screen, and the heading above the first key visible when scrolled to the top.
    package mutating func keepVisible(visibleRows: Int) {
        if selection < scroll { scroll = selection }
        if selection == firstSelectable { scroll = 0 }
        if selection >= scroll + visibleRows { scroll = selection - visibleRows + 1 }
        scroll = max(0, min(scroll, max(0, rows.count - visibleRows)))
    }

    private var firstSelectable: Int { rows.firstIndex(where: \.isSelectable) ?? 0 }

    /// The selected row's place among the listed keys and orphans (1-based), for "12/55".
    package var selectedOrdinal: Int {
        guard rows.indices.contains(selection) else { return 0 }
        return rows[...selection].filter(\.isSelectable).count
    }
}
