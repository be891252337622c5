import ServiceConfiguration

/// The menu's update function: `(state, action) -> (state, effects)`, pure. Effects (saving, running `$EDITOR`)
/// are performed by the runtime, which reports their outcome as further actions.
public enum MenuReducer {
    /// Applies `action` to `state`; returns the effects to perform.
    public static func reduce(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            keepVisible(&state)
            return []
        case .refreshed(let update):
            apply(update, to: &state)
            return []
        case .writeSucceeded(let write, let undo):
            if let undo {
                state.undoStack.append(undo)
                if state.undoStack.count > 100 { state.undoStack.removeFirst() }
                state.status = .init(text: "Saved: \(write.summary)", isError: false)
            } else {
                // An undo is taken off the stack only once it is saved, so a failed undo can be tried again.
                if state.undoStack.last == write { state.undoStack.removeLast() }
                state.status = .init(text: "Undone: \(write.summary)", isError: false)
            }
            return []
        case .writeFailed(let message):
            state.status = .init(text: "error: not saved: \(message)", isError: true)
            return []
        case .externalEditFinished(let key, let text):
            return finishExternalEdit(&state, key: key, text: text)
        case .externalEditFailed(let message):
            state.status = .init(text: "error: \(message)", isError: true)
            return []
        case .quit:
            return [.quit]
        default:
            break
        }
        state.status = nil
        switch state.mode {
        case .browsing: return browse(&state, action)
        case .filtering: return filter(&state, action)
        case .editing(let editor): return edit(&state, editor, action)
        case .editingJSON(let editor): return editJSON(&state, editor, action)
        case .picking(let picker): return pick(&state, picker, action)
        case .confirming(let confirmation): return confirm(&state, confirmation, action)
        case .help(_, let returnTo):
            if action == .closeHelp { state.mode = returnTo }
            return []
        }
    }

    // MARK: Browsing

    private static func browse(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .move(let delta) where state.focus == .modules: selectModule(&state, moduleIndex(state) + delta)
        case .move(let delta): moveSelection(&state, by: delta)
        case .page(let direction) where state.focus == .modules:
            selectModule(&state, moduleIndex(state) + direction * max(1, state.layout.moduleRows - 1))
        case .page(let direction): moveSelection(&state, by: direction * max(1, state.layout.keyRows - 1))
        case .top where state.focus == .modules: selectModule(&state, 0)
        case .top: moveSelection(&state, by: -state.rows.count)
        case .bottom where state.focus == .modules: selectModule(&state, state.moduleCount - 1)
        case .bottom: moveSelection(&state, by: state.rows.count)
        case .focusKeys: state.focus = .keys
        case .focusModules: state.focus = .modules
        case .startFilter:
            state.focus = .keys
            state.mode = .filtering(previous: state.query)
        case .toggleOnlyOverridden:
            state.onlyOverridden.toggle()
            refreshRows(&state)
            state.status = .init(
                text: state.onlyOverridden ? "Showing only overridden keys" : "Showing every key", isError: false)
        case .toggleOnlyProblems:
            state.onlyProblems.toggle()
            refreshRows(&state)
            state.status = .init(
                text: state.onlyProblems
                    ? "Showing only keys with problems (rejected, stale, orphaned)" : "Showing every key",
                isError: false
            )
        case .clearFilters:
            guard !state.query.isEmpty || state.scope != nil || state.onlyOverridden || state.onlyProblems else {
                break
            }
            state.query = ""
            state.scope = nil
            state.onlyOverridden = false
            state.onlyProblems = false
            refreshRows(&state)
            state.status = .init(text: "Filters cleared", isError: false)
        case .toggle:
            guard let key = state.selectedKey else { return nothingSelected(&state) }
            if state.data.table.keys[key].descriptor.control == .toggle { return flip(&state, key) }
            return open(&state, key)
        case .activate:
            if state.focus == .modules {
                state.focus = .keys
                break
            }
            if let key = state.selectedKey {
                if state.data.table.keys[key].descriptor.control == .toggle { return flip(&state, key) }
                return open(&state, key)
            }
            if state.selectedOrphan != nil {
                state.status = .init(
                    text: "This override's key is not in this program's catalog; r removes it", isError: false)
            }
        case .externalEdit:
            guard let key = state.selectedKey else { return nothingSelected(&state) }
            switch state.data.table.keys[key].descriptor.control {
            case .json:
                return [.openExternalEditor(key: key, text: JSONWriter.pretty(currentText(state, key)))]
            case .text, .number:
                return [.openExternalEditor(key: key, text: currentText(state, key))]
            case .toggle, .picker:
                state.status = .init(
                    text: "$EDITOR edits text, number and JSON values; press Enter here", isError: false)
            }
        case .resetSelected:
            return resetSelected(&state)
        case .resetScope:
            let scope = state.scope ?? state.selectedKey.map { state.data.table.keys[$0].scope }
            guard let scope else {
                state.status = .init(text: "Select a scope (or a key in it) to reset its overrides", isError: false)
                break
            }
            let keys = state.data.table.scopes[scope].range.filter { state.data.statuses[$0].override != nil }
                .map { state.data.table.keys[$0].descriptor.name }
            let name = state.data.table.scopes[scope].name
            if keys.isEmpty {
                state.status = .init(text: "\(name) has no overrides to reset", isError: false)
            } else {
                state.mode = .confirming(.resetScope(name: name, keys: keys))
            }
        case .resetAll:
            let count = state.data.overrideCount
            if count == 0 {
                state.status = .init(text: "There are no overrides to reset", isError: false)
            } else {
                state.mode = .confirming(.resetAll(count: count))
            }
        case .undo:
            guard let step = state.undoStack.last else {
                state.status = .init(text: "Nothing to undo", isError: false)
                break
            }
            return [.write(step, undo: nil)]
        case .help:
            state.mode = .help(state.keymapContext, returnTo: .browsing)
        case .click(let x, let y):
            click(&state, x: x, y: y)
        case .wheel(let delta, let x, let y):
            wheel(&state, delta: delta, x: x, y: y)
        default:
            break
        }
        return []
    }

    private static func nothingSelected(_ state: inout MenuState) -> [MenuEffect] {
        state.status = .init(
            text: state.selectedOrphan != nil
                ? "This key is not in the catalog; r removes its override" : "No key selected", isError: false)
        return []
    }

    private static func flip(_ state: inout MenuState, _ key: Int) -> [MenuEffect] {
        let strings = state.data.table.keys[key].descriptor.toggleStrings
        let next = state.data.statuses[key].value == strings.on ? strings.off : strings.on
        return set(&state, key: key, value: next)
    }

    /// Saves `value` as the key's override, with the previous override as the undo step.
    private static func set(_ state: inout MenuState, key: Int, value: String) -> [MenuEffect] {
        let name = state.data.table.keys[key].descriptor.name
        let previous = state.data.statuses[key].override
        let write = OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)")
        let undo = OverrideWrite(
            changes: [.init(key: name, value: previous?.value, entry: previous?.entry)],
            summary: previous.map { "\(name) = \($0.value)" } ?? "\(name) override removed"
        )
        return [.write(write, undo: undo)]
    }

    /// The current override of the key or orphan named `name`, if any.
    private static func currentOverride(_ state: MenuState, _ name: String) -> OverrideInfo? {
        if let index = state.data.table.index(of: name) { return state.data.statuses[index].override }
        return state.data.orphans.first { $0.name == name }?.override
    }

    private static func resetSelected(_ state: inout MenuState) -> [MenuEffect] {
        let name: String
        if let key = state.selectedKey {
            name = state.data.table.keys[key].descriptor.name
        } else if let orphan = state.selectedOrphan {
            name = state.data.orphans[orphan].name
        } else {
            return nothingSelected(&state)
        }
        guard let previous = currentOverride(state, name) else {
            state.status = .init(text: "\(name) has no override", isError: false)
            return []
        }
        return [
            .write(
                OverrideWrite(changes: [.init(key: name, value: nil)], summary: "\(name) override removed"),
                undo: OverrideWrite(
                    changes: [.init(key: name, value: previous.value, entry: previous.entry)],
                    summary: "\(name) = \(previous.value)"
                )
            )
        ]
    }

    /// Opens the control for a non-Bool key: the picker, the one-line editor or the JSON editor.
    private static func open(_ state: inout MenuState, _ key: Int) -> [MenuEffect] {
        let descriptor = state.data.table.keys[key].descriptor
        let current = currentText(state, key)
        switch descriptor.control {
        case .toggle:
            return flip(&state, key)
        case .picker(let choices):
            let currentIndex = choices.firstIndex { $0.value == state.data.statuses[key].value }
            state.mode = .picking(
                Picker(key: key, choices: choices, selected: currentIndex ?? 0, current: currentIndex))
        case .text, .number:
            let text = Array(current)
            state.mode = .editing(
                TextEditor(key: key, text: text, cursor: text.count, validation: validate(state, key, current))
            )
        case .json:
            let lines = JSONWriter.pretty(current).split(separator: "\n", omittingEmptySubsequences: false).map(
                Array.init)
            state.mode = .editingJSON(
                JSONEditor(
                    key: key, lines: lines, row: 0, column: 0, scroll: 0, validation: validate(state, key, current))
            )
        }
        return []
    }

    /// The text an editor starts from: the effective value (the default's wire string for a default).
    static func currentText(_ state: MenuState, _ key: Int) -> String {
        state.data.statuses[key].value ?? state.data.table.keys[key].descriptor.defaultValueString ?? ""
    }

    static func validate(_ state: MenuState, _ key: Int, _ text: String) -> Validation {
        do {
            return .valid(try state.data.table.keys[key].descriptor.validate(text))
        } catch {
            return .invalid(error.description)
        }
    }

    // MARK: Filtering

    private static func filter(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .filterInsert(let character):
            state.query.append(character)
            refreshRows(&state, selectFirst: true)
        case .filterBackspace:
            if !state.query.isEmpty { state.query.removeLast() }
            refreshRows(&state, selectFirst: true)
        case .filterErase:
            state.query = ""
            refreshRows(&state, selectFirst: true)
        case .filterAccept:
            state.mode = .browsing
        case .filterCancel:
            state.query = ""
            state.mode = .browsing
            refreshRows(&state)
        case .move(let delta):
            moveSelection(&state, by: delta)
        case .help:
            state.mode = .help(.filtering, returnTo: state.mode)
        default:
            break
        }
        return []
    }

    // MARK: Editors

    private static func edit(_ state: inout MenuState, _ editor: TextEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editInsert(let character):
            editor.text.insert(character, at: editor.cursor)
            editor.cursor += 1
        case .editMove(let move):
            editor.cursor = LineEditing.move(editor.cursor, in: editor.text, move)
        case .editDelete(let deletion):
            (editor.text, editor.cursor) = LineEditing.delete(deletion, in: editor.text, at: editor.cursor)
        case .editSave:
            return save(&state, key: editor.key, editor.validation)
        case .editCancel:
            state.mode = .browsing
            return []
        case .help:
            state.mode = .help(.editing, returnTo: state.mode)
            return []
        default:
            return []
        }
        editor.validation = validate(state, editor.key, String(editor.text))
        state.mode = .editing(editor)
        return []
    }

    private static func editJSON(_ state: inout MenuState, _ editor: JSONEditor, _ action: MenuAction) -> [MenuEffect] {
        var editor = editor
        switch action {
        case .editInsert(let character):
            editor.lines[editor.row].insert(character, at: editor.column)
            editor.column += 1
        case .editNewline:
            let rest = Array(editor.lines[editor.row][editor.column...])
            editor.lines[editor.row].removeSubrange(editor.column...)
            let indent = editor.lines[editor.row].prefix { $0 == " " }
            editor.lines.insert(Array(indent) + rest, at: editor.row + 1)
            editor.row += 1
            editor.column = indent.count
        case .editMove(.up):
            if editor.row > 0 {
                editor.row -= 1
                editor.column = min(editor.column, editor.lines[editor.row].count)
            }
        case .editMove(.down):
            if editor.row < editor.lines.count - 1 {
                editor.row += 1
                editor.column = min(editor.column, editor.lines[editor.row].count)
            }
        case .editMove(let move):
            if move == .left, editor.column == 0, editor.row > 0 {
                editor.row -= 1
                editor.column = editor.lines[editor.row].count
            } else if move == .right, editor.column == editor.lines[editor.row].count,
                editor.row < editor.lines.count - 1
            {
                editor.row += 1
                editor.column = 0
            } else {
                editor.column = LineEditing.move(editor.column, in: editor.lines[editor.row], move)
            }
        case .editDelete(.backward) where editor.column == 0 && editor.row > 0:
            let line = editor.lines.remove(at: editor.row)
            editor.row -= 1
            editor.column = editor.lines[editor.row].count
            editor.lines[editor.row] += line
        case .editDelete(.forward)
        where editor.column == editor.lines[editor.row].count && editor.row < editor.lines.count - 1:
            editor.lines[editor.row] += editor.lines.remove(at: editor.row + 1)
        case .editDelete(let deletion):
            (editor.lines[editor.row], editor.column) = LineEditing.delete(
                deletion, in: editor.lines[editor.row], at: editor.column)
        case .editSave:
            return save(&state, key: editor.key, editor.validation)
        case .editCancel:
            state.mode = .browsing
            return []
        case .externalEdit:
            return [.openExternalEditor(key: editor.key, text: editor.text)]
        case .help:
            state.mode = .help(.editingJSON, returnTo: state.mode)
            return []
        default:
            return []
        }
        editor.validation = validate(state, editor.key, editor.text)
        keepCaretVisible(&editor, rows: jsonEditorRows(state))
        state.mode = .editingJSON(editor)
        return []
    }

    /// Saves an editor's value if it is valid; otherwise says why and stays in the editor.
    private static func save(_ state: inout MenuState, key: Int, _ validation: Validation) -> [MenuEffect] {
        switch validation {
        case .valid(let canonical):
            state.mode = .browsing
            return set(&state, key: key, value: canonical)
        case .invalid(let reason):
            state.status = .init(text: "error: not saved: \(reason)", isError: true)
            return []
        }
    }

    /// The number of text rows the JSON editor shows (the renderer uses the same figure).
    static func jsonEditorRows(_ state: MenuState) -> Int { max(3, state.height - 8) }

    private static func keepCaretVisible(_ editor: inout JSONEditor, rows: Int) {
        if editor.row < editor.scroll { editor.scroll = editor.row }
        if editor.row >= editor.scroll + rows { editor.scroll = editor.row - rows + 1 }
    }

    private static func finishExternalEdit(_ state: inout MenuState, key: Int, text: String) -> [MenuEffect] {
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        let validation = validate(state, key, text)
        if case .valid(let canonical) = validation {
            state.mode = .browsing
            return set(&state, key: key, value: canonical)
        }
        // Invalid: keep the person's text in the menu's editor, with the reason, so nothing typed is lost.
        if state.data.table.keys[key].descriptor.control == .json {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
            state.mode = .editingJSON(
                JSONEditor(key: key, lines: lines, row: 0, column: 0, scroll: 0, validation: validation))
        } else {
            let characters = Array(text.replacingOccurrences(of: "\n", with: " "))
            state.mode = .editing(
                TextEditor(key: key, text: characters, cursor: characters.count, validation: validation))
        }
        if case .invalid(let reason) = validation {
            state.status = .init(text: "error: not saved: \(reason)", isError: true)
        }
        return []
    }

    // MARK: Picker and confirmation

    private static func pick(_ state: inout MenuState, _ picker: Picker, _ action: MenuAction) -> [MenuEffect] {
        var picker = picker
        switch action {
        case .move(let delta): picker.selected = max(0, min(picker.choices.count - 1, picker.selected + delta))
        case .top: picker.selected = 0
        case .bottom: picker.selected = max(0, picker.choices.count - 1)
        case .pickerChoose:
            state.mode = .browsing
            guard picker.choices.indices.contains(picker.selected) else { return [] }
            let choice = picker.choices[picker.selected]
            if picker.selected == picker.current, state.data.statuses[picker.key].source == .overridden {
                state.status = .init(text: "Unchanged: \(choice.title)", isError: false)
                return []
            }
            return set(&state, key: picker.key, value: choice.value)
        case .pickerCancel:
            state.mode = .browsing
            return []
        case .help:
            state.mode = .help(.picking, returnTo: state.mode)
            return []
        default:
            return []
        }
        state.mode = .picking(picker)
        return []
    }

    private static func confirm(_ state: inout MenuState, _ confirmation: Confirmation, _ action: MenuAction)
        -> [MenuEffect]
    {
        switch action {
        case .confirm:
            state.mode = .browsing
            let names: [String]
            let summary: String
            switch confirmation {
            case .resetAll(let count):
                names =
                    state.data.table.keys.indices.filter { state.data.statuses[$0].override != nil }
                    .map { state.data.table.keys[$0].descriptor.name } + state.data.orphans.map(\.name)
                summary = "all \(count) overrides removed"
            case .resetScope(let name, let keys):
                names = keys
                summary = "\(keys.count) override\(keys.count == 1 ? "" : "s") in \(name) removed"
            }
            let previous = names.map { name -> OverrideWrite.Change in
                let override = currentOverride(state, name)
                return .init(key: name, value: override?.value, entry: override?.entry)
            }
            return [
                .write(
                    OverrideWrite(changes: names.map { .init(key: $0, value: nil) }, summary: summary),
                    undo: OverrideWrite(
                        changes: previous, summary: "\(names.count) override\(names.count == 1 ? "" : "s") restored")
                )
            ]
        case .cancel:
            state.mode = .browsing
            state.status = .init(text: "Nothing was reset", isError: false)
        default:
            break
        }
        return []
    }

    // MARK: Mouse

    private static func click(_ state: inout MenuState, x: Int, y: Int) {
        let layout = state.layout
        if layout.modules.contains(x, y), y >= layout.firstModuleRow, y < layout.modules.y + layout.modules.height - 1 {
            state.focus = .modules
            selectModule(&state, state.moduleScroll + y - layout.firstModuleRow)
        } else if layout.keys.contains(x, y), y > layout.keys.y, y < layout.keys.y + layout.keys.height - 1 {
            state.focus = .keys
            let row = state.scroll + y - layout.keys.y - 1
            if state.rows.indices.contains(row), state.rows[row].isSelectable { state.selection = row }
        }
    }

    private static func wheel(_ state: inout MenuState, delta: Int, x: Int, y: Int) {
        if state.layout.modules.contains(x, y) {
            selectModule(&state, moduleIndex(state) + delta)
        } else {
            moveSelection(&state, by: delta * 3)
        }
    }

    // MARK: Rows and selection

    private static func moduleIndex(_ state: MenuState) -> Int { state.scope.map { $0 + 1 } ?? 0 }

    private static func selectModule(_ state: inout MenuState, _ index: Int) {
        let clamped = max(0, min(state.moduleCount - 1, index))
        let scope = clamped == 0 ? nil : clamped - 1
        if scope != state.scope {
            state.scope = scope
            state.scroll = 0
            refreshRows(&state, selectFirst: true)
        }
        let rows = state.layout.moduleRows
        if clamped < state.moduleScroll { state.moduleScroll = clamped }
        if clamped >= state.moduleScroll + rows { state.moduleScroll = clamped - rows + 1 }
    }

    /// Moves the selection `delta` selectable rows (clamped at the ends).
    static func moveSelection(_ state: inout MenuState, by delta: Int) {
        guard !state.rows.isEmpty else { return }
        var index = state.selection
        var remaining = abs(delta)
        let step = delta < 0 ? -1 : 1
        var candidate = index
        while remaining > 0 {
            candidate += step
            guard state.rows.indices.contains(candidate) else { break }
            if state.rows[candidate].isSelectable {
                index = candidate
                remaining -= 1
            }
        }
        state.selection = index
        keepVisible(&state)
    }

    /// Keeps the selection on screen, and a heading above the first key visible when scrolled to the top.
    static func keepVisible(_ state: inout MenuState) {
        let rows = state.layout.keyRows
        if state.selection < state.scroll { state.scroll = state.selection }
        if state.selection == firstSelectable(state) { state.scroll = 0 }
        if state.selection >= state.scroll + rows { state.scroll = state.selection - rows + 1 }
        state.scroll = max(0, min(state.scroll, max(0, state.rows.count - rows)))
        let moduleRows = state.layout.moduleRows
        let module = moduleIndex(state)
        if module < state.moduleScroll { state.moduleScroll = module }
        if module >= state.moduleScroll + moduleRows { state.moduleScroll = module - moduleRows + 1 }
        state.moduleScroll = max(0, min(state.moduleScroll, max(0, state.moduleCount - moduleRows)))
    }

    private static func firstSelectable(_ state: MenuState) -> Int {
        state.rows.firstIndex(where: \.isSelectable) ?? 0
    }

    private static func apply(_ update: MenuDataUpdate, to state: inout MenuState) {
        for (index, status) in update.statuses where state.data.statuses.indices.contains(index) {
            state.data.setStatus(status, at: index)
        }
        state.data.orphans = update.orphans
        state.data.storeProblem = update.storeProblem
        refreshRows(&state)
    }

    /// Recomputes the key list from the data and the filters, keeping the selected item selected if it is still
    /// listed (or selecting the first item, with `selectFirst`).
    static func refreshRows(_ state: inout MenuState, selectFirst: Bool = false) {
        let previous = state.rows.indices.contains(state.selection) ? state.rows[state.selection] : nil
        state.rows = computeRows(&state)
        state.keyRowCount = state.rows.reduce(0) { count, row in
            if case .key = row { return count + 1 }
            return count
        }
        if !selectFirst, let previous, let index = state.rows.firstIndex(of: previous) {
            state.selection = index
        } else if selectFirst {
            state.selection = firstSelectable(state)
            state.scroll = 0
        } else {
            state.selection = min(state.selection, max(0, state.rows.count - 1))
            if state.rows.indices.contains(state.selection), !state.rows[state.selection].isSelectable {
                state.selection =
                    state.rows[state.selection...].firstIndex(where: \.isSelectable)
                    ?? state.rows[..<state.selection].lastIndex(where: \.isSelectable) ?? 0
            }
        }
        keepVisible(&state)
    }

    private static func computeRows(_ state: inout MenuState) -> [MenuState.Row] {
        let table = state.data.table
        let statuses = state.data.statuses
        let onlyOverridden = state.onlyOverridden
        let onlyProblems = state.onlyProblems
        func passes(_ key: Int) -> Bool {
            (!onlyOverridden || statuses[key].override != nil) && (!onlyProblems || statuses[key].hasProblem)
        }
        let matcher = FuzzyMatcher(query: state.query)
        var rows: [MenuState.Row] = []
        if matcher.isEmpty {
            state.filterCache = nil
            let scopes = state.scope.map { [$0] } ?? Array(table.scopes.indices)
            for scope in scopes {
                let keys = table.scopes[scope].range.filter(passes)
                if keys.isEmpty { continue }
                rows.append(.heading(scope: scope))
                rows.append(contentsOf: keys.map { .key($0) })
            }
        } else {
            let candidates: [Int]?
            if let cache = state.filterCache, cache.scope == state.scope, state.query.hasPrefix(cache.query) {
                candidates = cache.keys
            } else {
                candidates = state.scope.map { Array(table.scopes[$0].range) }
            }
            let matches = matcher.rank(table, candidates: candidates)
            state.filterCache = MenuState.FilterCache(query: state.query, scope: state.scope, keys: matches.map(\.key))
            rows = matches.lazy.map(\.key).filter(passes).map { .key($0) }
        }
        if state.scope == nil {
            let query = state.query.lowercased().filter { $0 != " " }
            let orphans = state.data.orphans.indices.filter { index in
                query.isEmpty || state.data.orphans[index].name.lowercased().containsSubsequence(query)
            }
            if !orphans.isEmpty {
                rows.append(.orphanHeading)
                rows.append(contentsOf: orphans.map { .orphan($0) })
            }
        }
        return rows
    }
}

extension String {
    /// Whether `other`'s characters appear in this string in order.
    func containsSubsequence(_ other: String) -> Bool {
        var iterator = other.makeIterator()
        var next = iterator.next()
        for character in self where character == next {
            next = iterator.next()
            if next == nil { return true }
        }
        return next == nil
    }
}
