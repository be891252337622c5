import ServiceConfiguration

/// The one-line editor for an override's note ("QA scenario 12"), opened with `n` in place of the details pane.
/// Saving keeps the override's value and metadata and replaces only its note; an empty note removes it.
package struct NoteEditor: Equatable, Sendable {
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

    /// Draws the editor in `box` and places the caret.
    package func draw(into grid: inout ScreenGrid, in box: Rect, theme: MenuTheme) {
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

/// The store's note limit, as the note editor shows it.
enum OverrideStoreLimitsText {
    static let note = OverrideStoreLimits.maximumNoteSize
}
