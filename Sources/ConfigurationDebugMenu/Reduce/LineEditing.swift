/// Caret movement and deletion on one line of characters, shared by the one-line and the JSON editor.
enum LineEditing {
    static func move(_ cursor: Int, in text: [Character], _ move: MenuAction.CaretMove) -> Int {
        switch move {
        case .left: max(0, cursor - 1)
        case .right: min(text.count, cursor + 1)
        case .lineStart, .up: 0
        case .lineEnd, .down: text.count
        }
    }

    static func delete(_ deletion: MenuAction.Deletion, in text: [Character], at cursor: Int) -> ([Character], Int) {
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
            let start = wordStart(before: cursor, in: text)
            text.removeSubrange(start..<cursor)
            return (text, start)
        }
    }

    /// Where the word before `cursor` starts (skipping spaces first), as Ctrl-W in a shell.
    private static func wordStart(before cursor: Int, in text: [Character]) -> Int {
        var index = cursor
        while index > 0, !text[index - 1].isWordCharacter { index -= 1 }
        while index > 0, text[index - 1].isWordCharacter { index -= 1 }
        return index
    }
}

extension Character {
    var isWordCharacter: Bool { isLetter || isNumber || self == "_" }
}
