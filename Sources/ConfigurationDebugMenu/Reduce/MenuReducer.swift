import ServiceConfiguration

/// The menu's update function: `(state, action) -> (state, effects)`, pure.
///
/// The reducer routes: events that concern the whole menu (resize, refreshed data, the outcome of effects, quit)
/// are handled here; every other action goes to the component that has the keyboard in the current mode, and the
/// component's outcome becomes state changes and effects (saving, undoing, running `$EDITOR`). Effects are
/// performed by the runtime, which reports their outcome as further actions.
package enum MenuReducer {
    /// Applies `action` to `state`; returns the effects to perform.
    package static func reduce(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            state.list.keepVisible(visibleRows: state.visibleKeyRows)
            revealModule(&state)
            return []
        case .refreshed(let update):
            apply(update, to: &state)
            return []
        case .writeSucceeded(let write, let undo):
            if !undo.entries.isEmpty { state.undoStack.append(undo) }
            if state.undoStack.count > 100 { state.undoStack.removeFirst() }
            state.inform("Saved: \(write.summary)")
            return []
        case .undoSucceeded(let step):
            // An undo step is taken off the stack only once it is saved, so a failed undo can be tried again.
            if state.undoStack.last == step { state.undoStack.removeLast() }
            state.inform("Undone: \(step.summary)")
            return []
        case .writeFailed(let message):
            state.fail("not saved: \(message)")
            return []
        case .externalEditFinished(let key, let text):
            return finishExternalEdit(&state, key: key, text: text)
        case .externalEditFailed(let message):
            state.fail(message)
            return []
        case .quit:
            if let name = unsavedEdit(state) {
                state.mode = .confirming(.quitDiscardingEdit(key: name, editor: state.mode))
                return []
            }
            return [.quit]
        case .tick(let now):
            state.clock = now
            state.changedElsewhere = state.changedElsewhere.filter { now - $0.value < changeMarkSeconds }
            return []
        case .syncFinished(let outcome):
            finishSync(&state, outcome)
            return []
        default:
            break
        }
        state.status = nil
        switch state.mode {
        case .browsing: return browse(&state, action)
        case .filtering: return filter(&state, action)
        case .editing(let editor): return edit(&state, editor, action)
        case .editingJSON(let editor): return editJSON(&state, editor, action)
        case .editingNote(let editor): return editNote(&state, editor, action)
        case .picking(let picker): return pick(&state, picker, action)
        case .confirming(let confirmation): return confirm(&state, confirmation, action)
        case .help(var help):
            if action == .closeHelp {
                state.mode = help.returnTo
            } else if help.update(action, screen: state.layout.screen) {
                state.mode = .help(help)
            }
            return []
        }
    }

    // MARK: Filtering

    private static func filter(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .filterInsert(let text):
            state.filters.query += text
            state.refreshList(selectFirst: true)
        case .filterBackspace:
            if !state.filters.query.isEmpty { state.filters.query.removeLast() }
            state.refreshList(selectFirst: true)
        case .filterErase:
            state.filters.query = ""
            state.refreshList(selectFirst: true)
        case .toggleSearchEverywhere:
            guard state.filters.scope != nil else { break }
            state.filters.searchEverywhere.toggle()
            state.refreshList(selectFirst: true)
        case .filterAccept:
            state.mode = .browsing
        case .filterCancel:
            state.filters.query = ""
            state.mode = .browsing
            state.refreshList()
        case .move(let delta):
            state.list.move(by: delta, visibleRows: state.visibleKeyRows)
        case .help:
            state.mode = .help(HelpScreen(context: .filtering, returnTo: state.mode))
        default:
            break
        }
        return []
    }

    // MARK: Editors

    private static func edit(_ state: inout MenuState, _ editor: ValueEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            return save(&state, key: editor.key, editor.validation, changedElsewhere: editor.changedElsewhere)
        case .editCancel:
            cancelEdit(&state, key: editor.key, changed: editor.isChanged)
        case .help:
            state.mode = .help(HelpScreen(context: .editing, returnTo: state.mode))
        default:
            guard editor.field.update(action) else { return [] }
            editor.validation = validate(state, editor.key, editor.field.string)
            state.mode = .editing(editor)
        }
        return []
    }

    private static func editJSON(_ state: inout MenuState, _ editor: JSONEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            return save(&state, key: editor.key, editor.validation, changedElsewhere: editor.changedElsewhere)
        case .editCancel:
            cancelEdit(&state, key: editor.key, changed: editor.isChanged)
        case .externalEdit:
            return [.openExternalEditor(key: editor.key, text: editor.text)]
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
    private static func save(
        _ state: inout MenuState, key: Int, _ validation: Validation, changedElsewhere theirs: String?
    ) -> [MenuEffect] {
        switch validation {
        case .valid(let canonical):
            if let theirs {
                let name = state.data.table.keys[key].descriptor.name
                state.mode = .confirming(.overwrite(key: name, theirs: theirs, editor: state.mode))
                return []
            }
            state.mode = .browsing
            return set(&state, key: key, value: canonical)
        case .invalid(let reason):
            state.fail("not saved: \(reason)")
            return []
        }
    }

    /// Esc in an editor: closes it, after asking when the text was changed.
    private static func cancelEdit(_ state: inout MenuState, key: Int, changed: Bool) {
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

    private static func editNote(_ state: inout MenuState, _ editor: NoteEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            state.mode = .browsing
            guard editor.isChanged, let entry = currentOverride(state, editor.name) else { return [] }
            let note = editor.field.string
            return [
                .note(
                    key: editor.name, note: note.isEmpty ? nil : note,
                    undo: UndoStep(
                        entries: [editor.name: entry], expected: [editor.name: entry.value],
                        summary: "note of \(editor.name) restored"))
            ]
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

    /// `$EDITOR` came back: a valid text is saved; an invalid one stays in the menu's editor with the reason, so
    /// nothing typed is lost.
    private static func finishExternalEdit(_ state: inout MenuState, key: Int, text: String) -> [MenuEffect] {
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        let validation = validate(state, key, text)
        if case .valid(let canonical) = validation {
            state.mode = .browsing
            return set(&state, key: key, value: canonical)
        }
        if state.data.table.keys[key].descriptor.control == .json {
            state.mode = .editingJSON(JSONEditor(key: key, text: text, validation: validation))
        } else {
            state.mode = .editing(
                ValueEditor(key: key, text: text.replacingOccurrences(of: "\n", with: " "), validation: validation))
        }
        if case .invalid(let reason) = validation { state.fail("not saved: \(reason)") }
        return []
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

    // MARK: Picker and confirmation

    private static func pick(_ state: inout MenuState, _ picker: Picker, _ action: MenuAction) -> [MenuEffect] {
        var picker = picker
        switch picker.update(action, screen: state.layout.screen) {
        case .none:
            if action == .help {
                state.mode = .help(HelpScreen(context: .picking, returnTo: state.mode))
            } else {
                state.mode = .picking(picker)
            }
            return []
        case .cancel:
            state.mode = .browsing
            return []
        case .choose(let choice):
            state.mode = .browsing
            if picker.selected == picker.current, state.data.statuses[picker.key].source == .overridden {
                state.inform("Unchanged: \(choice.title)")
                return []
            }
            return set(&state, key: picker.key, value: choice.value)
        }
    }

    private static func confirm(_ state: inout MenuState, _ confirmation: Confirmation, _ action: MenuAction)
        -> [MenuEffect]
    {
        switch (confirmation, action) {
        case (.resetAll(let count), .confirm):
            state.mode = .browsing
            let names =
                state.data.table.keys.indices.filter { state.data.statuses[$0].override != nil }
                .map { state.data.table.keys[$0].descriptor.name } + state.data.orphans.map(\.name)
            return reset(&state, names, summary: "all \(count) overrides removed")
        case (.resetScope(let name, let keys), .confirm):
            state.mode = .browsing
            return reset(
                &state, keys, summary: "\(keys.count) override\(keys.count == 1 ? "" : "s") in \(name) removed")
        case (.resetAll, .cancel), (.resetScope, .cancel):
            state.mode = .browsing
            state.inform("Nothing was reset")
        case (.discardEdit(let key, _), .confirm):
            state.mode = .browsing
            state.inform("Discarded your changes to \(key)")
        case (.quitDiscardingEdit, .confirm):
            return [.quit]
        case (.overwrite, .confirm):
            switch confirmation {
            case .overwrite(_, _, .editing(var editor)):
                editor.changedElsewhere = nil
                state.mode = .editing(editor)
                return save(&state, key: editor.key, editor.validation, changedElsewhere: nil)
            case .overwrite(_, _, .editingJSON(var editor)):
                editor.changedElsewhere = nil
                state.mode = .editingJSON(editor)
                return save(&state, key: editor.key, editor.validation, changedElsewhere: nil)
            default:
                state.mode = .browsing
            }
        case (.discardEdit(_, let editor), .cancel), (.quitDiscardingEdit(_, let editor), .cancel),
            (.overwrite(_, _, let editor), .cancel):
            state.mode = editor
        case (.undoOverChanges(let step, _), .confirm):
            state.mode = .browsing
            return [.undo(step)]
        case (.undoOverChanges, .cancel):
            state.mode = .browsing
            state.inform("Nothing was undone; their change stays")
        default:
            break
        }
        return []
    }
}
