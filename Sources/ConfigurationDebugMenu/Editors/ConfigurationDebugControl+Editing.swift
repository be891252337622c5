import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// What each kind of control does in the menu: what Enter does with it (and how the footer and messages say so), the
/// editor it opens, and whether `$EDITOR` edits it. A new control is a case in each of these, and its editor.
extension ConfigurationDebugControl {
    /// The footer's word for Enter on a key with this control (`pick`, `edit`); `nil` for a Bool, which Space flips.
    var enterHint: String? {
        switch self {
        case .toggle: nil
        case .picker: "pick"
        case .text, .number, .json: "edit"
        }
    }

    /// What Enter does to the value, for messages: `Enter flips this value`.
    var enterVerb: String {
        switch self {
        case .toggle: "flips"
        case .picker: "picks"
        case .text, .number, .json: "edits"
        }
    }

    /// Whether `e` edits the value in `$EDITOR`.
    var editsInExternalEditor: Bool {
        switch self {
        case .toggle, .picker: false
        case .text, .number, .json: true
        }
    }

    /// The editor Enter opens on `key` (a Bool has none: Enter flips it).
    func editor(of key: Int, in menu: MenuState) -> MenuState.Mode {
        let current = menu.currentText(key)
        switch self {
        case .toggle:
            return .browsing
        case .picker(let choices):
            let currentIndex = choices.firstIndex { $0.value == menu.shownValue(ofKey: key) }
            return .picking(Picker(key: key, choices: choices, current: currentIndex))
        case .text, .number:
            return .editing(ValueEditor(key: key, text: current, validation: menu.validate(key, current)))
        case .json:
            var editor = JSONEditor(key: key, text: JSONWriter.pretty(current), validation: menu.validate(key, current))
            editor.startedFrom = menu.overrideValue(key)
            return .editingJSON(editor)
        }
    }

    /// What `$EDITOR` is given for `key`: its value (JSON pretty-printed); `nil` when `$EDITOR` does not edit it.
    func externalEdit(of key: Int, in menu: MenuState) -> ExternalEdit? {
        guard editsInExternalEditor else { return nil }
        let text = self == .json ? JSONWriter.pretty(menu.currentText(key)) : menu.currentText(key)
        return ExternalEdit(key: key, text: text, startedFrom: menu.overrideValue(key))
    }
}
