/// One input event, decoded from the terminal: a key press, a mouse action or a resize.
package enum KeyEvent: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// Ctrl plus a letter (`.control("c")` is Ctrl-C).
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab, backspace, delete
    /// A function key, F1 to F12.
    case function(Int)
    /// A left click at a screen position.
    case click(x: Int, y: Int)
    /// The mouse wheel: negative scrolls up.
    case wheel(Int, x: Int, y: Int)
    /// The terminal now has this size.
    case resize(width: Int, height: Int)
    /// Text pasted while the terminal's bracketed-paste mode is on, line breaks included.
    case paste(String)
    /// An escape sequence the menu does not know (never taken for Esc).
    case unknown(String)

    /// How the key is written in help and hints: `j`, `Ctrl-C`, `↑`, `Enter`, `F2`.
    package var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-\(letter.uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .function(let number): "F\(number)"
        case .click: "click"
        case .wheel: "wheel"
        case .resize: "resize"
        case .paste: "paste"
        case .unknown: "unknown key"
        }
    }
}
