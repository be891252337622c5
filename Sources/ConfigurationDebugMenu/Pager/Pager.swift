/// A page of text over the screen's body, scrolled with the usual keys, for what does not fit where it is shown:
/// the selected key's whole details (`d`), and the message log (`L`). Nothing in it changes a value.
package struct Pager: MenuComponent {
    /// What the pager shows.
    package enum Content: Equatable, Sendable {
        /// The whole details of a key (by index), an orphaned override or an unregistered key (by name).
        case details(DetailsSubject)
        /// Every status, warning and error the menu showed, whole, newest first, with the time.
        case messages
    }

    /// What a page of details is about.
    package enum DetailsSubject: Equatable, Sendable {
        case key(Int)
        case orphan(String)
        case unregistered(String)
    }

    /// What it shows.
    package var content: Content
    /// The first line shown.
    package var scroll = 0
    /// The mode to go back to.
    package var returnTo: MenuState.Mode

    package init(_ content: Content, returnTo: MenuState.Mode) {
        self.content = content
        self.returnTo = returnTo
    }

    /// The box on `body`, and the text's rows inside it.
    static func textRows(in body: Rect) -> Rect { body.inset(by: 1).inset(left: 1, right: 1) }

    /// The lines of `state`'s details or messages, wrapped to `width` columns.
    func lines(_ state: MenuState, width: Int, theme: MenuTheme) -> [DetailsPane.Line] {
        switch content {
        case .details(let subject):
            return DetailsPane.lines(
                of: subject, data: state.data, pending: state.pendingMarks, now: state.wallClock, theme: theme
            )
            .flatMap { line in StyledText(line).wrapped(to: width, indent: 10) }
        case .messages:
            guard !state.messages.isEmpty else { return [[("No message has been shown yet.", theme.muted)]] }
            return state.messages.reversed().flatMap { message -> [DetailsPane.Line] in
                var line: DetailsPane.Line = [(state.timeOfDay(message.clock) + "  ", theme.muted)]
                switch message.kind {
                case .info: line.append((message.text, theme.text))
                case .warning: line += [("warning: ", theme.problem), (message.text, theme.text)]
                case .error: line += [("error: ", theme.problem), (message.text, theme.text)]
                }
                if message.repeats > 1 { line.append(("  (×\(message.repeats))", theme.muted)) }
                return StyledText(line).wrapped(to: width, indent: 10)
            }
        }
    }

    /// The title on the box's border.
    func title(_ state: MenuState) -> String {
        let data = state.data
        switch content {
        case .details(.key(let key)): return "Details · \(data.table.keys[key].descriptor.name)"
        case .details(.orphan(let name)): return "Details · \(name) (orphaned)"
        case .details(.unregistered(let name)): return "Details · \(name) (unregistered)"
        case .messages:
            let count = state.messages.count
            return "Messages · \(count == 1 ? "1 message" : "\(count) messages"), newest first, UTC"
        }
    }

    /// `d`: the selected key's whole details in a pager, going back to `returnTo`.
    static func openDetails(_ state: inout MenuState, returnTo: MenuState.Mode) -> MenuOutcome {
        guard
            let subject = DetailsPane.subject(
                data: state.data, key: state.selectedKey, orphan: state.selectedOrphan,
                unregistered: state.list.selectedUnregistered)
        else {
            state.inform("No key selected")
            return .stay
        }
        return .go(.paging(Pager(.details(subject), returnTo: returnTo)))
    }

    package var mode: MenuState.Mode { .paging(self) }

    package var placement: MenuPlacement { .body }

    package func keymap(in menu: MenuState) -> Keymap { .pager }

    /// Scrolls; `d` and `L` switch between the details and the message log (the same key again goes back).
    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .closeView:
            return .go(returnTo)
        case .showMessages where content == .messages, .showDetails where content != .messages:
            return .go(returnTo)
        case .showMessages:
            return .go(.paging(Pager(.messages, returnTo: returnTo)))
        case .showDetails:
            return Self.openDetails(&state, returnTo: returnTo)
        default:
            return move(intent, menu: state) ? .stay : .ignored
        }
    }

    /// Scrolls for a key press, over `state`'s body; returns `false` for any other intent.
    private mutating func move(_ intent: MenuIntent, menu state: MenuState) -> Bool {
        let rows = Self.textRows(in: state.layout.body)
        let count = lines(state, width: rows.width, theme: MenuTheme(colors: false)).count
        let last = max(0, count - rows.height)
        switch intent {
        case .move(let delta): scroll += delta
        case .page(let direction): scroll += direction * max(1, rows.height - 1)
        case .top: scroll = 0
        case .bottom: scroll = last
        default: return false
        }
        scroll = max(0, min(scroll, last))
        return true
    }

    /// Draws the page of `state` in `body`.
    package func draw(into grid: inout ScreenGrid, in body: Rect, menu state: MenuState, theme: MenuTheme) {
        grid.fill(body)
        grid.box(body, title: title(state) + " · Esc closes", style: theme.focusedBorder)
        let rows = Self.textRows(in: body)
        let lines = lines(state, width: rows.width, theme: theme)
        let first = min(scroll, max(0, lines.count - rows.height))
        for (offset, line) in lines.dropFirst(first).prefix(rows.height).enumerated() {
            grid.write(segments: line, in: rows.row(offset), ellipsisStyle: theme.muted)
        }
        drawScrollMarks(
            &grid, on: body, first: first, visible: rows.height, count: lines.count, style: theme.focusedBorder)
    }
}

extension Keymap {
    /// The pager's keys.
    package static let pager = Keymap(
        "pager", title: "Reading the details or the messages",
        [
            bind([.character("j"), .down], .move(1), "scroll down"),
            bind([.character("k"), .up], .move(-1), "scroll up"),
            bind([.pageDown, .character(" "), .control("f")], .page(1), "next page", hint: "more", priority: 20),
            bind([.pageUp, .control("b")], .page(-1), "previous page"),
            bind([.character("g"), .home], .top, "top"),
            bind([.character("G"), .end], .bottom, "bottom"),
            bind([.escape, .character("q")], .closeView, "close", hint: "close", priority: 10),
            bind([.character("d")], .showDetails, "the selected key's details (d again: back)"),
            bind([.character("L")], .showMessages, "the message log (L again: back)"),
            showHelp,
            quit,
        ], wheel: .moves)
}
