package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The choices of when the selected override expires (`x`): never, for a while, until the server value changes,
/// or until a program version (typed next).
package struct ExpiryMenu: OpenableComponent {
    /// The key whose override expires, by index in the ``KeyTable``.
    package var key: Int
    /// The override's rule now.
    package var current: OverrideExpiry
    /// The choices; `nil` is "until a program version…".
    package var choices: [ExpiryChoice?] = ExpiryChoice.presets + [nil]
    /// The highlighted choice.
    package var selected: Int
    /// Whether the override equals the server value (the menu suggests following the server).
    package var redundant: Bool

    package init(key: Int, current: OverrideExpiry, suggestServerChange: Bool = false) {
        self.key = key
        self.current = current
        redundant = suggestServerChange
        let now = ExpiryChoice(current)
        let start = suggestServerChange ? ExpiryChoice.untilServerChanges : now
        selected = choices.firstIndex { $0 != nil && $0 == start } ?? 0
    }

    /// `x`: the expiry menu for the selected key's override.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        guard let key = state.selectedKey else {
            state.inform(
                state.selectedOrphan != nil
                    ? "An orphaned override cannot be given an expiry here; r removes it" : "No key selected")
            return .stay
        }
        let status = state.data.statuses[key]
        guard let entry = status.override else {
            state.inform("\(status.name) has no override to expire; set one first (Ctrl-T in the editor sets both)")
            return .stay
        }
        return .go(
            .choosingExpiry(ExpiryMenu(key: key, current: entry.expiry, suggestServerChange: status.isRedundant)))
    }

    package var mode: MenuState.Mode { .choosingExpiry(self) }

    package var placement: MenuPlacement { .dialog }

    package func keymap(in menu: MenuState) -> Keymap { .expiry }

    /// Moves the highlight; Enter sets the chosen rule (or asks for the program version), Esc closes.
    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .move, .top, .bottom:
            selected = ChoiceList.moved(selected, by: intent, count: choices.count) ?? selected
        case .pickerCancel: return .go(.browsing)
        case .pickerChoose:
            guard let choice = choices[selected] else {
                let version = current.untilVersion?.description ?? ""
                return .go(.prompting(Prompt(purpose: .expiryVersion(key: key), text: version, returnTo: .browsing)))
            }
            return .go(.browsing, state.expire(key: key, choice))
        default: return .ignored
        }
        return .stay
    }

    /// Draws the menu centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let name = menu.data.table.keys[key].descriptor.name
        let box = overlayBox(
            &grid, on: screen, width: max(70, TextWidth.of(name) + 16), height: choices.count + (redundant ? 5 : 4),
            title: "When the override of \(name) expires", theme: theme)
        let inner = box.inset(by: 1)
        let now = current.isNever ? "never expires" : "expires \(current.description)"
        grid.write(" Now it \(now)", in: inner.row(0), style: theme.muted)
        let chosen = ExpiryChoice(current)
        for (index, choice) in choices.enumerated() {
            let row = inner.row(index + 1)
            guard row.height > 0 else { break }
            let style = index == selected ? theme.selected : theme.text
            grid.fill(row, style: style)
            let marked = choice != nil && choice == chosen
            let title = choice?.title ?? "until a program version…"
            grid.write(" " + (marked ? "● " : "○ ") + title + (marked ? "  (current)" : ""), in: row, style: style)
        }
        if redundant {
            grid.write(
                "= equals the server value: follow it, or Esc, then r removes it",
                in: inner.row(inner.height - 1).inset(left: 1, right: 1), style: theme.problem)
        }
    }
}

extension MenuIntent {
    /// Choose when the selected override expires.
    package static let chooseExpiry = MenuIntent.open(ComponentType(ExpiryMenu.self))
}

extension Keymap {
    /// The expiry menu's keys.
    package static let expiry = Keymap(
        "expiry", title: "Choosing when an override expires",
        choiceMoves("choice") + [
            bind([.enter, .character(" ")], .pickerChoose, "choose", hint: "choose", priority: 10),
            bind(
                [.escape, .character("q")], .pickerCancel, "close without changing it", hint: "cancel", priority: 20),
            showHelp,
            quit,
        ], wheel: .moves)
}
