/// The filter prompt in the footer while a filter is typed: `/query`, the caret, and the filter's keys. The query
/// itself lives in the menu's ``KeyFilters`` (the list narrows as it is typed).
package struct FilterBar: Equatable, Sendable {
    /// The query when typing started.
    package var previous: String

    package init(previous: String) {
        self.previous = previous
    }

    /// Draws the prompt in the footer row: the text, where it searches, and the filter's keys.
    package func draw(into grid: inout ScreenGrid, in row: Rect, state: MenuState, theme: MenuTheme) {
        let end = grid.write("/" + state.filters.query, x: row.x, y: row.y, style: theme.label, maxX: row.maxX)
        grid.cursor = (min(end, row.maxX - 1), row.y)
        var rest = row.inset(left: end - row.x + 2)
        if let scope = state.filters.scope {
            let place = state.filters.searchEverywhere ? "in all modules" : "in \(state.data.table.scopes[scope].name)"
            let after = grid.write(place, in: rest, style: theme.muted)
            rest = row.inset(left: after - row.x + 3)
        }
        Footer.drawHints(
            &grid, Keymap.bindings(for: .filtering), context: HintContext(state), in: rest, theme: theme)
    }
}
