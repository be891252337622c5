import Foundation
import ServiceConfiguration

extension MenuReducer {
    // MARK: Expiry

    /// The editor's next expiry (Ctrl-T): as before → 1 h → 8 h → 1 day → until the server changes → never → as
    /// before.
    static func nextExpiry(after current: ExpiryChoice?) -> ExpiryChoice? {
        guard let current, let index = ExpiryChoice.editorCycle.firstIndex(of: current) else {
            return current == nil ? ExpiryChoice.editorCycle.first : nil
        }
        return index + 1 < ExpiryChoice.editorCycle.count ? ExpiryChoice.editorCycle[index + 1] : nil
    }

    /// `x`: the expiry menu for the selected key's override.
    static func openExpiry(_ state: inout MenuState) {
        guard let key = state.selectedKey else {
            state.inform(
                state.selectedOrphan != nil
                    ? "An orphaned override cannot be given an expiry here; r removes it" : "No key selected")
            return
        }
        let status = state.data.statuses[key]
        guard let entry = status.override else {
            state.inform("\(status.name) has no override to expire; set one first (Ctrl-T in the editor sets both)")
            return
        }
        state.mode = .choosingExpiry(
            ExpiryMenu(key: key, current: entry.expiry, suggestServerChange: status.isRedundant))
    }

    static func chooseExpiry(_ state: inout MenuState, _ menu: ExpiryMenu, _ action: MenuAction) -> [MenuEffect] {
        var menu = menu
        switch menu.update(action) {
        case .none:
            state.mode =
                action == .help
                ? .help(HelpScreen(context: .expiry, returnTo: .choosingExpiry(menu))) : .choosingExpiry(menu)
            return []
        case .cancel:
            state.mode = .browsing
            return []
        case .choose(nil):
            let version = menu.current.untilVersion?.description ?? ""
            state.mode = .prompting(Prompt(purpose: .expiryVersion(key: menu.key), text: version, returnTo: .browsing))
            return []
        case .choose(let choice?):
            state.mode = .browsing
            return expire(&state, key: menu.key, choice)
        }
    }

    /// A write of the key's current override value with a new expiry.
    static func expire(_ state: inout MenuState, key: Int, _ choice: ExpiryChoice) -> [MenuEffect] {
        let name = state.data.table.keys[key].descriptor.name
        guard let value = overrideValue(state, key) else {
            state.inform("\(name) has no override to expire")
            return []
        }
        return [
            write(
                &state,
                OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)", expiry: choice))
        ]
    }

    /// `P`: asks before removing the expired overrides.
    static func askToPrune(_ state: inout MenuState) {
        let count = state.data.expiredCount
        if count == 0 {
            state.inform("No override has expired")
        } else {
            state.mode = .confirming(.pruneExpired(count: count))
        }
    }

    // MARK: History

    /// `H`: the history of changes, with the key selected in the list as the one `f` narrows to.
    static func openHistory(_ state: inout MenuState) {
        let name =
            state.selectedKey.map { state.data.table.keys[$0].descriptor.name }
            ?? state.selectedOrphan.map { state.data.orphans[$0].name }
        state.mode = .history(HistoryView(key: name))
    }

    static func history(_ state: inout MenuState, _ view: HistoryView, _ action: MenuAction) -> [MenuEffect] {
        var view = view
        switch action {
        case .closeView:
            state.mode = .browsing
        case .undo:
            // The selected change, not the newest: the runtime reads the history afresh and proposes it.
            guard state.data.history.isKept else {
                state.inform("This store keeps no history, so there is nothing to undo")
                break
            }
            let rows = view.rows(state.data.history)
            guard rows.indices.contains(view.selection) else {
                state.inform("No change selected")
                break
            }
            return [.proposeUndoOfChange(rows[view.selection])]
        case .help:
            state.mode = .help(HelpScreen(context: .history, returnTo: state.mode))
        case .showMessages:
            state.mode = .paging(Pager(.messages, returnTo: state.mode))
        case .toggleHistoryFilter where view.key == nil:
            state.inform("Select a key in the list first; f then shows only its changes")
        default:
            let visible = HistoryView.listRows(in: state.layout.body).height
            if view.update(action, count: view.rows(state.data.history).count, visibleRows: visible) {
                state.mode = .history(view)
            }
        }
        return []
    }

    // MARK: Scenarios

    /// `i`: the scenarios view, read from the folder by the runtime.
    static func openScenarios(_ state: inout MenuState) -> [MenuEffect] {
        guard state.data.scenariosFolder != nil else {
            state.inform("No scenarios folder: start the menu with --profiles DIR")
            return []
        }
        state.mode = .scenarios(ScenariosView())
        return [.loadScenarios]
    }

    static func scenarios(_ state: inout MenuState, _ view: ScenariosView, _ action: MenuAction) -> [MenuEffect] {
        var view = view
        switch action {
        case .closeView:
            state.mode = .browsing
        case .help:
            state.mode = .help(HelpScreen(context: .scenarios, returnTo: state.mode))
        case .showMessages:
            state.mode = .paging(Pager(.messages, returnTo: state.mode))
        case .saveScenarioAs:
            state.mode = .prompting(Prompt(purpose: .scenarioName, returnTo: .scenarios(view)))
        case .activate:
            guard let scenario = view.selected else {
                state.inform("No scenario selected")
                break
            }
            if let problem = scenario.problem {
                state.fail("\(scenario.name) cannot be used: \(problem)")
                break
            }
            let current = state.data.currentOverrides
            let diff = OverrideDiff(from: current, to: view.result(of: scenario, over: current))
            guard !diff.isEmpty else {
                state.inform("Applying \(scenario.name) would change nothing")
                break
            }
            // Keys whose value stays keep their entry (time, note); the others take the scenario's.
            var changes: [String: OverrideEntry?] = scenario.entries.filter { current[$0.key]?.value != $0.value.value }
                .mapValues { Optional($0) }
            if view.replace {
                for key in state.data.storedKeys where scenario.entries[key] == nil { changes[key] = .some(nil) }
            }
            state.mode = .confirming(
                .applyScenario(
                    name: scenario.name,
                    summary: "\(diff.added.count) added, \(diff.removed.count) removed, "
                        + "\(diff.changed.count) changed", changes: changes, view: view))
        default:
            let visible = ScenariosView.listRows(in: state.layout.body).height
            if view.update(action, visibleRows: visible) { state.mode = .scenarios(view) }
        }
        return []
    }

    // MARK: Prompts

    static func answer(_ state: inout MenuState, _ prompt: Prompt, _ action: MenuAction) -> [MenuEffect] {
        var prompt = prompt
        switch action {
        case .editCancel:
            state.mode = prompt.returnTo
        case .help:
            state.mode = .help(HelpScreen(context: .prompting, returnTo: state.mode))
        case .editSave:
            switch prompt.purpose {
            case .scenarioName:
                switch Prompt.scenarioFileName(prompt.field.string) {
                case .success(let name):
                    state.mode = prompt.returnTo
                    return [.saveScenario(name: name)]
                case .failure(let problem):
                    prompt.problem = problem.reason
                    state.mode = .prompting(prompt)
                }
            case .expiryVersion(let key):
                guard let version = ProgramVersion(prompt.field.string.trimmingCharacters(in: .whitespaces)) else {
                    prompt.problem = "not a version like 14.2 (numbers and dots)"
                    state.mode = .prompting(prompt)
                    return []
                }
                state.mode = prompt.returnTo
                return expire(&state, key: key, .untilVersion(version))
            }
        default:
            if prompt.field.update(action) {
                prompt.problem = nil
                state.mode = .prompting(prompt)
            }
        }
        return []
    }
}
