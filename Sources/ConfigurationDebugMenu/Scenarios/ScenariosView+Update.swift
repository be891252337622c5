import ServiceConfiguration
import ServiceConfigurationFileStore

extension ScenariosView {
    /// `i`: the scenarios view, read from the folder by the runtime.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        guard state.data.scenariosFolder != nil else {
            state.inform("No scenarios folder: start the menu with --profiles DIR")
            return .stay
        }
        return .go(.scenarios(ScenariosView()), [.loadScenarios])
    }

    package var mode: MenuState.Mode { .scenarios(self) }

    package var placement: MenuPlacement { .body }

    package func keymap(in menu: MenuState) -> Keymap { .scenarios }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .closeView:
            return .go(.browsing)
        case .saveScenarioAs:
            return .go(.prompting(Prompt(purpose: .scenarioName(), returnTo: mode)))
        case .activate:
            return apply(&state)
        default:
            let visible = Self.listRows(in: state.layout.body).height
            return select(intent, visibleRows: visible) ? .stay : .ignored
        }
    }

    /// Enter: asks before applying the selected scenario, saying what it would change.
    private func apply(_ state: inout MenuState) -> MenuOutcome {
        guard let scenario = selected else {
            state.inform("No scenario selected")
            return .stay
        }
        if let problem = scenario.problem {
            state.fail("\(scenario.name) cannot be used: \(problem)")
            return .stay
        }
        let current = state.data.currentOverrides
        let diff = OverrideDiff(from: current, to: result(of: scenario, over: current))
        guard !diff.isEmpty else {
            state.inform("Applying \(scenario.name) would change nothing")
            return .stay
        }
        // Keys whose value stays keep their entry (time, note); the others take the scenario's.
        var changes: [String: OverrideEntry?] = scenario.entries.filter { current[$0.key]?.value != $0.value.value }
            .mapValues { Optional($0) }
        if replace {
            for key in state.data.storedKeys where scenario.entries[key] == nil { changes[key] = .some(nil) }
        }
        return .go(
            .confirming(
                .applyScenario(
                    name: scenario.name,
                    summary: "\(diff.added.count) added, \(diff.removed.count) removed, "
                        + "\(diff.changed.count) changed", changes: changes, view: self)))
    }

    /// The folder was read: the view shows it, the selection kept in its range.
    package mutating func receive(_ feedback: MenuFeedback, before: MenuData, menu: inout MenuState) -> MenuOutcome {
        guard case .scenariosLoaded(let listing) = feedback else { return .ignored }
        self.listing = listing
        selection = min(selection, max(0, listing.scenarios.count - 1))
        return .stay
    }
}

extension MenuIntent {
    /// Show the scenarios folder.
    package static let openScenarios = MenuIntent.open(ComponentType(ScenariosView.self))
}

extension Keymap {
    /// The scenarios view's keys.
    package static let scenarios = Keymap(
        "scenarios", title: "Scenarios",
        [
            bind([.character("j"), .down], .move(1), "next scenario"),
            bind([.character("k"), .up], .move(-1), "previous scenario"),
            bind([.character("g"), .home], .top, "first scenario"),
            bind([.character("G"), .end], .bottom, "last scenario"),
            bind(
                [.enter], .activate, "apply the selected scenario (asks first; u undoes it)", hint: "apply",
                priority: 10),
            bind(
                [.character("m")], .toggleScenarioMode,
                "merge the scenario into the overrides, or replace them all", hint: "merge/replace",
                priority: 20),
            bind(
                [.character("s")], .saveScenarioAs, "save the current overrides as a new scenario (asks a name)",
                hint: "save as", priority: 30),
            showMessages,
            closeView,
            showHelp,
            quit,
        ], wheel: .moves)
}
