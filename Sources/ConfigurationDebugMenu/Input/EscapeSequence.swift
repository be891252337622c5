/// Decodes the characters that follow an ESC when ncurses did not recognise the sequence itself (its terminfo
/// entry does not list it): `\e[1~` and `\e[4~` for Home and End under tmux with `TERM=xterm-256color`, the
/// application-mode arrows, and so on.
///
/// A sequence the menu does not know becomes ``KeyEvent/unknown(_:)``, which no binding uses: an unknown key is
/// never taken for Esc (which cancels an edit).
package enum EscapeSequence {
    /// How much of a sequence has arrived.
    package enum Progress: Equatable, Sendable {
        /// More characters are needed.
        case incomplete
        /// The sequence is complete.
        case complete(KeyEvent)
        /// The start of a bracketed paste: the text up to `\e[201~` follows.
        case pasteStart
        /// Not a sequence: a lone Esc, then this character (typed right after it; the menu binds no Alt keys).
        case escapeThen(Character)
    }

    /// Reads the characters after ESC received so far.
    package static func decode(_ rest: [Character]) -> Progress {
        guard let first = rest.first else { return .incomplete }
        switch first {
        case "[":
            guard rest.count > 1, let final = rest.last, isFinal(final) else {
                return rest.count > 32 ? .complete(.unknown("\u{1B}" + String(rest))) : .incomplete
            }
            let parameters = String(rest.dropFirst().dropLast())
            if final == "~", parameters == "200" { return .pasteStart }
            return .complete(csi(parameters: parameters, final: final) ?? .unknown("\u{1B}" + String(rest)))
        case "O":
            guard rest.count > 1 else { return .incomplete }
            return .complete(ss3(rest[1]) ?? .unknown("\u{1B}" + String(rest.prefix(2))))
        default:
            // Esc and then a key, read together (or Alt plus a key, which the menu does not bind).
            return .escapeThen(first)
        }
    }

    /// The end of a bracketed paste.
    package static let pasteEnd: [Character] = Array("\u{1B}[201~")

    private static func isFinal(_ character: Character) -> Bool {
        guard let value = character.asciiValue else { return false }
        return value >= 0x40 && value <= 0x7E
    }

    private static func csi(parameters: String, final: Character) -> KeyEvent? {
        let code = parameters.split(separator: ";").first.map(String.init) ?? ""
        switch final {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "Z": return .backTab
        case "~":
            switch code {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            case "11", "12", "13", "14": return .function(Int(code)! - 10)
            case "15": return .function(5)
            case "17", "18", "19", "20", "21": return .function(Int(code)! - 11)
            default: return nil
            }
        default: return nil
        }
    }

    private static func ss3(_ character: Character) -> KeyEvent? {
        switch character {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        default: nil
        }
    }
}
