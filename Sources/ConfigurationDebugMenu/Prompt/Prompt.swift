import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// A line of text the menu asks for, drawn over the mode it was asked from: the name of a new scenario, or the
/// program version an override expires at. Enter submits, Esc goes back.
package struct Prompt: MenuComponent {
    /// What the text is for.
    package enum Purpose: Equatable, Sendable {
        /// The name of a scenario to save the overrides as (only those of `keys`, the marked keys, when given).
        case scenarioName(keys: [String]? = nil)
        /// A note for the overrides of `keys` (the marked keys); empty removes their notes.
        case note(keys: [String])
        /// The version from which the override of a key (by index in the ``KeyTable``) expires.
        case expiryVersion(key: Int)
    }

    /// What the text is for.
    package var purpose: Purpose
    /// The text field.
    package var field: LineEditor
    /// Why the text was refused, if it was.
    package var problem: String?
    /// The mode to go back to.
    package var returnTo: MenuState.Mode

    package init(purpose: Purpose, text: String = "", returnTo: MenuState.Mode) {
        self.purpose = purpose
        field = LineEditor(text)
        self.returnTo = returnTo
    }

    /// The question.
    package var title: String {
        switch purpose {
        case .scenarioName(nil): "Save the current overrides as a scenario named"
        case .scenarioName(let keys?): "Save the \(BulkMenu.count(keys.count, "marked override")) as a scenario named"
        case .note(let keys):
            "Note for the \(BulkMenu.count(keys.count, "marked override")) (empty removes their notes)"
        case .expiryVersion: "Expire the override from program version (like 14.2)"
        }
    }

    /// A scenario name as a file name, or why it cannot be one.
    package static func scenarioFileName(_ text: String) -> Result<String, PromptProblem> {
        let name = text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return .failure(PromptProblem("type a name")) }
        if name.hasPrefix(".") || name.contains("/") || name.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            return .failure(PromptProblem("a name cannot start with a dot or hold / or control characters"))
        }
        if name.utf8.count > 100 { return .failure(PromptProblem("at most 100 bytes")) }
        return .success(name.hasSuffix(".json") ? String(name.dropLast(5)) : name)
    }

    package var mode: MenuState.Mode { .prompting(self) }

    package var placement: MenuPlacement { .overlay(returnTo) }

    package func keymap(in menu: MenuState) -> Keymap { .prompting }

    /// Enter submits the text (or says why it is refused), Esc goes back.
    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .editCancel:
            return .go(returnTo)
        case .editSave:
            switch purpose {
            case .scenarioName(let keys):
                switch Self.scenarioFileName(field.string) {
                case .success(let name):
                    // Done with the marks, as after any bulk action.
                    if keys != nil { state.marks.removeAll() }
                    return .go(returnTo, [.saveScenario(name: name, keys: keys)])
                case .failure(let refusal):
                    problem = refusal.reason
                    return .stay
                }
            case .expiryVersion(let key):
                guard let version = ProgramVersion(field.string.trimmingCharacters(in: .whitespaces)) else {
                    problem = "not a version like 14.2 (numbers and dots)"
                    return .stay
                }
                return .go(returnTo, state.expire(key: key, .untilVersion(version)))
            case .note(let keys):
                let text = field.string.trimmingCharacters(in: .whitespaces)
                let note = text.isEmpty ? nil : text
                let subject = "note of \(BulkMenu.count(keys.count, "override"))"
                let values = Dictionary(uniqueKeysWithValues: keys.map { ($0, state.currentOverride($0)?.value) })
                let id = state.beginChange(
                    summary: note.map { "\(subject): \($0)" } ?? "\(subject) removed", values: values)
                state.marks.removeAll()
                return .go(returnTo, [.note(keys: keys, note: note, id: id)])
            }
        default:
            guard field.update(intent) else { return .ignored }
            problem = nil
            return .stay
        }
    }

    /// Draws the question and the field centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let width = min(screen.width - 4, max(60, TextWidth.of(title) + 8))
        let box = overlayBox(
            &grid, on: screen, width: width, height: 6, title: "Enter saves · Esc cancels", theme: theme)
        let content = box.inset(by: 1).inset(left: 1, right: 1)
        grid.write(title, in: content.row(0), style: theme.label)
        grid.write("> ", in: content.row(1), style: theme.key)
        let rect = content.row(1).inset(left: 2)
        let caret = field.draw(into: &grid, in: rect, style: CellStyle(underline: true))
        grid.cursor = (caret, rect.y)
        if let problem {
            grid.write("✗ \(problem)", in: content.row(2), style: theme.problem)
        }
    }
}

extension Keymap {
    /// A prompt's keys: characters go into the field.
    package static let prompting = Keymap(
        "prompting", title: "Typing a name",
        [
            bind([.enter], .editSave, "save", hint: "save", priority: 10),
            bind([.escape], .editCancel, "go back without saving", hint: "cancel", priority: 20),
        ] + LineEditor.caretBindings + [helpWhileTyping, quit], typing: .line)
}

/// Why a prompt's text was refused.
package struct PromptProblem: Error, Equatable, Sendable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
