import ServiceConfiguration

extension MenuReducer {
    // MARK: Editors

    static func edit(_ state: inout MenuState, _ editor: ValueEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            return save(
                &state, key: editor.key, editor.validation, changedElsewhere: editor.changedElsewhere,
                expiry: editor.expiry)
        case .editCancel:
            cancelEdit(&state, key: editor.key, changed: editor.isChanged)
        case .help:
            state.mode = .help(HelpScreen(context: .editing, returnTo: state.mode))
        case .cycleExpiry:
            editor.expiry = nextExpiry(after: editor.expiry)
            state.mode = .editing(editor)
        default:
            guard editor.field.update(action) else { return [] }
            editor.validation = validate(state, editor.key, editor.field.string)
            state.mode = .editing(editor)
        }
        return []
    }

    static func editJSON(_ state: inout MenuState, _ editor: JSONEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            return save(
                &state, key: editor.key, editor.validation, changedElsewhere: editor.changedElsewhere,
                expiry: editor.expiry)
        case .editCancel:
            cancelEdit(&state, key: editor.key, changed: editor.isChanged)
        case .cycleExpiry:
            editor.expiry = nextExpiry(after: editor.expiry)
            state.mode = .editingJSON(editor)
        case .externalEdit:
            return [
                .openExternalEditor(
                    ExternalEdit(
                        key: editor.key, text: editor.text, startedFrom: editor.startedFrom,
                        changedElsewhere: editor.changedElsewhere, expiry: editor.expiry))
            ]
        case .help:
            state.mode = .help(HelpScreen(context: .editingJSON, returnTo: state.mode))
        default:
            guard editor.update(action, visibleRows: state.layout.jsonEditorRows) else { return [] }
            editor.validation = validate(state, editor.key, editor.text)
            state.mode = .editingJSON(editor)
        }
        return []
    }

    /// Saves an editor's value if it is valid (asking first when another process changed the key meanwhile);
    /// otherwise says why and stays in the editor.
    static func save(
        _ state: inout MenuState, key: Int, _ validation: Validation, changedElsewhere theirs: String?,
        expiry: ExpiryChoice?
    ) -> [MenuEffect] {
        switch validation {
        case .valid(let canonical):
            if let theirs {
                let name = state.data.table.keys[key].descriptor.name
                state.mode = .confirming(.overwrite(key: name, theirs: theirs, editor: state.mode))
                return []
            }
            state.mode = .browsing
            return set(&state, key: key, value: canonical, expiry: expiry)
        case .invalid(let reason):
            state.fail("not saved: \(reason)")
            return []
        }
    }

    /// Esc in an editor: closes it, after asking when the text was changed.
    static func cancelEdit(_ state: inout MenuState, key: Int, changed: Bool) {
        if changed {
            let name = state.data.table.keys[key].descriptor.name
            state.mode = .confirming(.discardEdit(key: name, editor: state.mode))
        } else {
            state.mode = .browsing
        }
    }

    /// The name of the key whose editor holds unsaved changes, if any.
    static func unsavedEdit(_ state: MenuState) -> String? {
        switch state.mode {
        case .editing(let editor) where editor.isChanged: state.data.table.keys[editor.key].descriptor.name
        case .editingJSON(let editor) where editor.isChanged: state.data.table.keys[editor.key].descriptor.name
        case .editingNote(let editor) where editor.isChanged: "the note of " + editor.name
        default: nil
        }
    }

    /// `$EDITOR` came back: a text it left unchanged saves nothing; a valid one is saved, after asking when another
    /// process changed the key since the edit started; an invalid one stays in the menu's editor with the reason,
    /// so nothing typed is lost.
    static func finishExternalEdit(_ state: inout MenuState, _ edit: ExternalEdit, text: String) -> [MenuEffect] {
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        let key = edit.key
        if text == edit.text {
            // The mode is the one the edit started from: browsing, or the JSON editor it continued.
            state.inform("Nothing saved: the text came back from $EDITOR unchanged")
            return []
        }
        let theirs =
            edit.changedElsewhere ?? (overrideValue(state, key) != edit.startedFrom ? valueNow(state, key) : nil)
        let validation = validate(state, key, text)
        let editor: MenuState.Mode
        if state.data.table.keys[key].descriptor.control == .json {
            var json = JSONEditor(key: key, text: text, validation: validation)
            json.original = edit.text
            json.startedFrom = edit.startedFrom
            json.changedElsewhere = theirs
            json.expiry = edit.expiry
            editor = .editingJSON(json)
        } else {
            var line = ValueEditor(
                key: key, text: text.replacingOccurrences(of: "\n", with: " "), validation: validation)
            line.original = edit.text
            line.changedElsewhere = theirs
            line.expiry = edit.expiry
            editor = .editing(line)
        }
        switch validation {
        case .valid(let canonical):
            if let theirs {
                let name = state.data.table.keys[key].descriptor.name
                state.mode = .confirming(.overwrite(key: name, theirs: theirs, editor: editor))
                return []
            }
            state.mode = .browsing
            return set(&state, key: key, value: canonical, expiry: edit.expiry)
        case .invalid(let reason):
            state.mode = editor
            state.fail("not saved: \(reason)")
            return []
        }
    }

    /// `text` checked with the key's own decoding. For JSON keys, a syntax error is reported with its line and
    /// column first.
    static func validate(_ state: MenuState, _ key: Int, _ text: String) -> Validation {
        let descriptor = state.data.table.keys[key].descriptor
        if descriptor.control == .json {
            do {
                _ = try StrictJSON.parse(Array(text.utf8))
            } catch {
                return .invalid("not valid JSON: \(error)")
            }
        }
        do {
            return .valid(try descriptor.validate(text))
        } catch {
            return .invalid(error.description)
        }
    }

    /// `n`: the note editor; Enter saves the note as one recorded change (its value and expiry kept).
    static func editNote(_ state: inout MenuState, _ editor: NoteEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            state.mode = .browsing
            guard editor.isChanged, currentOverride(state, editor.name) != nil else { return [] }
            let note = editor.field.string.isEmpty ? nil : editor.field.string
            let summary = note.map { "note of \(editor.name): \($0)" } ?? "note of \(editor.name) removed"
            let value = currentOverride(state, editor.name)?.value
            let id = state.beginChange(summary: summary, values: [editor.name: value])
            return [.note(key: editor.name, note: note, id: id)]
        case .editCancel:
            if editor.isChanged {
                state.mode = .confirming(.discardEdit(key: "the note of " + editor.name, editor: state.mode))
            } else {
                state.mode = .browsing
            }
        case .help:
            state.mode = .help(HelpScreen(context: .editingNote, returnTo: state.mode))
        default:
            guard editor.field.update(action) else { return [] }
            state.mode = .editingNote(editor)
        }
        return []
    }
}
