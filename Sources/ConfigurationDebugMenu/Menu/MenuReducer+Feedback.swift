import ServiceConfiguration
import ServiceConfigurationFileStore

extension MenuReducer {
    /// Applies what the runtime reports; returns the effects to perform. The component that has the keyboard takes
    /// what concerns it (``MenuComponent/receive(_:before:menu:)``).
    package static func reduce(_ state: inout MenuState, _ feedback: MenuFeedback) -> [MenuEffect] {
        let before = state.data
        var component = state.mode.component
        switch feedback {
        case .refreshed(let update):
            let applied = apply(update, to: &state)
            // The data is in place: an open view follows it (the history keeps its selection, an editor notes a
            // change made elsewhere).
            component = state.mode.component
            return follow(
                component.receive(.refreshed(applied), before: before, menu: &state), of: component, after: nil,
                in: &state)
        case .scenariosLoaded, .chosenUndoProposed:
            let outcome = component.receive(feedback, before: before, menu: &state)
            if outcome.next != .ignored { return follow(outcome, of: component, after: nil, in: &state) }
        default:
            break
        }
        switch feedback {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            state.list.keepVisible(visibleRows: state.visibleKeyRows)
            BrowseScreen.revealModule(&state)
        case .ranked(let list, let id):
            state.list.adopt(list, id: id, visibleRows: state.visibleKeyRows)
        case .tick(let now):
            state.clock = now
            state.changedElsewhere = state.changedElsewhere.filter { now - $0.value < changeMarkSeconds }
        case .writeSucceeded(let write):
            state.endChange(write.id)
            state.inform("Saved: \(write.summary)" + (write.expiry.map { "; expires: \($0.title)" } ?? ""))
        case .writeUnanswered(let message, let id):
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return [] }
            state.pending[index].unanswered = message
            let store = state.storeName
            state.fail(
                "\(store) did not answer: \(state.pending[index].summary) may still arrive; checked again when "
                    + "\(store) answers")
        case .writeSettled(let id, let applied, let now):
            state.settle(id, applied: applied, now: now)
        case .undoProposed(let proposal):
            return follow(state.proposeUndo(proposal), of: component, after: nil, in: &state)
        case .chosenUndoProposed(let proposal, let undo):
            return follow(
                state.proposeChosenUndo(proposal, undoneBy: undo, returnTo: .browsing), of: component, after: nil,
                in: &state)
        case .undoSucceeded(let summary, let id):
            state.endChange(id)
            state.inform("Undone: \(summary)")
        case .redoProposed(let proposal):
            return follow(state.proposeRedo(proposal), of: component, after: nil, in: &state)
        case .redoSucceeded(let summary, let id):
            state.endChange(id)
            state.inform("Redone: reversed \(summary)")
        case .pruned(let keys, let id):
            state.endChange(id)
            state.inform(
                keys.isEmpty
                    ? "No expired overrides" : "Removed \(keys.count) expired override\(keys.count == 1 ? "" : "s")")
        case .scenarioApplied(let name, let id):
            state.endChange(id)
            state.inform("Applied scenario \(name) (u undoes it)")
        case .scenarioSaved(let name):
            state.inform("Saved the overrides as scenario \(name)")
            return [.loadScenarios]
        case .writeFailed(let message, let id):
            state.endChange(id)
            state.fail("not saved: \(message)")
        case .externalEditFinished(let edit, let text):
            return follow(state.finishExternalEdit(edit, text: text), of: component, after: nil, in: &state)
        case .externalEditFailed(let message):
            state.fail(message)
        case .syncFinished(let outcome):
            finishSync(&state, outcome)
        case .refreshed, .scenariosLoaded:
            break
        }
        return []
    }

    /// The outcome of a sync asked for with `s`, in the footer.
    static func finishSync(_ state: inout MenuState, _ outcome: ServerSyncOutcome) {
        switch outcome {
        case .updated(let previous) where previous.isEmpty:
            state.inform("Synced: the server sent the same values")
        case .updated(let previous):
            let keys = previous.count == 1 ? "1 key" : "\(previous.count) keys"
            state.inform("Synced: \(keys) changed (↻; c shows only them)")
        case .notModified:
            state.inform("Synced: not modified since the last sync")
        case .failed(let error):
            state.fail("sync failed: \(error.reason); the last good values stay")
        }
    }
}
