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

    /// Applies a key press.
    package mutating func update(_ action: MenuAction) -> Outcome {
        switch action {
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
        let widest = choices.map { ScreenGrid.displayWidth(of: $0.title) }.max() ?? 0
        let box = overlayBox(
            &grid, on: screen, width: max(40, widest + 14), height: choices.count + 4,
            title: "Choose \(descriptor.title)", theme: theme)
        let inner = box.inset(by: 1)
        let rows = box.height - 4
        let first = max(0, min(selected - rows / 2, choices.count - rows))
        for line in 0..<max(0, rows) {
            let index = first + line
            guard index < choices.count else { break }
            let choice = choices[index]
            var text = " " + (index == current ? "● " : "○ ") + choice.title
            if index == current { text += "  (current)" }
            let style = index == selected ? theme.selected : theme.text
            grid.fill(inner.row(line), style: style)
            grid.write(text, in: inner.row(line), style: style)
        }
        grid.write(descriptor.name, in: inner.row(inner.height - 1).inset(left: 1, right: 1), style: theme.muted)
    }
}
