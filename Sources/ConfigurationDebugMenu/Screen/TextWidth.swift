import ServiceConfigurationCore

/// Terminal column widths of text: 2 for East Asian wide and fullwidth characters and emoji, 0 for combining marks
/// and other zero-width characters, 1 otherwise. Works on grapheme clusters (Swift `Character`s), so an emoji with a
/// skin-tone modifier or a ZWJ sequence takes the width of one emoji.
///
/// The ranges follow Unicode's East Asian Width (W and F) and the emoji presentation property; terminals disagree
/// on a few characters (ambiguous width), which are treated as narrow, as xterm and most others do.
package enum TextWidth {
    /// The number of columns `character` occupies.
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if first.properties.isEmojiPresentation { return 2 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// The character as the menu draws it: a text-default symbol asked to show as emoji (❤️: U+2764 U+FE0F) loses
    /// the variation selector. Terminals disagree about such characters (one column or two), and a disagreement
    /// shifts everything after it on the line; drawn as text, every terminal gives them one column.
    package static func forTerminal(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard scalars.count > 1, scalars.contains(where: { $0.value == 0xFE0F }),
            let first = scalars.first, !first.properties.isEmojiPresentation
        else { return character }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.filter { $0.value != 0xFE0F })
        let text = String(kept)
        return text.count == 1 ? Character(text) : character
    }

    /// The number of columns `text` occupies.
    package static func of<S: StringProtocol>(_ text: S) -> Int {
        // ASCII (nearly every name and title), read from the string's storage: a column per printable byte, none for
        // a control character, as the per-character rule below gives.
        if let ascii = text.utf8.withContiguousStorageIfAvailable(ofASCII), let columns = ascii { return columns }
        return text.reduce(0) { $0 + of($1) }
    }

    /// The number of columns UTF-8 text occupies; from the bytes when it is ASCII, else from the string they make.
    package static func of(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        ofASCII(bytes) ?? of(String(decoding: bytes, as: UTF8.self))
    }

    /// The columns of ASCII text: one per printable byte, none for a control character (as the per-character rule
    /// gives); `nil` when not every byte is ASCII.
    private static func ofASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // The printable start eight bytes at a time, then byte by byte.
        let printable = ASCIIRun.printablePrefix(of: bytes)
        var columns = printable
        for byte in bytes[printable...] {
            guard byte < 0x80 else { return nil }
            if byte >= 0x20, byte < 0x7F { columns += 1 }
        }
        return columns
    }

    /// The longest prefix of `text` that fits in `columns`, with an ellipsis when something was cut.
    package static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// `text` cut in the middle with "…" to fit `columns`, keeping its start and its end (the end of a wire name
    /// is what tells keys apart).
    package static func truncateMiddle(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        let tail = suffix(text, to: (columns - 1) / 2 + (columns - 1) % 2)
        return truncate(text, to: columns - of(tail)).dropLast() + "…" + tail
    }

    /// The longest suffix of `text` that fits in `columns`.
    package static func suffix(_ text: String, to columns: Int) -> String {
        var result: [Character] = []
        var used = 0
        for character in text.reversed() {
            let width = of(character)
            if used + width > columns { break }
            result.append(character)
            used += width
        }
        return String(result.reversed())
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE,
            0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705,
            0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF,
            0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
