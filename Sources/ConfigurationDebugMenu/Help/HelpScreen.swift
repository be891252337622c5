/// The help screen for one mode, generated from the key map (so it can never disagree with what the keys do),
/// drawn over the mode it was opened from, and scrollable when it does not fit.
package struct HelpScreen: MenuComponent {
    /// The key map listed: the keys that applied where help was opened.
    package var context: Keymap
    /// The mode to go back to.
    package var returnTo: MenuState.Mode
    /// The first line shown.
    package var scroll = 0

    package init(context: Keymap, returnTo: MenuState.Mode) {
        self.context = context
        self.returnTo = returnTo
    }

    /// The lines: each binding's keys and what it does, then the key map's notes (what the screen's words and marks
    /// mean).
    var lines: [(keys: String, text: String)] {
        context.bindings.map { ($0.keyLabel, $0.help) } + context.notes
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

    package var mode: MenuState.Mode { .help(self) }

    package var placement: MenuPlacement { .overlay(returnTo) }

    package func keymap(in menu: MenuState) -> Keymap { .help }

    /// Scrolls, or closes the help.
    package mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome {
        let screen = menu.layout.screen
        let visible = visibleLines(on: screen)
        let last = max(0, rows(on: screen).count - visible)
        switch intent {
        case .closeHelp: return .go(returnTo)
        case .move(let delta): scroll += delta
        case .page(let direction): scroll += direction * max(1, visible - 1)
        case .top: scroll = 0
        case .bottom: scroll = last
        default: return .ignored
        }
        scroll = max(0, min(scroll, last))
        return .stay
    }

    /// Draws the help centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
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
        drawScrollMarks(
            &grid, on: box, first: scroll, visible: visible, count: lines.count, style: theme.overlayBorder)
    }
}

extension Keymap {
    /// The help screen's keys: scrolling, and closing it.
    package static let help = Keymap(
        "help", title: "Help",
        [
            bind([.character("j"), .down], .move(1), "scroll down"),
            bind([.character("k"), .up], .move(-1), "scroll up"),
            bind([.pageDown, .character(" ")], .page(1), "next page", hint: "more", priority: 20),
            bind([.pageUp], .page(-1), "previous page"),
            bind([.character("g"), .home], .top, "top"),
            bind([.character("G"), .end], .bottom, "bottom"),
            bind(
                [.escape, .character("q"), .character("?"), .function(1), .enter], .closeHelp, "close help",
                hint: "close", priority: 10),
            quit,
        ], wheel: .moves)
}
