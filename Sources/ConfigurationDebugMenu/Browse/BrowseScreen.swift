import ServiceConfiguration
import ServiceConfigurationFileStore

/// The browse screen: the module pane, the key list and the details of the selected key, under the title bar. It is
/// the menu's home (``MenuState/Mode/browsing``) and keeps no state of its own: what it shows is the menu's — the
/// list (``MenuState/list``), the module pane's scroll position, the filters and which pane has the keyboard
/// (``MenuState/focus``), which other components (the filter bar, a search) change too.
///
/// Moving, filters and the keys that act on the selected key are here; `BrowseScreen+Keys.swift` holds its key maps,
/// `BrowseScreen+Drawing.swift` the screen.
package struct BrowseScreen: MenuComponent {
    package init() {}

    package var mode: MenuState.Mode { .browsing }

    package var placement: MenuPlacement { .screen }

    package func keymap(in menu: MenuState) -> Keymap { menu.focus == .modules ? .modules : .keys }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        let layout = state.layout
        let inModules = state.focus == .modules
        let module = ModulePane.index(of: state.filters.scope)
        switch intent {
        case .move(let delta) where inModules: Self.selectModule(&state, module + delta)
        case .move(let delta): state.list.move(by: delta, visibleRows: state.visibleKeyRows)
        case .page(let direction) where inModules:
            Self.selectModule(&state, module + direction * max(1, layout.moduleRows.height - 1))
        case .page(let direction):
            state.list.move(by: direction * max(1, state.visibleKeyRows - 1), visibleRows: state.visibleKeyRows)
        case .top where inModules: Self.selectModule(&state, 0)
        case .top: state.list.move(by: -state.list.rows.count, visibleRows: state.visibleKeyRows)
        case .bottom where inModules: Self.selectModule(&state, ModulePane.count(state.data) - 1)
        case .bottom: state.list.move(by: state.list.rows.count, visibleRows: state.visibleKeyRows)
        case .jumpToModule(let place):
            guard place < ModulePane.count(state.data) else {
                state.inform("There is no module \(place): the pane lists \(ModulePane.count(state.data) - 1)")
                break
            }
            Self.selectModule(&state, place)
        case .focusKeys: state.focus = .keys
        case .focusModules: state.focus = .modules
        case .activate where inModules: state.focus = .keys
        case .toggleModulePane:
            state.modulePaneShown = !state.layout.showsModules
            if !state.modulePaneShown! { state.focus = .keys }
            state.refreshList()
            Self.revealModule(&state)
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
            Self.toggleOnlyUnread(&state)
        case .toggleOnlyInvisible:
            state.filters.onlyInvisible.toggle()
            state.refreshList(selectFirst: true)
            state.inform(
                state.filters.onlyInvisible
                    ? "Showing only keys whose values hold invisible or control characters (shown as \\u{…}, \\t)"
                    : "Showing every key")
        case .syncNow:
            return .stay(Self.syncNow(&state))
        case .clearFilters where !state.marks.isEmpty:
            state.clearMarks()
        case .toggleMark where inModules:
            state.inform("Marks are on keys: Tab to the key list, then v")
        case .toggleMark:
            state.toggleMark()
        case .markShown:
            state.markShown()
        case .clearFilters:
            guard state.filters.isActive else { break }
            state.filters = KeyFilters()
            state.refreshList()
            state.inform("Filters cleared")
        case .toggle, .activate:
            if let key = state.selectedKey { return Self.open(&state, key) }
            if intent == .activate, state.selectedOrphan != nil {
                state.inform("This override's key is not in this program's catalog; r removes it")
            } else if intent == .toggle {
                state.nothingSelected()
            }
        case .externalEdit:
            guard let key = state.selectedKey else {
                state.nothingSelected()
                break
            }
            guard let edit = state.data.table.keys[key].descriptor.control.externalEdit(of: key, in: state) else {
                state.inform("$EDITOR edits text, number and JSON values; press Enter here")
                break
            }
            return .stay([.openExternalEditor(edit)])
        case .resetSelected:
            return .stay(Self.resetSelected(&state))
        case .step(let steps):
            return .stay(Self.step(&state, by: steps))
        case .toBound(let maximum):
            return .stay(Self.toBound(&state, maximum: maximum))
        case .resetScope:
            return Self.askToResetScope(&state)
        case .resetAll:
            let count = state.data.overrideCount
            if count == 0 {
                state.inform("There are no overrides to reset")
            } else {
                return .go(.confirming(.resetAll(count: count)))
            }
        case .undo:
            return .stay(state.undo())
        case .redo:
            return .stay(state.redo())
        case .pruneExpired:
            let count = state.data.expiredCount
            if count == 0 {
                state.inform("No override has expired")
            } else {
                return .go(.confirming(.pruneExpired(count: count)))
            }
        case .showDetails:
            return Pager.openDetails(&state, returnTo: .browsing)
        case .click(let x, let y):
            Self.click(&state, x: x, y: y)
        case .wheel(let delta, let x, let y):
            if layout.modules.contains(x, y) {
                Self.selectModule(&state, module + delta)
            } else {
                state.list.move(by: delta * 3, visibleRows: state.visibleKeyRows)
            }
        default:
            return .ignored
        }
        return .stay
    }

    package func draw(into grid: inout ScreenGrid, in rect: Rect, menu: MenuState, theme: MenuTheme) {
        Self.draw(menu, around: nil, into: &grid, theme: theme)
    }

    // MARK: Acting on the selected key

    /// Opens the key's control: flips a Bool, or opens the control's editor (the picker, the one-line editor, the
    /// JSON editor).
    private static func open(_ state: inout MenuState, _ key: Int) -> MenuOutcome {
        let descriptor = state.data.table.keys[key].descriptor
        if descriptor.control == .toggle {
            let strings = descriptor.toggleStrings
            return .stay(
                state.set(key: key, value: state.shownValue(ofKey: key) == strings.on ? strings.off : strings.on))
        }
        return .go(descriptor.control.editor(of: key, in: state))
    }

    /// `+`/`-`: moves a number key with a range by `steps` steps, within its range.
    private static func step(_ state: inout MenuState, by steps: Int) -> [MenuEffect] {
        guard let key = state.selectedKey else {
            state.nothingSelected()
            return []
        }
        let descriptor = state.data.table.keys[key].descriptor
        guard case .number(let kind, let range?) = descriptor.control else {
            state.inform("+ and - step numbers with a range; Enter \(descriptor.control.enterVerb) this value")
            return []
        }
        let current = state.currentText(key)
        guard let next = range.stepped(current, by: steps, kind: kind), next != current else {
            state.inform(
                "\(descriptor.name) is at the \(steps > 0 ? "top" : "bottom") of its range (\(range.description))")
            return []
        }
        return state.set(key: key, value: next)
    }

    /// `<`/`>`: sets a number key with a range to its minimum or maximum.
    private static func toBound(_ state: inout MenuState, maximum: Bool) -> [MenuEffect] {
        guard let key = state.selectedKey else {
            state.nothingSelected()
            return []
        }
        let descriptor = state.data.table.keys[key].descriptor
        guard case .number(_, let range?) = descriptor.control else {
            state.inform(
                "< and > set numbers with a range to their ends; Enter \(descriptor.control.enterVerb) this value")
            return []
        }
        let bound = maximum ? range.maximum : range.minimum
        guard state.currentText(key) != bound else {
            state.inform(
                "\(descriptor.name) is at its \(maximum ? "maximum" : "minimum") already (\(range.description))")
            return []
        }
        return state.set(key: key, value: bound)
    }

    /// `r`: removes the selected key's (or orphan's) override.
    private static func resetSelected(_ state: inout MenuState) -> [MenuEffect] {
        let name: String
        if let key = state.selectedKey {
            name = state.data.table.keys[key].descriptor.name
        } else if let orphan = state.selectedOrphan {
            name = state.data.orphans[orphan].name
        } else {
            state.nothingSelected()
            return []
        }
        let pending = state.pendingValue(of: name)
        guard
            pending.map({ $0.value != nil })
                ?? (state.currentOverride(name) != nil || state.status(name)?.isQuarantined == true)
        else {
            state.inform("\(name) has no override" + (pending == nil ? "" : " (its removal is being saved)"))
            return []
        }
        let summary =
            state.currentOverride(name) == nil && pending == nil
            ? "\(name) unreadable entry removed" : "\(name) override removed"
        return [state.write(OverrideWrite(changes: [.init(key: name, value: nil)], summary: summary))]
    }

    /// The module `S` acts on: the one highlighted in the module pane, or the selected key's module in the list.
    static func scopeToReset(_ state: MenuState) -> Int? {
        state.focus == .modules ? state.filters.scope : state.selectedKey.map { state.data.table.keys[$0].scope }
    }

    private static func askToResetScope(_ state: inout MenuState) -> MenuOutcome {
        guard let scope = scopeToReset(state) else {
            if state.focus == .modules {
                // "All" is highlighted: every override.
                if state.data.overrideCount > 0 { return .go(.confirming(.resetAll(count: state.data.overrideCount))) }
                state.inform("There are no overrides to reset")
            } else {
                state.inform(
                    state.selectedOrphan != nil
                        ? "An orphaned override belongs to no module; r removes it, R removes every override"
                        : "Select a module (or a key in it) to reset its overrides")
            }
            return .stay
        }
        let keys = state.data.table.scopes[scope].range.filter { state.data.statuses[$0].override != nil }
            .map { state.data.table.keys[$0].descriptor.name }
        let name = state.data.table.scopes[scope].name
        if keys.isEmpty {
            state.inform("\(name) has no overrides to reset")
            return .stay
        }
        return .go(.confirming(.resetScope(name: name, keys: keys)))
    }

    /// `s`: asks the runtime to sync, when there is a source of server values.
    private static func syncNow(_ state: inout MenuState) -> [MenuEffect] {
        guard let server = state.data.server, server.isShown else {
            state.inform("No server values source: start the menu with --server-url URL, or run the program that syncs")
            return []
        }
        state.inform("Syncing with \(server.status.source)…")
        return [.syncServerValues]
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
