import ServiceConfiguration
import ServiceConfigurationFileStore

/// The one-line editor for an override's note ("QA scenario 12"), opened with `n` in place of the details pane.
/// Saving keeps the override's value and metadata and replaces only its note; an empty note removes it.
package struct NoteEditor: OpenableComponent {
    /// The key (or orphan) whose override is annotated.
    package var name: String
    /// The text field.
    package var field: LineEditor
    /// The note the editor opened with.
    package var original: String

    package init(name: String, note: String?) {
        self.name = name
        field = LineEditor(note ?? "")
        original = note ?? ""
    }

    /// Whether the text differs from the note the editor opened with.
    package var isChanged: Bool { field.string != original }

    /// `n`: the note editor for the selected key's (or orphan's) override.
    package static func open(_ menu: inout MenuState) -> MenuOutcome {
        let name =
            menu.selectedKey.map { menu.data.table.keys[$0].descriptor.name }
            ?? menu.selectedOrphan.map { menu.data.orphans[$0].name }
        guard let name, let entry = menu.currentOverride(name) else {
            menu.inform("A note goes with an override: set one first, then n")
            return .stay
        }
        return .go(.editingNote(NoteEditor(name: name, note: entry.note)))
    }

    package var mode: MenuState.Mode { .editingNote(self) }

    package var placement: MenuPlacement { .details }

    package func keymap(in menu: MenuState) -> Keymap { .editingNote }

    /// Enter saves the note as one recorded change (the override's value and expiry kept).
    package mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome {
        switch intent {
        case .editSave:
            guard isChanged, menu.currentOverride(name) != nil else { return .go(.browsing) }
            let note = field.string.isEmpty ? nil : field.string
            let summary = note.map { "note of \(name): \($0)" } ?? "note of \(name) removed"
            let value = menu.currentOverride(name)?.value
            let id = menu.beginChange(summary: summary, values: [name: value])
            return .go(.browsing, [.note(keys: [name], note: note, id: id)])
        case .editCancel:
            return menu.cancelEdit("the note of " + name, changed: isChanged, editor: mode)
        default:
            return field.update(intent) ? .stay : .ignored
        }
    }

    package func unsavedWork(in menu: MenuState) -> String? { isChanged ? "the note of " + name : nil }

    /// Draws the editor in `box` and places the caret.
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let inner = grid.box(box, title: "Note for \(name)", style: theme.overlayBorder)
        let content = inner.inset(left: 1, right: 1)
        grid.write("> ", in: content.row(0), style: theme.key)
        let row = content.row(0).inset(left: 2)
        grid.cursor = (field.draw(into: &grid, in: row, style: CellStyle(underline: true)), row.y)
        let limit = OverrideStoreLimitsText.note
        let count = field.string.utf8.count
        let hint = "Enter saves (an empty note removes it) · Esc closes · \(count) of \(limit) bytes"
        grid.write(hint, in: content.row(1), style: count > limit ? theme.problem : theme.muted)
    }
}

extension MenuIntent {
    /// Open the note editor for the selected key's override.
    package static let editNote = MenuIntent.open(ComponentType(NoteEditor.self))
}

extension Keymap {
    /// The note editor's keys: the value editor's, under their own title.
    package static let editingNote = Keymap(
        "editingNote", title: "Editing a note", editing.bindings, typing: .line)
}

/// The store's note limit, as the note editor shows it.
enum OverrideStoreLimitsText {
    static let note = OverrideStoreLimits.maximumNoteSize
}
