extension MenuTheme {
    /// The server line: quiet, so the title bar above stays the heading.
    package var serverLine: CellStyle { colors ? CellStyle(foreground: .cyan) : .plain }
    /// The server line's status when the values are stale or missing.
    package var serverLineProblem: CellStyle {
        colors ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true, underline: true)
    }
    /// The server line's note on where the status comes from.
    package var serverLineMuted: CellStyle { colors ? CellStyle(dim: true) : CellStyle(dim: true) }
}
