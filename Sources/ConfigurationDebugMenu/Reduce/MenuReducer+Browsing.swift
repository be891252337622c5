import ServiceConfiguration

extension MenuReducer {
    /// Browsing: moving in the focused pane, filters, and starting changes on the selected key.
    static func browse(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        let layout = state.layout
        let inModules = state.focus == .modules
        let module = ModulePane.index(of: state.filters.scope)
        switch action {
        case .move(let delta) where inModules: selectModule(&state, module + delta)
        case .move(let delta): state.list.move(by: delta, visibleRows: state.visibleKeyRows)
        case .page(let direction) where inModules:
            selectModule(&state, module + direction * max(1, layout.moduleRows.height - 1))
        case .page(let direction):
            state.list.move(by: direction * max(1, state.visibleKeyRows - 1), visibleRows: state.visibleKeyRows)
        case .top where inModules: selectModule(&state, 0)
        case .top: state.list.move(by: -state.list.rows.count, visibleRows: state.visibleKeyRows)
        case .bottom where inModules: selectModule(&state, ModulePane.count(state.data) - 1)
        case .bottom: state.list.move(by: state.list.rows.count, visibleRows: state.visibleKeyRows)
        case .focusKeys: state.focus = .keys
        case .focusModules: state.focus = .modules
        case .activate where inModules: state.focus = .keys
        case .startFilter:
            state.focus = .keys
            state.filters.searchEverywhere = false
            state.mode = .filtering(FilterBar(previous: state.filters.query))
        case .toggleModulePane:
            state.modulePaneShown = !state.layout.showsModules
            if !state.modulePaneShown! { state.focus = .keys }
            state.refreshList()
            revealModule(&state)
        case .toggleOnlyOverridden:
            state.filters.onlyOverridden.toggle()
            state.refreshList()
            state.inform(state.filters.onlyOverridden ? "Showing only overridden keys" : "Showing every key")
        case .toggleOnlyProblems:
            state.filters.onlyProblems.toggle()
            state.refreshList()
            state.inform(
                state.filters.onlyProblems
                    ? "Showing only keys with problems (rejected, stale, orphaned)" : "Showing every key")
        case .toggleOnlySyncChanged:
            state.filters.onlySyncChanged.toggle()
            state.refreshList()
            state.inform(
                state.filters.onlySyncChanged
                    ? "Showing only keys the last server sync changed (↻)" : "Showing every key")
        case .toggleOnlyUnread:
            toggleOnlyUnread(&state)
        case .syncNow:
            return syncNow(&state)
        case .clearFilters:
            guard state.filters.isActive else { break }
            state.filters = KeyFilters()
            state.refreshList()
            state.inform("Filters cleared")
        case .toggle, .activate:
            if let key = state.selectedKey { return open(&state, key) }
            if action == .activate, state.selectedOrphan != nil {
                state.inform("This override's key is not in this program's catalog; r removes it")
            } else if action == .toggle {
                nothingSelected(&state)
            }
        case .editNote:
            let name =
                state.selectedKey.map { state.data.table.keys[$0].descriptor.name }
                ?? state.selectedOrphan.map { state.data.orphans[$0].name }
            guard let name, let entry = currentOverride(state, name) else {
                state.inform("A note goes with an override: set one first, then n")
                break
            }
            state.mode = .editingNote(NoteEditor(name: name, note: entry.note))
        case .externalEdit:
            guard let key = state.selectedKey else {
                nothingSelected(&state)
                break
            }
            let startedFrom = overrideValue(state, key)
            switch state.data.table.keys[key].descriptor.control {
            case .json:
                let text = JSONWriter.pretty(currentText(state, key))
                return [.openExternalEditor(ExternalEdit(key: key, text: text, startedFrom: startedFrom))]
            case .text, .number:
                let text = currentText(state, key)
                return [.openExternalEditor(ExternalEdit(key: key, text: text, startedFrom: startedFrom))]
            case .toggle, .picker:
                state.inform("$EDITOR edits text, number and JSON values; press Enter here")
            }
        case .resetSelected:
            return resetSelected(&state)
        case .step(let steps):
            return step(&state, by: steps)
        case .resetScope:
            askToResetScope(&state)
        case .resetAll:
            let count = state.data.overrideCount
            if count == 0 {
                state.inform("There are no overrides to reset")
            } else {
                state.mode = .confirming(.resetAll(count: count))
            }
        case .undo:
            return undo(&state)
        case .chooseExpiry:
            openExpiry(&state)
        case .pruneExpired:
            askToPrune(&state)
        case .showDetails:
            showDetails(&state)
        case .showMessages:
            state.mode = .paging(Pager(.messages, returnTo: .browsing))
        case .openHistory:
            openHistory(&state)
        case .openScenarios:
            return openScenarios(&state)
        case .help:
            state.mode = .help(HelpScreen(context: state.keymapContext, returnTo: .browsing))
        case .click(let x, let y):
            click(&state, x: x, y: y)
        case .wheel(let delta, let x, let y):
            if layout.modules.contains(x, y) {
                selectModule(&state, module + delta)
            } else {
                state.list.move(by: delta * 3, visibleRows: state.visibleKeyRows)
            }
        default:
            break
        }
        return []
    }

    /// `d`: the selected key's whole details in a pager.
    static func showDetails(_ state: inout MenuState) {
        guard
            let subject = DetailsPane.subject(
                data: state.data, key: state.selectedKey, orphan: state.selectedOrphan,
                unregistered: state.list.selectedUnregistered)
        else {
            state.inform("No key selected")
            return
        }
        state.mode = .paging(Pager(.details(subject), returnTo: .browsing))
    }

    static func nothingSelected(_ state: inout MenuState) {
        state.inform(
            state.selectedOrphan != nil ? "This key is not in the catalog; r removes its override" : "No key selected")
    }

    /// Opens the key's control: flips a Bool, or opens the picker, the one-line editor or the JSON editor.
    private static func open(_ state: inout MenuState, _ key: Int) -> [MenuEffect] {
        let descriptor = state.data.table.keys[key].descriptor
        let current = currentText(state, key)
        switch descriptor.control {
        case .toggle:
            let strings = descriptor.toggleStrings
            return set(&state, key: key, value: effectiveValue(state, key) == strings.on ? strings.off : strings.on)
        case .picker(let choices):
            let currentIndex = choices.firstIndex { $0.value == effectiveValue(state, key) }
            state.mode = .picking(Picker(key: key, choices: choices, current: currentIndex))
        case .text, .number:
            state.mode = .editing(ValueEditor(key: key, text: current, validation: validate(state, key, current)))
        case .json:
            var editor = JSONEditor(
                key: key, text: JSONWriter.pretty(current), validation: validate(state, key, current))
            editor.startedFrom = overrideValue(state, key)
            state.mode = .editingJSON(editor)
        }
        return []
    }

    /// The text an editor starts from: the effective value (the default's wire string for a default); while a change
    /// of the key is pending, the value it asks for.
    static func currentText(_ state: MenuState, _ key: Int) -> String {
        effectiveValue(state, key) ?? state.data.table.keys[key].descriptor.defaultValueString ?? ""
    }

    /// The key's value as the menu shows it: the value a pending change asks for (a removed override: the server
    /// value the key accepts, or the default), else the value now.
    static func effectiveValue(_ state: MenuState, _ key: Int) -> String? {
        state.shownValue(ofKey: key)
    }

    /// The key's override value (`nil`: none), the one a pending change asks for first: what an edit starts from,
    /// to tell later whether another process changed it.
    static func overrideValue(_ state: MenuState, _ key: Int) -> String? {
        state.pendingValue(of: state.data.statuses[key].name).map(\.value) ?? state.data.statuses[key].override?.value
    }

    /// The key's value now, as a question or a warning names it: the override, or the value once it was removed.
    static func valueNow(_ state: MenuState, _ key: Int) -> String {
        state.data.statuses[key].override?.value ?? "\(state.data.statuses[key].value ?? "—") (override removed)"
    }

    /// The module `S` acts on: the one highlighted in the module pane, or the selected key's module in the list.
    static func scopeToReset(_ state: MenuState) -> Int? {
        state.focus == .modules ? state.filters.scope : state.selectedKey.map { state.data.table.keys[$0].scope }
    }

    private static func askToResetScope(_ state: inout MenuState) {
        guard let scope = scopeToReset(state) else {
            if state.focus == .modules {
                // "All" is highlighted: every override.
                state.mode =
                    state.data.overrideCount > 0 ? .confirming(.resetAll(count: state.data.overrideCount)) : state.mode
                if state.data.overrideCount == 0 { state.inform("There are no overrides to reset") }
            } else {
                state.inform(
                    state.selectedOrphan != nil
                        ? "An orphaned override belongs to no module; r removes it, R removes every override"
                        : "Select a module (or a key in it) to reset its overrides")
            }
            return
        }
        let keys = state.data.table.scopes[scope].range.filter { state.data.statuses[$0].override != nil }
            .map { state.data.table.keys[$0].descriptor.name }
        let name = state.data.table.scopes[scope].name
        if keys.isEmpty {
            state.inform("\(name) has no overrides to reset")
        } else {
            state.mode = .confirming(.resetScope(name: name, keys: keys))
        }
    }

    // MARK: Modules and the mouse

    /// Selects module row `index` (clamped): filters the list by its scope and scrolls it into view.
    static func selectModule(_ state: inout MenuState, _ index: Int) {
        let scope = ModulePane.scope(at: index, in: state.data)
        if scope != state.filters.scope {
            state.filters.scope = scope
            state.list.scroll = 0
            state.refreshList(selectFirst: true)
        }
        revealModule(&state)
    }

    /// Scrolls the module pane to the selected module.
    static func revealModule(_ state: inout MenuState) {
        state.modules.reveal(
            ModulePane.index(of: state.filters.scope), visibleRows: state.layout.moduleRows.height,
            total: ModulePane.count(state.data))
    }

    private static func click(_ state: inout MenuState, x: Int, y: Int) {
        let layout = state.layout
        let keyRows = state.listRows
        if layout.moduleRows.contains(x, y) {
            state.focus = .modules
            selectModule(&state, state.modules.index(atLine: y - layout.moduleRows.y))
        } else if layout.keys.contains(x, y), y >= keyRows.y, y < keyRows.maxY {
            state.focus = .keys
            state.list.click(line: y - keyRows.y)
        }
    }
}
