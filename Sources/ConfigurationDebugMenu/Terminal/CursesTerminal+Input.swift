// Input for the ncurses terminal: keys ncurses decodes, escape sequences it does not know, bracketed pastes.
import CNcursesw

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesTerminal {

    func nextEvent(timeout: Int) -> KeyEvent? {
        if !pending.isEmpty { return pending.removeFirst() }
        switch read(timeout: Int32(timeout)) {
        case nil: return nil
        case .key(let code): return keyCode(code)
        case .character("\u{1B}"): return readEscapeSequence()
        case .character(let character): return decode(character)
        }
    }

    /// The event for one character read from the terminal.
    func decode(_ character: Character) -> KeyEvent {
        switch character.unicodeScalars.first?.value ?? 0 {
        case 13, 10: .enter
        case 9: .tab
        case 27: .escape
        case 127, 8: .backspace
        case let value where (1...26).contains(value): .control(Character(UnicodeScalar(UInt8(value) + 96)))
        default: .character(character)
        }
    }

    /// One raw input: a character, or a key ncurses decoded.
    enum Raw {
        case character(Character)
        case key(Int32)
    }

    func read(timeout: Int32) -> Raw? {
        wtimeout(window, timeout)
        var character: wint_t = 0
        let result = wget_wch(window, &character)
        if result == ERR { return nil }
        if result == KEY_CODE_YES { return .key(Int32(character)) }
        guard let scalar = UnicodeScalar(UInt32(character)) else { return nil }
        return .character(Character(scalar))
    }

    /// After an ESC: the rest of a sequence ncurses did not know (already waiting), a bracketed paste, or a lone Esc.
    func readEscapeSequence() -> KeyEvent? {
        var rest: [Character] = []
        while true {
            guard let next = read(timeout: rest.isEmpty ? 0 : 20) else {
                return rest.isEmpty ? .escape : .unknown("\u{1B}" + String(rest))
            }
            switch next {
            case .key:
                // ncurses decoded a key right after the ESC (Alt plus that key): not an Esc either way.
                return .unknown("\u{1B}" + String(rest))
            case .character(let character):
                rest.append(character)
            }
            switch EscapeSequence.decode(rest) {
            case .incomplete: continue
            case .complete(let event): return event
            case .pasteStart: return readPaste()
            case .escapeThen(let character):
                pending.append(decode(character))
                return .escape
            }
        }
    }

    /// The text of a bracketed paste, up to its end marker (or a pause, or 1 MiB).
    func readPaste() -> KeyEvent {
        var text: [Character] = []
        let end = EscapeSequence.pasteEnd
        while text.count < 1 << 20, let next = read(timeout: 200) {
            switch next {
            case .character(let character): text.append(character == "\r" ? "\n" : character)
            case .key(let code): if code == KEY_ENTER { text.append("\n") }
            }
            if text.count >= end.count, Array(text.suffix(end.count)) == end {
                text.removeLast(end.count)
                break
            }
        }
        return .paste(String(text))
    }

    func keyCode(_ code: Int32) -> KeyEvent? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize(width: size.width, height: size.height)
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let x = Int(event.x)
            let y = Int(event.y)
            if event.bstate & scm_button4_pressed() != 0 { return .wheel(-1, x: x, y: y) }
            if event.bstate & scm_button5_pressed() != 0 { return .wheel(1, x: x, y: y) }
            if event.bstate & (scm_button1_pressed() | scm_button1_clicked()) != 0 { return .click(x: x, y: y) }
            return nil
        default:
            return nil
        }
    }
}
