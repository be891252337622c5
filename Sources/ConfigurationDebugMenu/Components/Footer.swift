import ServiceConfiguration

/// The bottom line: the status message after an action, then the keys that do something for what is selected in
/// the current mode, most important first (from the key map's hints). Help and quit always stay.
package enum Footer {
    /// Draws the status message (if any) and the current hints. A message too long for the line ends in
    /// `… L shows all` (the message log's key, when it works in the current mode).
    package static func draw(into grid: inout ScreenGrid, in row: Rect, state: MenuState, theme: MenuTheme) {
        var rest = row.inset(left: 1)
        if let status = state.status {
            let text = cut(VisibleText.escaped(status.text), to: rest.width, context: state.keymapContext)
            let end = grid.write(text, in: rest, style: status.isError ? theme.problem : theme.label)
            rest = row.inset(left: end - row.x + 3)
        }
        drawHints(&grid, Keymap.bindings(for: state.keymapContext), context: HintContext(state), in: rest, theme: theme)
    }

    /// `text` in `columns`: whole when it fits, else cut, ending in `… L shows all` when the message log's key works
    /// in `context` (or `(L)` when only that fits), else in `…`.
    static func cut(_ text: String, to columns: Int, context: KeymapContext) -> String {
        guard TextWidth.of(text) > columns else { return text }
        guard let key = Keymap.keyLabel(for: .showMessages, in: context) else {
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

extension HintContext {
    /// What is selected and possible in `state`.
    package init(_ state: MenuState) {
        self.init()
        let data = state.data
        if let key = state.selectedKey {
            control = data.table.keys[key].descriptor.control
            hasOverride = data.statuses[key].override != nil
        } else if state.selectedOrphan != nil {
            orphanSelected = true
            hasOverride = true
        }
        filtersActive = state.filters.isActive
        canUndo = data.history.lastUndoable != nil
        anyExpired = data.expiredCount > 0
        if let key = state.selectedKey { isRedundant = data.statuses[key].isRedundant }
        anyOverrides = data.overrideCount > 0
        modulePaneShown = state.layout.showsModules
        moduleSelected = state.filters.scope != nil
        searchEverywhere = state.filters.searchEverywhere
        hasServer = data.showsServerLine
        hasSyncChanges = (data.server?.changedCount ?? 0) > 0 || state.filters.onlySyncChanged
        hasCoverage = data.coverage.recordsReads || state.filters.onlyUnread
        hasMessages = !state.messages.isEmpty
        hasDetails = state.selectedKey != nil || state.selectedOrphan != nil || state.list.selectedUnregistered != nil
        if let scope = MenuReducer.scopeToReset(state) {
            moduleHasOverrides = data.scopeOverrideCounts[scope] > 0
        } else {
            moduleHasOverrides = state.focus == .modules && anyOverrides
        }
    }
}
