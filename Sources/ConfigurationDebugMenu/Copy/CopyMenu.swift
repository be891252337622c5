import ServiceConfiguration

/// What to copy of the selected key (`y`): its name, its value, or a `config-menu set` command line that sets it
/// again. The text goes to the terminal's clipboard with OSC 52, which works over ssh and, in tmux, with
/// `set-clipboard on`; a terminal without it ignores the request, so the status says it was sent, not that it
/// arrived.
package struct CopyMenu: OpenableComponent {
    /// One thing to copy: what it is (for the status) and the text.
    package struct Choice: Equatable, Sendable {
        package var what: String
        package var text: String
    }

    /// The choices.
    package var choices: [Choice]
    /// The highlighted choice.
    package var selected = 0

    /// `y`: the selected key's name, value and command line.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        guard let key = state.selectedKey else {
            if let orphan = state.selectedOrphan {
                let name = state.data.orphans[orphan].name
                return .go(.copying(CopyMenu(choices: [Choice(what: "the name \(name)", text: name)])))
            }
            state.nothingSelected()
            return .stay
        }
        let name = state.data.table.keys[key].descriptor.name
        let value = state.currentText(key)
        var command = ["config-menu", "set", name, value]
        if let store = state.data.storeLocation { command += ["--store", store] }
        return .go(
            .copying(
                CopyMenu(choices: [
                    Choice(what: "the name \(name)", text: name),
                    Choice(what: "the value of \(name)", text: value),
                    Choice(
                        what: "the command that sets \(name)",
                        text: command.map(ShellWord.quoted).joined(separator: " ")),
                ])))
    }

    package var mode: MenuState.Mode { .copying(self) }

    package var placement: MenuPlacement { .dialog }

    package func keymap(in menu: MenuState) -> Keymap { .copy }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .move, .top, .bottom:
            selected = ChoiceList.moved(selected, by: intent, count: choices.count) ?? selected
        case .pickerCancel: return .go(.browsing)
        case .pickerChoose:
            let choice = choices[selected]
            state.inform(
                "Sent \(choice.what) to the terminal's clipboard (OSC 52; tmux needs set-clipboard on)")
            return .go(.browsing, [.copyToClipboard(choice.text)])
        default: return .ignored
        }
        return .stay
    }

    /// Draws the choices centred on `screen`, each with the text it copies.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let labels = ["Name", "Value", "Command"]
        let widest = choices.map { TextWidth.of(VisibleText.escaped($0.text)) }.max() ?? 20
        let box = overlayBox(
            &grid, on: screen, width: min(screen.width - 2, max(40, widest + 14)), height: choices.count + 2,
            title: "Copy to the clipboard", theme: theme)
        let inner = box.inset(by: 1)
        for (index, choice) in choices.enumerated() {
            let row = inner.row(index)
            guard row.height > 0 else { break }
            let style = index == selected ? theme.selected : theme.text
            grid.fill(row, style: style)
            let label = index < labels.count ? labels[index] : ""
            grid.write(
                " " + label.padding(toLength: 9, withPad: " ", startingAt: 0) + VisibleText.escaped(choice.text),
                in: row, style: style)
        }
    }
}

/// A word as a POSIX shell reads it back: as it is when it holds only characters no shell treats specially, else in
/// single quotes (each `'` written `'\''`). Pasting a command line built of such words runs nothing they hold.
package enum ShellWord {
    /// `word`, quoted when it needs to be.
    package static func quoted(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-".unicodeScalars)
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension MenuIntent {
    /// Copy the selected key's name, value or command line.
    package static let openCopyMenu = MenuIntent.open(ComponentType(CopyMenu.self))
}

extension Keymap {
    /// The copy menu's keys.
    package static let copy = Keymap(
        "copy", title: "Copying to the clipboard",
        choiceMoves("choice") + [
            bind([.enter, .character(" "), .character("y")], .pickerChoose, "copy it", hint: "copy", priority: 10),
            bind([.escape, .character("q")], .pickerCancel, "close without copying", hint: "cancel", priority: 20),
            showHelp,
            quit,
        ], wheel: .moves)
}
