import ServiceConfiguration

/// The bottom line: the status message after an action, then the keys that do something for what is selected in
/// the current mode, most important first (from the key map's hints). Help and quit always stay.
package enum Footer {
    /// Draws the status message (if any) and the hints of `keymap` for what `hints` says is selected and possible.
    /// A message too long for the line ends in `… L shows all` (the message log's key, when `keymap` binds it).
    package static func draw(
        into grid: inout ScreenGrid, in row: Rect, status: StatusMessage?, keymap: Keymap, hints: HintContext,
        theme: MenuTheme
    ) {
        var rest = row.inset(left: 1)
        if let status {
            let text = cut(VisibleText.escaped(status.text), to: rest.width, keymap: keymap)
            let end = grid.write(text, in: rest, style: status.isError ? theme.problem : theme.label)
            rest = row.inset(left: end - row.x + 3)
        }
        drawHints(&grid, keymap.bindings, context: hints, in: rest, theme: theme)
    }

    /// `text` in `columns`: whole when it fits, else cut, ending in `… L shows all` when `keymap` binds the message
    /// log's key (or `(L)` when only that fits), else in `…`.
    static func cut(_ text: String, to columns: Int, keymap: Keymap) -> String {
        guard TextWidth.of(text) > columns else { return text }
        guard let key = keymap.keyLabel(for: .showMessages) else {
            return TextWidth.truncate(text, to: columns)
        }
        for more in [" … \(key) shows all", "…(\(key))"] where columns > TextWidth.of(more) + 8 {
            return String(TextWidth.truncate(text, to: columns - TextWidth.of(more) + 1).dropLast()) + more
        }
        return TextWidth.truncate(text, to: columns)
    }

    /// Writes "key word" pairs, most important first, leaving out the least important ones that do not fit.
    static func drawHints(
        _ grid: inout ScreenGrid, _ bindings: [KeyBinding], context: HintContext, in row: Rect, theme: MenuTheme
    ) {
        let hints = bindings.compactMap { binding -> (key: String, word: String, priority: Int)? in
            guard let word = binding.hint(context), let key = binding.keys.first?.label else { return nil }
            return (key, word, binding.priority)
        }.sorted { $0.priority < $1.priority }
        func width(_ hint: (key: String, word: String, priority: Int)) -> Int {
            TextWidth.of(hint.key) + 1 + TextWidth.of(hint.word) + 2
        }
        var room = row.width - hints.filter { $0.priority >= 90 }.reduce(0) { $0 + width($1) }
        var shown: [(key: String, word: String, priority: Int)] = []
        for hint in hints {
            if hint.priority >= 90 {
                shown.append(hint)
            } else if width(hint) <= room {
                shown.append(hint)
                room -= width(hint)
            }
        }
        var column = row.x
        for hint in shown where column + width(hint) <= row.maxX {
            column = grid.write(hint.key, x: column, y: row.y, style: theme.key)
            column = grid.write(" " + hint.word + "  ", x: column, y: row.y, style: theme.muted)
        }
    }
}
