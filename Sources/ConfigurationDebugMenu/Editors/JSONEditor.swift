/// The multi-line JSON editor: lines, a caret, scrolling, live validation of the whole text, drawn over the
/// whole screen.
package struct JSONEditor: KeyValueEditor {
    /// The key being edited, by index in the ``KeyTable``.
    package var key: Int
    /// The lines.
    package var lines: [[Character]]
    /// The caret's line.
    package var row = 0
    /// The caret's column in its line.
    package var column = 0
    /// The first line on screen.
    package var scroll = 0
    /// The whole text checked with the key's own decoding.
    package var validation: Validation
    /// The text the editor opened with, to tell whether anything would be lost by closing it.
    package var original: String
    /// The key's new value when another process changed it while this editor was open.
    package var changedElsewhere: String?
    /// The key's override value when the editor opened (`nil`: none), for an edit it continues in `$EDITOR`.
    package var startedFrom: String?
    /// When the saved override expires (Ctrl-T); `nil`: as before (a new value never expires).
    package var expiry: ExpiryChoice?

    /// An editor holding `text`, caret at the start.
    package init(key: Int, text: String, validation: Validation) {
        self.key = key
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
        self.validation = validation
        original = text
    }

    /// Whether the text differs from what the editor opened with.
    package var isChanged: Bool { text != original }

    /// The whole text.
    package var text: String { lines.map { String($0) }.joined(separator: "\n") }

    package var mode: MenuState.Mode { .editingJSON(self) }

    package var placement: MenuPlacement { .body }

    package func keymap(in menu: MenuState) -> Keymap { .editingJSON }

    package mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome {
        if let outcome = updateValue(intent, menu: &menu) { return outcome }
        switch intent {
        case .externalEdit:
            return .stay([
                .openExternalEditor(
                    ExternalEdit(
                        key: key, text: text, startedFrom: startedFrom, changedElsewhere: changedElsewhere,
                        expiry: expiry))
            ])
        default:
            guard edit(intent, visibleRows: menu.layout.jsonEditorRows) else { return .ignored }
            validation = menu.validate(key, text)
        }
        return .stay
    }

    /// Applies an editing intent, keeping the caret within `visibleRows` rows; returns `false` for any other intent.
    mutating func edit(_ intent: MenuIntent, visibleRows: Int) -> Bool {
        switch intent {
        case .editInsert(let inserted):
            for character in inserted {
                if character == "\n" || character == "\r\n" || character == "\r" {
                    newline()
                } else {
                    lines[row].insert(character, at: column)
                    column += 1
                }
            }
        case .editNewline:
            newline()
        case .editMove(.up):
            if row > 0 {
                row -= 1
                column = min(column, lines[row].count)
            }
        case .editMove(.down):
            if row < lines.count - 1 {
                row += 1
                column = min(column, lines[row].count)
            }
        case .editMove(.left) where column == 0 && row > 0:
            row -= 1
            column = lines[row].count
        case .editMove(.right) where column == lines[row].count && row < lines.count - 1:
            row += 1
            column = 0
        case .editMove(let move):
            column = LineEditor.move(column, in: lines[row], move)
        case .editDelete(.backward) where column == 0 && row > 0:
            let line = lines.remove(at: row)
            row -= 1
            column = lines[row].count
            lines[row] += line
        case .editDelete(.forward) where column == lines[row].count && row < lines.count - 1:
            lines[row] += lines.remove(at: row + 1)
        case .editDelete(let deletion):
            (lines[row], column) = LineEditor.delete(deletion, in: lines[row], at: column)
        default:
            return false
        }
        if row < scroll { scroll = row }
        if row >= scroll + visibleRows { scroll = row - visibleRows + 1 }
        return true
    }

    /// Splits the line at the caret; the new line keeps the indentation of the old one.
    private mutating func newline() {
        let rest = Array(lines[row][column...])
        lines[row].removeSubrange(column...)
        let indent = lines[row].prefix { $0 == " " }
        lines.insert(Array(indent) + rest, at: row + 1)
        row += 1
        column = indent.count
    }

    /// Draws the editor over `box` (the screen between title bar and footer).
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let data = menu.data
        let visibleRows = menu.layout.jsonEditorRows
        let descriptor = data.table.keys[key].descriptor
        grid.fill(box)
        let inner = grid.box(box, title: "Edit JSON · \(descriptor.name)", style: theme.overlayBorder)
        let gutter = 5
        // Long lines scroll sideways together, so the caret stays on screen.
        let textWidth = max(1, inner.width - gutter)
        let caretColumn = ScreenGrid.displayWidth(of: String(lines[row].prefix(column)))
        let offset = max(0, caretColumn - textWidth + 1)
        var caretSkipped = 0
        for line in 0..<min(visibleRows, inner.height) {
            let index = scroll + line
            guard index < lines.count else { break }
            let rect = inner.row(line)
            grid.write(leftPad(String(index + 1), gutter - 1) + " ", in: rect, style: theme.muted)
            var skipped = 0
            var start = 0
            while start < lines[index].count, skipped < offset {
                skipped += ScreenGrid.displayWidth(of: String(lines[index][start]))
                start += 1
            }
            if index == row { caretSkipped = skipped }
            grid.write(String(lines[index][start...]), x: rect.x + gutter, y: rect.y, maxX: rect.maxX)
        }
        grid.cursor = (min(inner.maxX - 1, inner.x + gutter + caretColumn - caretSkipped), inner.y + row - scroll)
        if let theirs = changedElsewhere {
            grid.write(
                "⚠ changed elsewhere to \(theirs) while you edit; saving will ask first",
                in: inner.row(inner.height - 2).inset(left: 1, right: 1), style: theme.problem)
        }
        let status = inner.row(inner.height - 1).inset(left: 1, right: 1)
        let expiryText = ValueEditor.expiryText(expiry, current: data.statuses[key].override?.expiry ?? .never)
        let expiryWidth = min(TextWidth.of(expiryText) + 2, status.width / 2)
        switch validation {
        case .valid:
            grid.write(
                "✓ valid JSON for \(descriptor.valueTypeName)", in: status.inset(right: expiryWidth), style: theme.valid
            )
        case .invalid(let reason):
            grid.write("✗ \(reason)", in: status.inset(right: expiryWidth), style: theme.problem)
        }
        grid.write(
            expiryText, in: status.columns(status.width - expiryWidth + 2..<status.width),
            style: expiry == nil ? theme.muted : theme.label)
    }
}

extension Keymap {
    /// The keys of the JSON editor: characters and pastes (line breaks kept) go into the text.
    package static let editingJSON = Keymap(
        "editingJSON", title: "Editing JSON",
        [
            bind([.control("s"), .function(2)], .editSave, "save (only valid JSON)", hint: "save", priority: 10),
            bind([.escape], .editCancel, "close (asks first when the text was changed)", hint: "cancel", priority: 20),
            bind([.control("o")], .externalEdit, "continue in $EDITOR", hint: "$EDITOR", priority: 30),
            expiryCycle,
            bind([.enter], .editNewline, "new line"),
            bind([.up], .editMove(.up), "line up"),
            bind([.down], .editMove(.down), "line down"),
        ] + LineEditor.caretBindings + [
            helpWhileTyping,
            bind([.control("c")], .quit, "quit (asks first when the text was changed)"),
        ], typing: .lines)
}
