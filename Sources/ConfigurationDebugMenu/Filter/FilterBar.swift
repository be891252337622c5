/// The filter prompt in the footer while a filter is typed: `/query`, the caret, and the filter's keys. The query
/// itself lives in the menu's ``KeyFilters`` (the list narrows as it is typed).
package struct FilterBar: OpenableComponent {
    /// The query when typing started.
    package var previous: String

    package init(previous: String) {
        self.previous = previous
    }

    /// `/`: the filter bar, the list focused, searching the selected module again.
    package static func open(_ menu: inout MenuState) -> MenuOutcome {
        menu.focus = .keys
        menu.filters.searchEverywhere = false
        return .go(.filtering(FilterBar(previous: menu.filters.query)))
    }

    package var mode: MenuState.Mode { .filtering(self) }

    package var placement: MenuPlacement { .footer }

    package func keymap(in menu: MenuState) -> Keymap { .filtering }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .filterInsert(let text):
            state.filters.query += text
            state.requery()
        case .filterBackspace:
            if !state.filters.query.isEmpty { state.filters.query.removeLast() }
            state.requery()
        case .filterErase:
            state.filters.query = ""
            state.requery()
        case .toggleSearchEverywhere:
            guard state.filters.scope != nil else {
                // Tab switches between one module and all; with none selected, say so rather than do nothing.
                state.inform("Tab searches the selected module or all; none is selected, so all are. \\t finds a tab")
                break
            }
            state.filters.searchEverywhere.toggle()
            state.requery()
        case .filterAccept:
            return .go(.browsing)
        case .filterCancel:
            state.filters.query = ""
            state.requery(selectFirst: false)
            return .go(.browsing)
        case .move(let delta):
            state.list.move(by: delta, visibleRows: state.visibleKeyRows)
        default:
            return .ignored
        }
        return .stay
    }

    /// Draws the prompt in the footer row: the text, where it searches, and the filter's keys.
    package func draw(into grid: inout ScreenGrid, in row: Rect, menu state: MenuState, theme: MenuTheme) {
        let end = grid.write("/" + state.filters.query, x: row.x, y: row.y, style: theme.label, maxX: row.maxX)
        grid.cursor = (min(end, row.maxX - 1), row.y)
        var rest = row.inset(left: end - row.x + 2)
        if let scope = state.filters.scope {
            let place = state.filters.searchEverywhere ? "in all modules" : "in \(state.data.table.scopes[scope].name)"
            let after = grid.write(place, in: rest, style: theme.muted)
            rest = row.inset(left: after - row.x + 3)
        }
        // A message about the last key (Tab with no module selected) takes the hints' place until the next key.
        if let status = state.status {
            grid.write(status.text, in: rest, style: status.isError ? theme.problem : theme.muted)
            return
        }
        Footer.drawHints(&grid, Keymap.filtering.bindings, context: HintContext(state), in: rest, theme: theme)
    }
}

extension MenuIntent {
    /// Start typing a filter.
    package static let startFilter = MenuIntent.open(ComponentType(FilterBar.self))
}

extension Keymap {
    /// The keys while a filter is typed: characters go into the filter.
    package static let filtering = Keymap(
        "filtering", title: "Typing a filter",
        [
            bind([.enter], .filterAccept, "keep the search and go back to the list", hint: "keep", priority: 10),
            bind(
                [.escape], .filterCancel, "clear the search text (other filters stay)", hint: "clear text",
                priority: 20),
            bind([.tab], .toggleSearchEverywhere, "search every module, or only the selected one again", priority: 15) {
                context in context.moduleSelected ? (context.searchEverywhere ? "this module" : "all modules") : nil
            },
            bind([.backspace], .filterBackspace, "delete a character"),
            bind([.control("u")], .filterErase, "delete the whole search text"),
            bind([.down, .control("n")], .move(1), "next match"),
            bind([.up, .control("p")], .move(-1), "previous match"),
            helpWhileTyping,
            quit,
        ], typing: .filter)
}
