/// The filter prompt in the footer while a filter is typed: `/query`, the caret, and the filter's keys. The query
/// itself lives in the menu's ``KeyFilters`` (the list narrows as it is typed).
package struct FilterBar: Equatable, Sendable {
    /// The query when typing started.
    package var previous: String

    package init(previous: String) {
        self.previous = previous
    }

    /// Draws the prompt in the footer row.
    package func draw(into grid: inout ScreenGrid, in row: Rect, query: String, theme: MenuTheme) {
        let end = grid.write("/" + query, x: row.x, y: row.y, style: theme.label, maxX: row.maxX)
        grid.cursor = (min(end, row.maxX - 1), row.y)
        Footer.drawHints(&grid, Keymap.bindings(for: .filtering), in: row.inset(left: end - row.x + 3), theme: theme)
    }
}
