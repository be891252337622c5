package import ServiceConfiguration

/// The choices of when the selected override expires (`x`): never, for a while, until the server value changes,
/// or until a program version (typed next).
package struct ExpiryMenu: Equatable, Sendable {
    /// What a key press did to the menu.
    package enum Outcome: Equatable, Sendable {
        /// The highlight moved, or nothing happened.
        case none
        /// A rule was chosen; `nil` asks for a program version.
        case choose(ExpiryChoice?)
        /// The menu was closed without choosing.
        case cancel
    }

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

    /// Applies a key press.
    package mutating func update(_ action: MenuAction) -> Outcome {
        switch action {
        case .move(let delta): selected = max(0, min(choices.count - 1, selected + delta))
        case .top: selected = 0
        case .bottom: selected = choices.count - 1
        case .pickerChoose: return .choose(choices[selected])
        case .pickerCancel: return .cancel
        default: break
        }
        return .none
    }

    /// Draws the menu centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, data: MenuData, theme: MenuTheme) {
        let name = data.table.keys[key].descriptor.name
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
