import ServiceConfiguration
import ServiceConfigurationFileStore

extension HistoryView {
    /// `H`: the history of changes, with the key selected in the list as the one `f` narrows to.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        let name =
            state.selectedKey.map { state.data.table.keys[$0].descriptor.name }
            ?? state.selectedOrphan.map { state.data.orphans[$0].name }
        return .go(.history(HistoryView(key: name)))
    }

    package var mode: MenuState.Mode { .history(self) }

    package var placement: MenuPlacement { .body }

    package func keymap(in menu: MenuState) -> Keymap { .history }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch intent {
        case .closeView:
            return .go(.browsing)
        case .undo:
            // The selected change, not the newest: the runtime reads the history afresh and proposes it.
            guard state.data.history.isKept else {
                state.inform("This store keeps no history, so there is nothing to undo")
                return .stay
            }
            let changes = rows(state.data.history)
            guard changes.indices.contains(selection) else {
                state.inform("No change selected")
                return .stay
            }
            return .stay([.proposeUndoOfChange(changes[selection])])
        case .revertToHere:
            return revert(&state)
        case .toggleHistoryFilter where key == nil:
            state.inform("Select a key in the list first; f then shows only its changes")
            return .stay
        default:
            let visible = Self.listRows(in: state.layout.body).height
            return select(intent, count: rows(state.data.history).count, visibleRows: visible) ? .stay : .ignored
        }
    }

    /// `r`: asks before reverting the store to just after the selected change, from the history as the menu last
    /// read it; the write expects each key as the menu saw it, so a change made meanwhile refuses it, naming it.
    private func revert(_ state: inout MenuState) -> MenuOutcome {
        let changes = rows(state.data.history)
        guard state.data.history.isKept, changes.indices.contains(selection) else {
            state.inform(state.data.history.isKept ? "No change selected" : "This store keeps no history")
            return .stay
        }
        var current: [String: OverrideEntry] = [:]
        for status in state.data.statuses + state.data.orphans {
            if let entry = status.override { current[status.name] = entry }
        }
        do {
            let proposal = try state.data.history.revertProposal(to: changes[selection], current: current)
            guard !proposal.laterChanges.isEmpty else {
                state.inform("This is the newest change: there is nothing after it to revert")
                return .stay
            }
            guard !proposal.changesNothing else {
                state.inform("Reverting would change nothing: the later changes left every key as it was")
                return .stay
            }
            return .go(.confirming(.revert(proposal, returnTo: mode)))
        } catch {
            state.fail("cannot revert: \(error)")
            return .stay
        }
    }

    /// New data: the same change stays selected when the history changed; the undo proposed for the selected
    /// change is asked over the history.
    package mutating func receive(_ feedback: MenuFeedback, before: MenuData, menu: inout MenuState) -> MenuOutcome {
        switch feedback {
        case .refreshed(let update) where update.history != nil:
            // The rows on screen as they were laid out before the update.
            var then = menu
            then.data = before
            follow(
                from: before.history, to: menu.data.history,
                visibleRows: Self.listRows(in: then.layout.body).height)
            return .stay
        case .chosenUndoProposed(let proposal, let undo):
            return menu.proposeChosenUndo(proposal, undoneBy: undo, returnTo: mode)
        default:
            return .ignored
        }
    }
}
