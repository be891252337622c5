/// The help screen for one mode, generated from the key map (so it can never disagree with what the keys do),
/// drawn over the mode it was opened from.
package struct HelpScreen: Equatable, Sendable {
    /// Whose bindings are listed.
    package var context: KeymapContext
    /// The mode to go back to.
    package var returnTo: MenuState.Mode

    package init(context: KeymapContext, returnTo: MenuState.Mode) {
        self.context = context
        self.returnTo = returnTo
    }

    /// The lines: each binding's keys and what it does, then what the screen's words and marks mean.
    var lines: [(keys: String, text: String)] {
        var lines = Keymap.bindings(for: context).map { ($0.keyLabel, $0.help) }
        if context == .keys || context == .modules {
            lines.append(("", ""))
            lines.append(("Sources", "OVERRIDDEN (set here) > SERVER (last sync) > DEFAULT"))
            lines.append(("Flags", "! rejected value · ~ stale override · ? orphaned override"))
            lines.append(("Mouse", "click selects, the wheel scrolls (config-menu --no-mouse turns it off)"))
        }
        return lines
    }

    /// Draws the help centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, theme: MenuTheme) {
        let lines = self.lines
        let keyWidth = min(22, (lines.map { TextWidth.of($0.keys) }.max() ?? 0) + 2)
        let box = overlayBox(
            &grid, on: screen, width: min(screen.width - 4, 100), height: lines.count + 4,
            title: "Help · \(context.title) · Esc closes", theme: theme)
        let content = box.inset(by: 1).inset(top: 1, left: 2, right: 1)
        for (offset, line) in lines.prefix(box.height - 3).enumerated() {
            let row = content.row(offset)
            grid.write(line.keys, x: row.x, y: row.y, style: theme.key, maxX: row.x + keyWidth)
            grid.write(line.text, x: row.x + keyWidth, y: row.y, style: theme.text, maxX: row.maxX)
        }
    }
}
