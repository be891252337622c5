import ServiceConfiguration

/// What to do with the marked keys (`a`): turn the marked Bool keys on or off; reset the marked overrides, set when
/// they expire (the choices of `x`), put a note on them or save them as a scenario; or clear the marks. Each change is
/// asked first, naming how many keys it changes (a note and a scenario by the line typed for them), and is written as
/// one change: one entry in the history, one `u` undoes it all.
package struct BulkMenu: OpenableComponent {
    /// One thing the menu can do with the marks.
    package enum Action: Equatable, Sendable {
        /// Set every marked Bool key to its "on" (`true`) or "off" string.
        case setBools(Bool)
        /// Remove the marked keys' overrides.
        case reset
        /// Offer the expiry choices for the marked overrides (the same as `x`).
        case chooseExpiry
        /// Set when the marked overrides expire.
        case expire(ExpiryChoice)
        /// Ask for a note to put on the marked overrides.
        case note
        /// Ask for a name to save the marked overrides as a scenario.
        case saveScenario
        /// Forget the marks.
        case clearMarks
    }

    /// The choices, with their titles.
    package var choices: [(action: Action, title: String)]
    /// The highlighted choice.
    package var selected = 0
    /// The box's title; `nil`: how many keys are marked.
    package var title: String?

    package static func == (lhs: BulkMenu, rhs: BulkMenu) -> Bool {
        lhs.selected == rhs.selected && lhs.title == rhs.title && lhs.choices.map(\.action) == rhs.choices.map(\.action)
            && lhs.choices.map(\.title) == rhs.choices.map(\.title)
    }

    /// `a`: the actions the marked keys allow.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        let marked = state.markedKeys
        guard !marked.isEmpty else {
            state.inform("Mark keys first: v marks the selected key, V every key shown")
            return .stay
        }
        let bools = marked.filter { state.data.table.keys[$0].descriptor.control == .toggle }
        let overridden = marked.filter { state.overrideValue($0) != nil }
        var choices: [(Action, String)] = []
        if !bools.isEmpty {
            let others = marked.count - bools.count
            let note = others == 0 ? "" : " (\(others) other\(others == 1 ? "" : "s") stay as they are)"
            choices.append((.setBools(true), "Turn on \(Self.count(bools.count, "marked Bool key"))\(note)"))
            choices.append((.setBools(false), "Turn off \(Self.count(bools.count, "marked Bool key"))\(note)"))
        }
        if !overridden.isEmpty {
            let overrides = Self.count(overridden.count, "marked override")
            choices.append((.reset, "Reset \(overrides)"))
            choices.append((.chooseExpiry, "Expiry of the \(overrides)…"))
            choices.append((.note, "Note on the \(overrides)…"))
            choices.append((.saveScenario, "Save the \(overrides) as a scenario…"))
        }
        choices.append((.clearMarks, "Clear the \(Self.count(marked.count, "mark"))"))
        return .go(.bulkActions(BulkMenu(choices: choices)))
    }

    package var mode: MenuState.Mode { .bulkActions(self) }

    package var placement: MenuPlacement { .dialog }

    package func keymap(in menu: MenuState) -> Keymap { .bulk }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .move, .top, .bottom:
            selected = ChoiceList.moved(selected, by: intent, count: choices.count) ?? selected
        case .pickerCancel: return .go(.browsing)
        case .pickerChoose: return Self.perform(choices[selected].action, &state)
        default: return .ignored
        }
        return .stay
    }

    /// Asks before `action` (naming the keys it changes), or says why there is nothing to do.
    static func perform(_ action: Action, _ state: inout MenuState) -> MenuOutcome {
        let marked = state.markedKeys
        switch action {
        case .clearMarks:
            state.clearMarks()
            return .go(.browsing)
        case .setBools(let on):
            let word = on ? "on" : "off"
            var changes: [OverrideWrite.Change] = []
            var already = 0
            for key in marked where state.data.table.keys[key].descriptor.control == .toggle {
                let strings = state.data.table.keys[key].descriptor.toggleStrings
                let value = on ? strings.on : strings.off
                if state.shownValue(ofKey: key) == value, state.overrideValue(key) == value {
                    already += 1
                    continue
                }
                changes.append(.init(key: state.data.table.keys[key].descriptor.name, value: value))
            }
            guard !changes.isEmpty else {
                state.inform("The \(count(already, "marked Bool key")) \(already == 1 ? "is" : "are") \(word) already")
                return .go(.browsing)
            }
            let skipped = already == 0 ? "" : " (\(already) \(already == 1 ? "is" : "are") \(word) already)"
            return .go(
                .confirming(
                    .bulk(
                        question: "Turn \(word) \(count(changes.count, "key")): \(list(changes.map(\.key)))?\(skipped)",
                        write: OverrideWrite(changes: changes, summary: "\(count(changes.count, "key")) turned \(word)")
                    )))
        case .chooseExpiry:
            let keys = overriddenNames(state)
            let subject = keys.count == 1 ? "the marked override expires" : "the \(keys.count) marked overrides expire"
            return .go(
                .bulkActions(
                    BulkMenu(choices: ExpiryChoice.presets.map { (.expire($0), $0.title) }, title: "When \(subject)")))
        case .expire(let choice):
            let keys = overriddenNames(state)
            guard !keys.isEmpty else { return nothingOverridden(&state) }
            let changes = marked.compactMap { key in
                state.overrideValue(key).map {
                    OverrideWrite.Change(key: state.data.table.keys[key].descriptor.name, value: $0)
                }
            }
            return .go(
                .confirming(
                    .bulk(
                        question: "Make \(count(keys.count, "override")) expire: \(choice.title)? \(list(keys))",
                        write: OverrideWrite(
                            changes: changes, summary: "\(count(keys.count, "override")) expire: \(choice.title)",
                            expiry: choice))))
        case .note, .saveScenario:
            let keys = overriddenNames(state)
            guard !keys.isEmpty else { return nothingOverridden(&state) }
            let purpose: Prompt.Purpose = action == .note ? .note(keys: keys) : .scenarioName(keys: keys)
            return .go(.prompting(Prompt(purpose: purpose, returnTo: .browsing)))
        case .reset:
            let keys = overriddenNames(state)
            guard !keys.isEmpty else { return nothingOverridden(&state) }
            return .go(
                .confirming(
                    .bulk(
                        question: "Reset \(count(keys.count, "override")): \(list(keys))?",
                        write: OverrideWrite(
                            changes: keys.map { .init(key: $0, value: nil) },
                            summary: "\(count(keys.count, "override")) removed"))))
        }
    }

    /// The names of the marked keys that have an override (a pending one counts), in list order.
    static func overriddenNames(_ state: MenuState) -> [String] {
        state.markedKeys.filter { state.overrideValue($0) != nil }.map { state.data.table.keys[$0].descriptor.name }
    }

    /// Says that no marked key has an override, and closes.
    static func nothingOverridden(_ state: inout MenuState) -> MenuOutcome {
        state.inform("No marked key has an override")
        return .go(.browsing)
    }

    /// "3 keys", "1 key".
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The first names and how many more: "a, b, c and 4 more".
    static func list(_ names: [String]) -> String {
        let shown = names.prefix(3).joined(separator: ", ")
        return names.count > 3 ? "\(shown) and \(names.count - 3) more" : shown
    }

    /// Draws the choices centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let widest = choices.map { TextWidth.of($0.title) }.max() ?? 20
        let title = title ?? Self.count(menu.marks.count, "marked key")
        let box = overlayBox(
            &grid, on: screen, width: max(40, widest + 8, TextWidth.of(title) + 6), height: choices.count + 3,
            title: title, theme: theme)
        let inner = box.inset(by: 1)
        grid.write(" One change for them all: u undoes it", in: inner.row(0), style: theme.muted)
        for (index, choice) in choices.enumerated() {
            let row = inner.row(index + 1)
            guard row.height > 0 else { break }
            let style = index == selected ? theme.selected : theme.text
            grid.fill(row, style: style)
            grid.write(" " + choice.title, in: row, style: style)
        }
    }
}

extension MenuIntent {
    /// Choose what to do with the marked keys.
    package static let openBulkMenu = MenuIntent.open(ComponentType(BulkMenu.self))
}

extension Keymap {
    /// The bulk action menu's keys.
    package static let bulk = Keymap(
        "bulk", title: "Acting on the marked keys",
        choiceMoves("action") + [
            bind([.enter, .character(" ")], .pickerChoose, "choose (asks first)", hint: "choose", priority: 10),
            bind([.escape, .character("q")], .pickerCancel, "close; the marks stay", hint: "cancel", priority: 20),
            showHelp,
            quit,
        ], wheel: .moves)
}
