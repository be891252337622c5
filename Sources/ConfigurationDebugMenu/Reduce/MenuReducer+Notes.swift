extension MenuReducer {
    /// `n`: the note editor; Enter saves the note as one recorded change (its value and expiry kept).
    static func editNote(_ state: inout MenuState, _ editor: NoteEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editSave:
            state.mode = .browsing
            guard editor.isChanged, currentOverride(state, editor.name) != nil else { return [] }
            let note = editor.field.string
            return [.note(key: editor.name, note: note.isEmpty ? nil : note)]
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
