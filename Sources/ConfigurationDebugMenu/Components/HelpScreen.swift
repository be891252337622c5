/// The help screen for one mode, generated from the key map (so it can never disagree with what the keys do),
/// drawn over the mode it was opened from, and scrollable when it does not fit.
package struct HelpScreen: Equatable, Sendable {
    /// Whose bindings are listed.
    package var context: KeymapContext
    /// The mode to go back to.
    package var returnTo: MenuState.Mode
    /// The first line shown.
    package var scroll = 0

    package init(context: KeymapContext, returnTo: MenuState.Mode) {
        self.context = context
        self.returnTo = returnTo
    }

    /// The lines: each binding's keys and what it does, then what the screen's words and marks mean.
    var lines: [(keys: String, text: String)] {
        var lines = Keymap.bindings(for: context).map { ($0.keyLabel, $0.help) }
        if context == .keys || context == .modules {
            lines += [
                ("", ""),
                ("Sources", "OVERRIDDEN (set here) > SERVER (last sync) > DEFAULT"),
                ("Marks", "! the server sent a value the key rejects"),
                ("", "✗ the override is not applied: the key rejects it"),
                ("", "⊘ expired (its time, a server change, a version): not applied; P removes it"),
                ("", "~ stale: the server value changed since the override was set"),
                ("", "= equals the server value: it will stop following the server (x: until it changes)"),
                ("", "? orphaned: an override for a key this program does not have"),
                ("", "↻ the last server sync changed its server value (details: the value before)"),
                ("", "* changed by another process a moment ago"),
                ("Modules", "the left pane; each module (a scope in code) groups its keys"),
                ("Server", "the line under the title: where server values come from, fresh / cached / stale, age"),
                ("Mouse", "click selects, the wheel scrolls (config-menu --no-mouse turns it off)"),
            ]
        }
        return lines
    }

    /// The lines as shown on `screen`: texts too long for the box continue on the next rows.
    func rows(on screen: Rect) -> [(keys: String, text: String)] {
        let lines = self.lines
        let keyWidth = min(22, (lines.map { TextWidth.of($0.keys) }.max() ?? 0) + 2)
        let textWidth = min(screen.width - 4, 100) - 5 - keyWidth
        return lines.flatMap { line -> [(keys: String, text: String)] in
            let wrapped = StyledText([(line.text, .plain)]).wrapped(to: max(10, textWidth), indent: 2)
            return wrapped.enumerated().map { index, runs in
                (index == 0 ? line.keys : "", runs.map(\.text).joined())
            }
        }
    }

    /// The help's box on `screen`.
    func box(on screen: Rect) -> Rect {
        screen.centered(
            width: min(screen.width - 4, 100), height: min(rows(on: screen).count + 4, screen.height - 2), minimumY: 1)
    }

    /// How many lines show at once on `screen`.
    func visibleLines(on screen: Rect) -> Int { max(1, box(on: screen).height - 3) }

    /// Scrolls for a key press; returns `false` for any other action.
    package mutating func update(_ action: MenuAction, screen: Rect) -> Bool {
        let visible = visibleLines(on: screen)
        let last = max(0, rows(on: screen).count - visible)
        switch action {
        case .move(let delta): scroll += delta
        case .page(let direction): scroll += direction * max(1, visible - 1)
        case .top: scroll = 0
        case .bottom: scroll = last
        default: return false
        }
        scroll = max(0, min(scroll, last))
        return true
    }

    /// Draws the help centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, theme: MenuTheme) {
        let lines = rows(on: screen)
        let keyWidth = min(22, (self.lines.map { TextWidth.of($0.keys) }.max() ?? 0) + 2)
        let box = overlayBox(
            &grid, on: screen, width: min(screen.width - 4, 100), height: lines.count + 4,
            title: "Help · \(context.title) · Esc closes", theme: theme)
        let content = box.inset(by: 1).inset(top: 1, left: 2, right: 1)
        let visible = visibleLines(on: screen)
        for (offset, line) in lines.dropFirst(scroll).prefix(visible).enumerated() {
            let row = content.row(offset)
            grid.write(line.keys, x: row.x, y: row.y, style: theme.key, maxX: row.x + keyWidth)
            grid.write(line.text, x: row.x + keyWidth, y: row.y, style: theme.text, maxX: row.maxX)
        }
        if lines.count > visible {
            let more = scroll + visible < lines.count ? " ↓ j/PgDn: more " : " ↑ k/PgUp: back "
            let position = " \(scroll + 1)–\(min(lines.count, scroll + visible)) of \(lines.count) "
            grid.write(more, x: box.x + 2, y: box.maxY - 1, style: theme.overlayBorder)
            grid.write(position, x: box.maxX - TextWidth.of(position) - 2, y: box.maxY - 1, style: theme.overlayBorder)
        }
    }
}
