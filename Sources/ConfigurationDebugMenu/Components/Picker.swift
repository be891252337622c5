package import ServiceConfiguration

/// The picker for keys with a fixed set of values (enums, A/B variants, explicit lists): the choices, the
/// highlighted one and the current one.
package struct Picker: Equatable, Sendable {
    /// What a key press did to the picker.
    package enum Outcome: Equatable, Sendable {
        /// The highlight moved, or nothing happened.
        case none
        /// The person chose the highlighted choice.
        case choose(ConfigurationDebugControl.Choice)
        /// The person closed the picker without choosing.
        case cancel
    }

    /// The key being set, by index in the ``KeyTable``.
    package var key: Int
    /// The choices.
    package var choices: [ConfigurationDebugControl.Choice]
    /// The highlighted choice.
    package var selected: Int
    /// The choice equal to the current value, if any.
    package var current: Int?

    package init(key: Int, choices: [ConfigurationDebugControl.Choice], current: Int?) {
        self.key = key
        self.choices = choices
        self.current = current
        selected = current ?? 0
    }

    /// The picker's box on `screen`.
    func box(on screen: Rect) -> Rect {
        let widest =
            choices.map {
                ScreenGrid.displayWidth(of: $0.title)
                    + ($0.title == $0.value ? 0 : 3 + ScreenGrid.displayWidth(of: $0.value))
            }.max() ?? 0
        return screen.centered(
            width: min(max(40, widest + 14), screen.width - 2), height: min(choices.count + 4, screen.height - 2),
            minimumY: 1)
    }

    /// The first choice shown when `rows` fit.
    private func first(rows: Int) -> Int { max(0, min(selected - rows / 2, choices.count - rows)) }

    /// Applies a key press or a click (a click on a choice chooses it; a click outside closes the picker).
    package mutating func update(_ action: MenuAction, screen: Rect) -> Outcome {
        switch action {
        case .click(let x, let y):
            let box = box(on: screen)
            guard box.contains(x, y) else { return .cancel }
            let rows = box.height - 4
            let index = first(rows: rows) + (y - box.y - 1)
            guard y > box.y, y - box.y - 1 < rows, choices.indices.contains(index) else { return .none }
            selected = index
            return .choose(choices[index])
        case .move(let delta): selected = max(0, min(choices.count - 1, selected + delta))
        case .top: selected = 0
        case .bottom: selected = max(0, choices.count - 1)
        case .pickerChoose: return choices.indices.contains(selected) ? .choose(choices[selected]) : .cancel
        case .pickerCancel: return .cancel
        default: break
        }
        return .none
    }

    /// Draws the picker centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, data: MenuData, theme: MenuTheme) {
        let descriptor = data.table.keys[key].descriptor
        let box = box(on: screen)
        grid.fill(box)
        grid.box(box, title: "Choose \(descriptor.title)", style: theme.overlayBorder)
        let inner = box.inset(by: 1)
        let rows = box.height - 4
        let first = first(rows: rows)
        for line in 0..<max(0, rows) {
            let index = first + line
            guard index < choices.count else { break }
            let choice = choices[index]
            var text = " " + (index == current ? "● " : "○ ") + choice.title
            if choice.title != choice.value { text += "  · \(choice.value)" }
            if index == current { text += "  (current)" }
            let style = index == selected ? theme.selected : theme.text
            grid.fill(inner.row(line), style: style)
            grid.write(text, in: inner.row(line), style: style)
        }
        grid.write(descriptor.name, in: inner.row(inner.height - 1).inset(left: 1, right: 1), style: theme.muted)
    }
}
