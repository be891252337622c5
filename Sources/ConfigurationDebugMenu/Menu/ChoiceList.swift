/// What every list of choices shares (the picker, the expiry, bulk and copy menus): the highlight moved by j/k, g/G
/// and their arrows, clamped to the list.
enum ChoiceList {
    /// The highlight after `intent` in a list of `count` choices, or `nil` when `intent` does not move it.
    static func moved(_ selected: Int, by intent: MenuIntent, count: Int) -> Int? {
        switch intent {
        case .move(let delta): max(0, min(count - 1, selected + delta))
        case .top: 0
        case .bottom: max(0, count - 1)
        default: nil
        }
    }
}

extension Keymap {
    /// The keys that move the highlight in a list of choices: "next action", "first action"...
    static func choiceMoves(_ noun: String) -> [KeyBinding] {
        [
            bind([.character("j"), .down], .move(1), "next \(noun)"),
            bind([.character("k"), .up], .move(-1), "previous \(noun)"),
            bind([.character("g"), .home], .top, "first \(noun)"),
            bind([.character("G"), .end], .bottom, "last \(noun)"),
        ]
    }
}
