import ServiceConfiguration

/// The top line: the catalog, its numbers of keys and overrides, and where overrides are stored (or the store's
/// problem, or why live reload is degraded, in red).
package enum TitleBar {
    /// Draws the title bar in `row`; a problem cut short ends in `…(L)` when `keymap` binds the message log's key.
    package static func draw(
        into grid: inout ScreenGrid, in row: Rect, data: MenuData, keymap: Keymap = .keys, theme: MenuTheme
    ) {
        grid.fill(row, style: theme.titleBar)
        // An expired override does not apply: it is counted apart, not as overridden.
        let expired = data.expiredCount
        let left =
            " ServiceConfiguration · \(data.label) · \(data.table.keys.count) keys · \(data.overrideCount - expired) overridden"
            + (expired > 0 ? " · \(expired) expired" : "")
        let end = grid.write(left, in: row.inset(right: 1), style: theme.titleBar)
        let right: String
        let style: CellStyle
        if let problem = data.storeProblem {
            right = "store error: \(problem) "
            style = theme.titleBarError
        } else if let degraded = data.liveReloadProblem {
            // Changes made elsewhere may arrive late or not at all: say so where the store is named.
            right = "live reload degraded: \(degraded) "
            style = theme.titleBarError
        } else if let path = data.storeLocation {
            right = "store: \(path) "
            style = theme.titleBar
        } else {
            right = "overrides in memory "
            style = theme.titleBar
        }
        let room = row.maxX - end - 2
        guard room > 16 else { return }
        let visible = VisibleText.escaped(right)
        // A path keeps its end (the file name); a message keeps its beginning (what is wrong).
        let shown: String
        if TextWidth.of(visible) <= room {
            shown = visible
        } else if visible.hasPrefix("store: ") {
            shown = "store: …" + TextWidth.suffix(visible, to: room - TextWidth.of("store: …"))
        } else if let key = keymap.keyLabel(for: .showMessages) {
            shown = String(TextWidth.truncate(visible, to: room - 4).dropLast()) + "…(\(key)) "
        } else {
            shown = TextWidth.truncate(visible, to: room - 1) + " "
        }
        grid.write(shown, x: row.maxX - TextWidth.of(shown), y: row.y, style: style, maxX: row.maxX)
    }
}

/// The screen shown when the terminal is smaller than the menu needs, at every size down to 1×1.
package enum TooSmallScreen {
    /// The message's lines for `screen`, as many as fit its height: shorter words on a narrow screen, and on a
    /// very narrow one as much of "Too small" as fits.
    package static func lines(for screen: Rect) -> [String] {
        let needs = "\(MenuLayout.minimumWidth)×\(MenuLayout.minimumHeight)"
        let lines =
            screen.width >= 40
            ? [
                "Terminal too small: \(screen.width)×\(screen.height).", "The menu needs at least \(needs).",
                "Enlarge the window, or press q to quit.",
            ]
            : ["Too small: \(screen.width)×\(screen.height)", "Needs \(needs).", "q quits."]
        return lines.prefix(screen.height).map { line in
            // Below 4 columns an ellipsis would leave no word at all.
            screen.width < 4 ? String(line.prefix(screen.width)) : TextWidth.truncate(line, to: screen.width)
        }
    }

    /// Draws the message centred in `screen`.
    package static func draw(into grid: inout ScreenGrid, in screen: Rect, theme: MenuTheme) {
        let lines = lines(for: screen)
        let top = screen.y + max(0, min(screen.height / 2 - 1, screen.height - lines.count))
        for (offset, text) in lines.enumerated() {
            grid.write(
                text, x: screen.x + max(0, (screen.width - TextWidth.of(text)) / 2), y: top + offset,
                style: offset == 0 ? theme.problem : theme.text)
        }
    }
}
