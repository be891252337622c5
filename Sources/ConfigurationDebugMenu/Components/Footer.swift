/// The bottom line: the status message after an action, otherwise the current mode's most useful keys (from the
/// key map's hints).
package enum Footer {
    /// Draws the status message, or the hints of `context`.
    package static func draw(
        into grid: inout ScreenGrid, in row: Rect, status: StatusMessage?, context: KeymapContext, theme: MenuTheme
    ) {
        if let status {
            grid.write(
                " " + status.text, x: row.x, y: row.y, style: status.isError ? theme.problem : theme.label,
                maxX: row.maxX)
            return
        }
        drawHints(&grid, Keymap.bindings(for: context), in: row.inset(left: 1), theme: theme)
    }

    /// Writes "key hint" pairs while they fit.
    static func drawHints(_ grid: inout ScreenGrid, _ bindings: [KeyBinding], in row: Rect, theme: MenuTheme) {
        var column = row.x
        for binding in bindings {
            guard let hint = binding.hint, let key = binding.keys.first?.label else { continue }
            let needed = TextWidth.of(key) + 1 + TextWidth.of(hint) + 2
            guard column + needed <= row.maxX else { break }
            column = grid.write(key, x: column, y: row.y, style: theme.key)
            column = grid.write(" " + hint + "  ", x: column, y: row.y, style: theme.muted)
        }
    }
}
