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
    package mutating func refresh(data: MenuData, filters: KeyFilters, visibleRows: Int, selectFirst: Bool = false) {
        let previous = rows.indices.contains(selection) ? rows[selection] : nil
        rows = computeRows(data: data, filters: filters)
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
