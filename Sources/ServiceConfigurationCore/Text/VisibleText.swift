/// Shows what a string holds without letting a terminal interpret any of it.
///
/// Values, notes, key names and titles come from servers, files and other people. Printed raw, a control character
/// moves the cursor, an escape sequence sets the window title or writes the clipboard, and an invisible character
/// (a zero-width space, a soft hyphen, a bidirectional override) hides in plain sight. Every human-readable output
/// of the package (the debug menu, the command-line tool's plain output and messages) passes text through here:
///
/// - `\t`, `\n`, `\r` and `\0` are written as those two characters;
/// - every other control character (C0, DEL, C1), format character (zero-width space, soft hyphen, byte-order mark,
///   bidirectional controls), line or paragraph separator, unassigned code point, and space other than U+0020 and
///   the ideographic space is written as `\u{XXXX}` (Swift's escape syntax, upper-case hexadecimal);
/// - inside an emoji sequence, the joiners, variation selectors and tag characters that build it are kept, so 👨‍👩‍👧
///   and 🏴󠁧󠁢󠁳󠁣󠁴󠁿 still show as one picture.
///
/// A literal backslash is not doubled (JSON values are full of them); where the distinction matters, the debug
/// menu draws escapes in their own style and `--json` output carries the exact string.
package enum VisibleText {
    /// A run of text as shown: either the string's own characters, or the escape for one that is not shown raw.
    package struct Piece: Equatable, Sendable {
        /// The text to show.
        package var text: String
        /// Whether this piece is an escape standing for one invisible or control character.
        package var isEscape: Bool

        package init(text: String, isEscape: Bool) {
            self.text = text
            self.isEscape = isEscape
        }
    }

    /// `text` with every character that is not shown raw replaced by its escape.
    package static func escaped(_ text: String) -> String {
        if isPlainASCII(text) { return text }
        var result = ""
        forEachPiece(of: text) { piece, _ in result += piece }
        return result
    }

    /// `text` cut into pieces of raw text and escapes, in order.
    package static func pieces(of text: String) -> [Piece] {
        if isPlainASCII(text) { return text.isEmpty ? [] : [Piece(text: text, isEscape: false)] }
        var pieces: [Piece] = []
        forEachPiece(of: text) { piece, isEscape in
            if !isEscape, let last = pieces.last, !last.isEscape {
                pieces[pieces.count - 1].text += piece
            } else {
                pieces.append(Piece(text: piece, isEscape: isEscape))
            }
        }
        return pieces
    }

    /// Whether `text` holds anything that would be escaped.
    package static func needsEscaping(_ text: String) -> Bool {
        if isPlainASCII(text) { return false }
        return text.contains { character in
            let inEmoji = isEmojiSequence(character)
            return character.unicodeScalars.contains { mustEscape($0, inEmojiSequence: inEmoji) }
        }
    }

    /// The escape for one scalar: `\t`, `\n`, `\r`, `\0`, or `\u{XXXX}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\0": return "\\0"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
        }
    }

    /// Whether `scalar` is never shown raw. `inEmojiSequence` allows the scalars that build emoji sequences.
    package static func mustEscape(_ scalar: Unicode.Scalar, inEmojiSequence: Bool) -> Bool {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return false }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
            return true
        case .format:
            // Zero-width joiner and tag characters build emoji sequences (families, flags of regions).
            return !(inEmojiSequence && (value == 0x200D || (0xE0020...0xE007F).contains(value)))
        case .spaceSeparator:
            return value != 0x3000
        default:
            return false
        }
    }

    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A grapheme cluster that starts with an emoji and holds more than one scalar (a ZWJ sequence, a flag).
    private static func isEmojiSequence(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, scalars.count > 1 else { return false }
        return first.properties.isEmoji
    }

    /// Calls `body` with each run of raw text (`false`) and each escape (`true`).
    private static func forEachPiece(of text: String, _ body: (String, Bool) -> Void) {
        var run = ""
        for character in text {
            let inEmoji = isEmojiSequence(character)
            let scalars = character.unicodeScalars
            guard scalars.contains(where: { mustEscape($0, inEmojiSequence: inEmoji) }) else {
                run.append(character)
                continue
            }
            // Escape the offending scalars; keep the others (a base letter before a stray control character).
            var kept = String.UnicodeScalarView()
            for scalar in scalars {
                if mustEscape(scalar, inEmojiSequence: inEmoji) {
                    run.unicodeScalars.append(contentsOf: kept)
                    kept.removeAll()
                    if !run.isEmpty {
                        body(run, false)
                        run = ""
                    }
                    body(escape(scalar), true)
                } else {
                    kept.append(scalar)
                }
            }
            run.unicodeScalars.append(contentsOf: kept)
        }
        if !run.isEmpty { body(run, false) }
    }
}
