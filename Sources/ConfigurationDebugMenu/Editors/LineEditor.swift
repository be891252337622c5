/// A one-line text field: characters and a caret, shell-style editing keys, and drawing that scrolls sideways to
/// keep the caret visible. Used by the value editor; the JSON editor uses its line operations.
package struct LineEditor: Equatable, Sendable {
    /// The text.
    package var text: [Character]
    /// The caret, from 0 to `text.count`.
    package var cursor: Int

    /// A field holding `text`, with the caret at the end.
    package init(_ text: String) {
        self.text = Array(text)
        cursor = self.text.count
    }

    /// The text as a string.
    package var string: String { String(text) }

    /// Applies an editing intent (insert, caret move, deletion); returns `false` for any other intent. A field is a
    /// part of the components that hold one (the editors, a prompt), not a component itself: it has no keys of its
    /// own beyond ``caretBindings``.
    package mutating func update(_ intent: MenuIntent) -> Bool {
        switch intent {
        case .editInsert(let inserted):
            let characters = Array(inserted)
            text.insert(contentsOf: characters, at: cursor)
            cursor += characters.count
        case .editMove(let move):
            cursor = Self.move(cursor, in: text, move)
        case .editDelete(let deletion):
            (text, cursor) = Self.delete(deletion, in: text, at: cursor)
        default:
            return false
        }
        return true
    }

    /// Draws the field in `rect` (one row) and returns the caret's screen column.
    package func draw(into grid: inout ScreenGrid, in rect: Rect, style: CellStyle) -> Int {
        let caretColumn = ScreenGrid.displayWidth(of: String(text.prefix(cursor)))
        let offset = max(0, caretColumn - rect.width + 1)
        var skipped = 0
        var first = 0
        while first < text.count, skipped < offset {
            skipped += ScreenGrid.displayWidth(of: String(text[first]))
            first += 1
        }
        grid.write(String(text[first...]), x: rect.x, y: rect.y, style: style, maxX: rect.maxX)
        return rect.x + caretColumn - skipped
    }

    /// The caret after `move` on one line.
    static func move(_ cursor: Int, in text: [Character], _ move: MenuIntent.CaretMove) -> Int {
        switch move {
        case .left: max(0, cursor - 1)
        case .right: min(text.count, cursor + 1)
        case .lineStart, .up: 0
        case .lineEnd, .down: text.count
        }
    }

    /// The line and caret after `deletion`.
    static func delete(_ deletion: MenuIntent.Deletion, in text: [Character], at cursor: Int) -> ([Character], Int) {
        var text = text
        switch deletion {
        case .backward:
            guard cursor > 0 else { return (text, cursor) }
            text.remove(at: cursor - 1)
            return (text, cursor - 1)
        case .forward:
            guard cursor < text.count else { return (text, cursor) }
            text.remove(at: cursor)
            return (text, cursor)
        case .toLineStart:
            text.removeSubrange(0..<cursor)
            return (text, 0)
        case .toLineEnd:
            text.removeSubrange(cursor...)
            return (text, cursor)
        case .wordBackward:
            var start = cursor
            while start > 0, !text[start - 1].isWordCharacter { start -= 1 }
            while start > 0, text[start - 1].isWordCharacter { start -= 1 }
            text.removeSubrange(start..<cursor)
            return (text, start)
        }
    }
}

extension LineEditor {
    /// The keys that move the caret and delete, in every field.
    static let caretBindings: [KeyBinding] = [
        Keymap.bind([.left], .editMove(.left), "caret left"),
        Keymap.bind([.right], .editMove(.right), "caret right"),
        Keymap.bind([.home, .control("a")], .editMove(.lineStart), "start of line"),
        Keymap.bind([.end, .control("e")], .editMove(.lineEnd), "end of line"),
        Keymap.bind([.backspace], .editDelete(.backward), "delete before the caret"),
        Keymap.bind([.delete, .control("d")], .editDelete(.forward), "delete at the caret"),
        Keymap.bind([.control("u")], .editDelete(.toLineStart), "delete to the start of the line"),
        Keymap.bind([.control("k")], .editDelete(.toLineEnd), "delete to the end of the line"),
        Keymap.bind([.control("w")], .editDelete(.wordBackward), "delete the word before the caret"),
    ]
}

extension Character {
    var isWordCharacter: Bool { isLetter || isNumber || self == "_" }
}
