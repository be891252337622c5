/// The module pane: "All" and every scope with its number of keys and of overrides. Selecting a module filters the
/// key list; the pane itself keeps only its scroll position (the selected module is the filters' scope).
package struct ModulePane: Equatable, Sendable {
    /// The first module row on screen.
    package var scroll = 0

    package init() {}

    /// The number of rows: "All", then every scope.
    package static func count(_ data: MenuData) -> Int { data.table.scopes.count + 1 }

    /// The row of `scope` (`nil`: "All").
    package static func index(of scope: Int?) -> Int { scope.map { $0 + 1 } ?? 0 }

    /// The scope of row `index` (clamped), `nil` for "All".
    package static func scope(at index: Int, in data: MenuData) -> Int? {
        let clamped = max(0, min(count(data) - 1, index))
        return clamped == 0 ? nil : clamped - 1
    }

    /// Scrolls so that row `index` is visible in `visibleRows` rows.
    package mutating func reveal(_ index: Int, visibleRows: Int, total: Int) {
        if index < scroll { scroll = index }
        if index >= scroll + visibleRows { scroll = index - visibleRows + 1 }
        scroll = max(0, min(scroll, max(0, total - visibleRows)))
    }

    /// The module row shown on line `line` of the pane (a click).
    package func index(atLine line: Int) -> Int { scroll + line }

    /// Draws the pane in `box`; `selected` is the selected row, `focused` whether the pane has the keyboard.
    package func draw(
        into grid: inout ScreenGrid, in box: Rect, data: MenuData, selected: Int, focused: Bool, theme: MenuTheme
    ) {
        let inner = grid.box(box, title: "Modules", style: focused ? theme.focusedBorder : theme.border)
        let numbers = 11
        let nameWidth = inner.width - numbers - 1
        let (header, list) = inner.splitTop(1)
        grid.write(
            pad("Module", nameWidth) + String(repeating: " ", count: numbers - 8) + "keys ovr", in: header,
            style: theme.columnHeader)
        for line in 0..<list.height {
            let index = scroll + line
            guard index < Self.count(data) else { break }
            let name: String
            let keys: Int
            let overrides: Int
            if index == 0 {
                name = "All"
                keys = data.table.keys.count
                overrides = data.overrideCount
            } else {
                let scope = data.table.scopes[index - 1]
                name = scope.name
                keys = scope.range.count
                overrides = data.scopeOverrideCounts[index - 1]
            }
            let row = list.row(line)
            let counts = leftPad(String(keys), 6) + leftPad(overrides > 0 ? String(overrides) : "", 4)
            let style: CellStyle = index == selected ? (focused ? theme.selected : theme.selectedUnfocused) : theme.text
            grid.fill(row, style: style)
            grid.write(name, in: row.columns(1..<nameWidth), style: style)
            grid.write(counts, in: row.columns(nameWidth..<nameWidth + 10), style: style)
            if overrides > 0, index != selected {
                grid.restyle(x: row.x + nameWidth + 6, y: row.y, count: 4) { $0 = theme.source(.overridden) }
            }
        }
    }
}

/// `text` padded with spaces on the right to `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - TextWidth.of(text)))
}

/// `text` padded with spaces on the left to `width` columns.
func leftPad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - TextWidth.of(text))) + text
}
