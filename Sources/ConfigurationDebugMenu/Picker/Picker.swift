package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The picker for keys with a fixed set of values (enums, A/B variants, explicit lists): the choices, the
/// highlighted one and the current one.
package struct Picker: MenuComponent {
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

    /// The picker's box on `screen`: wide enough for every row whole (" ● title  · value  (current)" inside the
    /// borders), the title bar and the key's name, as far as the screen allows.
    func box(on screen: Rect, descriptor: ConfigurationKeyDescriptor) -> Rect {
        let widest =
            choices.map {
                ScreenGrid.displayWidth(of: $0.title)
                    + ($0.title == $0.value ? 0 : 4 + ScreenGrid.displayWidth(of: $0.value))
            }.max() ?? 0
        let rows = widest + 3 + "  (current)".count + 2
        let title = ScreenGrid.displayWidth(of: "Choose \(descriptor.title)") + 6
        let name = ScreenGrid.displayWidth(of: descriptor.name) + 4
        return screen.centered(
            width: min(max(40, rows, title, name), screen.width - 2),
            height: min(choices.count + 4, screen.height - 2), minimumY: 1)
    }

    /// The first choice shown when `rows` fit.
    private func first(rows: Int) -> Int { max(0, min(selected - rows / 2, choices.count - rows)) }

    package var mode: MenuState.Mode { .picking(self) }

    package var placement: MenuPlacement { .dialog }

    package func keymap(in menu: MenuState) -> Keymap { .picking }

    /// A key press or a click (a click on a choice chooses it; a click outside closes the picker). Choosing the value
    /// the key already holds as its override changes nothing.
    package mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome {
        switch intent {
        case .click(let x, let y):
            let box = box(on: menu.layout.screen, descriptor: menu.data.table.keys[key].descriptor)
            guard box.contains(x, y) else { return .go(.browsing) }
            let rows = box.height - 4
            let index = first(rows: rows) + (y - box.y - 1)
            guard y > box.y, y - box.y - 1 < rows, choices.indices.contains(index) else { return .stay }
            selected = index
            return choose(choices[index], menu: &menu)
        case .move, .top, .bottom:
            selected = ChoiceList.moved(selected, by: intent, count: choices.count) ?? selected
        case .pickerChoose:
            return choices.indices.contains(selected) ? choose(choices[selected], menu: &menu) : .go(.browsing)
        case .pickerCancel: return .go(.browsing)
        default: return .ignored
        }
        return .stay
    }

    private func choose(_ choice: ConfigurationDebugControl.Choice, menu: inout MenuState) -> MenuOutcome {
        if selected == current, menu.overrideValue(key) != nil {
            menu.inform("Unchanged: \(choice.title)")
            return .go(.browsing)
        }
        return .go(.browsing, menu.set(key: key, value: choice.value))
    }

    /// Draws the picker centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let descriptor = menu.data.table.keys[key].descriptor
        let box = box(on: screen, descriptor: descriptor)
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

extension Keymap {
    /// The picker's keys; a click on a choice chooses it.
    package static let picking = Keymap(
        "picking", title: "Choosing a value",
        [
            bind([.character("j"), .down], .move(1), "next choice"),
            bind([.character("k"), .up], .move(-1), "previous choice"),
            bind([.character("g"), .home], .top, "first choice"),
            bind([.character("G"), .end], .bottom, "last choice"),
            bind(
                [.enter, .character(" ")], .pickerChoose, "choose (a click on a choice chooses it too)",
                hint: "choose", priority: 10),
            bind([.escape, .character("q")], .pickerCancel, "close without choosing", hint: "cancel", priority: 20),
            showHelp,
            quit,
        ], clicks: true, wheel: .moves)
}
