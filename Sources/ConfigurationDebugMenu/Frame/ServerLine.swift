import ServiceConfiguration
import ServiceConfigurationFileStore

/// The line under the title bar when server values have a source: where they come from, their status and age, how
/// many keys the last sync changed, and whether this menu syncs them or whose snapshot it reads (and whether that
/// program still runs: grey when it ended, as nobody syncs the values any more).
package enum ServerLine {
    /// The text of the line's left part, for `display` at `clock` (also used to decide whether a tick redraws).
    package static func text(_ display: ServerSyncDisplay, clock: Double) -> String {
        " server: \(display.status.source) · \(display.stateText(clock: clock))" + changes(display)
    }

    private static func changes(_ display: ServerSyncDisplay) -> String {
        display.changedCount > 0 ? " · \(display.changedCount) changed (↻)" : ""
    }

    /// Draws the line in `row`. When it does not fit, the note on where the status comes from goes first, then the
    /// source is cut in the middle (to no less than 24 columns), then the count of changed keys goes, then the source
    /// is cut further: the status, which says whose values these are and whether anybody still syncs them, shows
    /// whole as long as the row holds it.
    package static func draw(
        into grid: inout ScreenGrid, in row: Rect, display: ServerSyncDisplay, clock: Double, theme: MenuTheme
    ) {
        grid.fill(row, style: theme.serverLine)
        var source = VisibleText.escaped(display.status.source)
        let state = " · " + display.stateText(clock: clock)
        var changes = changes(display)
        var origin = display.originNote.map { "  \($0) " } ?? ""
        func width() -> Int {
            TextWidth.of(" server: ") + TextWidth.of(source) + TextWidth.of(state) + TextWidth.of(changes)
                + TextWidth.of(origin)
        }
        if width() > row.width { origin = "" }
        if width() > row.width {
            let room = row.width - (width() - TextWidth.of(source))
            source = TextWidth.truncateMiddle(source, to: max(24, room))
        }
        if width() > row.width { changes = "" }
        if width() > row.width {
            let room = row.width - (width() - TextWidth.of(source))
            source = TextWidth.truncateMiddle(source, to: max(1, room))
        }
        var x = grid.write(" server: ", x: row.x, y: row.y, style: theme.serverLine, maxX: row.maxX)
        x = grid.write(source, x: x, y: row.y, style: theme.serverLine, maxX: row.maxX)
        let style =
            display.nobodySyncs ? theme.serverLineMuted : display.isProblem ? theme.serverLineProblem : theme.serverLine
        x = grid.write(state, x: x, y: row.y, style: style, maxX: row.maxX)
        grid.write(changes, x: x, y: row.y, style: theme.serverLine, maxX: row.maxX)
        if !origin.isEmpty {
            grid.write(
                origin, x: row.maxX - TextWidth.of(origin), y: row.y, style: theme.serverLineMuted, maxX: row.maxX)
        }
    }
}
