import ServiceConfiguration

/// The menu's update function: `(state, action) -> (state, effects)`, pure.
///
/// The reducer routes: events that concern the whole menu (resize, refreshed data, the outcome of effects, quit)
/// are handled here; every other action goes to the component that has the keyboard in the current mode, and the
/// component's outcome becomes state changes and effects (saving, undoing, running `$EDITOR`). Effects are
/// performed by the runtime, which reports their outcome as further actions.
package enum MenuReducer {
    /// Applies `action` to `state`; returns the effects to perform.
    package static func reduce(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            state.list.keepVisible(visibleRows: state.visibleKeyRows)
            revealModule(&state)
            return []
        case .refreshed(let update):
            apply(update, to: &state)
            return []
        case .writeSucceeded(let write):
            state.endChange(write.id)
            state.inform("Saved: \(write.summary)" + (write.expiry.map { "; expires: \($0.title)" } ?? ""))
            return []
        case .writeUnanswered(let message, let id):
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return [] }
            state.pending[index].unanswered = message
            let store = storeName(state)
            state.fail(
                "\(store) did not answer: \(state.pending[index].summary) may still arrive; checked again when "
                    + "\(store) answers")
            return []
        case .writeSettled(let id, let applied, let now):
            settle(&state, id, applied: applied, now: now)
            return []
        case .undoProposed(let proposal):
            return proposeUndo(&state, proposal)
        case .chosenUndoProposed(let proposal, let undo):
            return proposeChosenUndo(&state, proposal, undoneBy: undo)
        case .undoSucceeded(let summary, let id):
            state.endChange(id)
            state.inform("Undone: \(summary)")
            return []
        case .pruned(let keys, let id):
            state.endChange(id)
            state.inform(
                keys.isEmpty
                    ? "No expired overrides" : "Removed \(keys.count) expired override\(keys.count == 1 ? "" : "s")")
            return []
        case .scenariosLoaded(let listing):
            if case .scenarios(var view) = state.mode {
                view.listing = listing
                view.selection = min(view.selection, max(0, listing.scenarios.count - 1))
                state.mode = .scenarios(view)
            }
            return []
        case .scenarioApplied(let name, let id):
            state.endChange(id)
            state.inform("Applied scenario \(name) (u undoes it)")
            return []
        case .scenarioSaved(let name):
            state.inform("Saved the overrides as scenario \(name)")
            return [.loadScenarios]
        case .writeFailed(let message, let id):
            state.endChange(id)
            state.fail("not saved: \(message)")
            return []
        case .externalEditFinished(let edit, let text):
            return finishExternalEdit(&state, edit, text: text)
        case .externalEditFailed(let message):
            state.fail(message)
            return []
        case .quit:
            if let name = unsavedEdit(state) {
                state.mode = .confirming(.quitDiscardingEdit(key: name, editor: state.mode))
                return []
            }
            if !state.pending.isEmpty, !state.mode.isAskingToQuit {
                state.mode = .confirming(
                    .quitWithPendingChanges(
                        count: state.pending.count, unanswered: state.pending.contains { $0.unanswered != nil },
                        returnTo: state.mode))
                return []
            }
            return [.quit]
        case .tick(let now):
            state.clock = now
            state.changedElsewhere = state.changedElsewhere.filter { now - $0.value < changeMarkSeconds }
            return []
        case .syncFinished(let outcome):
            finishSync(&state, outcome)
            return []
        default:
            break
        }
        state.status = nil
        switch state.mode {
        case .browsing: return browse(&state, action)
        case .filtering: return filter(&state, action)
        case .editing(let editor): return edit(&state, editor, action)
        case .editingJSON(let editor): return editJSON(&state, editor, action)
        case .editingNote(let editor): return editNote(&state, editor, action)
        case .picking(let picker): return pick(&state, picker, action)
        case .confirming(let confirmation): return confirm(&state, confirmation, action)
        case .help(var help):
            if action == .closeHelp {
                state.mode = help.returnTo
            } else if help.update(action, screen: state.layout.screen) {
                state.mode = .help(help)
            }
            return []
        case .history(let view): return history(&state, view, action)
        case .scenarios(let view): return scenarios(&state, view, action)
        case .prompting(let prompt): return answer(&state, prompt, action)
        case .choosingExpiry(let menu): return chooseExpiry(&state, menu, action)
        case .paging(let pager): return page(&state, pager, action)
        }
    }

    // MARK: Filtering

    private static func filter(_ state: inout MenuState, _ action: MenuAction) -> [MenuEffect] {
        switch action {
        case .filterInsert(let text):
            state.filters.query += text
            state.refreshList(selectFirst: true)
        case .filterBackspace:
            if !state.filters.query.isEmpty { state.filters.query.removeLast() }
            state.refreshList(selectFirst: true)
        case .filterErase:
            state.filters.query = ""
            state.refreshList(selectFirst: true)
        case .toggleSearchEverywhere:
            guard state.filters.scope != nil else { break }
            state.filters.searchEverywhere.toggle()
            state.refreshList(selectFirst: true)
        case .filterAccept:
            state.mode = .browsing
        case .filterCancel:
            state.filters.query = ""
            state.mode = .browsing
            state.refreshList()
        case .move(let delta):
            state.list.move(by: delta, visibleRows: state.visibleKeyRows)
        case .help:
            state.mode = .help(HelpScreen(context: .filtering, returnTo: state.mode))
        default:
            break
        }
        return []
    }

    // MARK: Pager

    private static func page(_ state: inout MenuState, _ pager: Pager, _ action: MenuAction) -> [MenuEffect] {
        var pager = pager
        switch action {
        case .closeView:
            state.mode = pager.returnTo
        case .help:
            state.mode = .help(HelpScreen(context: .pager, returnTo: state.mode))
        case .showMessages where pager.content == .messages, .showDetails where pager.content != .messages:
            state.mode = pager.returnTo
        case .showMessages:
            state.mode = .paging(Pager(.messages, returnTo: pager.returnTo))
        case .showDetails:
            showDetails(&state)
            if case .paging(var details) = state.mode {
                details.returnTo = pager.returnTo
                state.mode = .paging(details)
            }
        default:
            if pager.update(action, state: state) { state.mode = .paging(pager) }
        }
        return []
    }

    // MARK: Picker and confirmation

    private static func pick(_ state: inout MenuState, _ picker: Picker, _ action: MenuAction) -> [MenuEffect] {
        var picker = picker
        switch picker.update(action, screen: state.layout.screen) {
        case .none:
            if action == .help {
                state.mode = .help(HelpScreen(context: .picking, returnTo: state.mode))
            } else {
                state.mode = .picking(picker)
            }
            return []
        case .cancel:
            state.mode = .browsing
            return []
        case .choose(let choice):
            state.mode = .browsing
            if picker.selected == picker.current, overrideValue(state, picker.key) != nil {
                state.inform("Unchanged: \(choice.title)")
                return []
            }
            return set(&state, key: picker.key, value: choice.value)
        }
    }

    private static func confirm(_ state: inout MenuState, _ confirmation: Confirmation, _ action: MenuAction)
        -> [MenuEffect]
    {
        switch (confirmation, action) {
        case (.resetAll(let count), .confirm):
            state.mode = .browsing
            let names =
                state.data.table.keys.indices.filter { state.data.statuses[$0].override != nil }
                .map { state.data.table.keys[$0].descriptor.name } + state.data.orphans.map(\.name)
            return reset(&state, names, summary: "all \(count) overrides removed")
        case (.resetScope(let name, let keys), .confirm):
            state.mode = .browsing
            return reset(
                &state, keys, summary: "\(keys.count) override\(keys.count == 1 ? "" : "s") in \(name) removed")
        case (.resetAll, .cancel), (.resetScope, .cancel):
            state.mode = .browsing
            state.inform("Nothing was reset")
        case (.discardEdit(let key, _), .confirm):
            state.mode = .browsing
            state.inform("Discarded your changes to \(key)")
        case (.quitDiscardingEdit, .confirm), (.quitWithPendingChanges, .confirm):
            return [.quit]
        case (.quitWithPendingChanges(_, _, let returnTo), .cancel):
            state.mode = returnTo
        case (.overwrite, .confirm):
            switch confirmation {
            case .overwrite(_, _, .editing(var editor)):
                editor.changedElsewhere = nil
                state.mode = .editing(editor)
                return save(&state, key: editor.key, editor.validation, changedElsewhere: nil, expiry: editor.expiry)
            case .overwrite(_, _, .editingJSON(var editor)):
                editor.changedElsewhere = nil
                state.mode = .editingJSON(editor)
                return save(&state, key: editor.key, editor.validation, changedElsewhere: nil, expiry: editor.expiry)
            default:
                state.mode = .browsing
            }
        case (.discardEdit(_, let editor), .cancel), (.quitDiscardingEdit(_, let editor), .cancel),
            (.overwrite(_, _, let editor), .cancel):
            state.mode = editor
        case (.undo(let proposal, _, let returnTo), .confirm):
            state.mode = returnTo
            return [undoEffect(&state, proposal)]
        case (.undo(_, let own, let returnTo), .cancel):
            state.mode = returnTo
            state.inform(own ? "Nothing was undone" : "Nothing was undone; their change stays")
        case (.pruneExpired, .confirm):
            state.mode = .browsing
            let expired = state.data.expiredNames
            let id = state.beginChange(
                summary: "expired overrides removed",
                values: Dictionary(uniqueKeysWithValues: expired.map { ($0, nil) }))
            return [.pruneExpired(id: id)]
        case (.pruneExpired, .cancel):
            state.mode = .browsing
            state.inform("The expired overrides stay (not applied)")
        case (.applyScenario(let name, _, let changes, let view), .confirm):
            state.mode = .scenarios(view)
            let id = state.beginChange(summary: "scenario \(name) applied", values: changes.mapValues { $0?.value })
            return [.applyScenario(name: name, changes: changes, id: id)]
        case (.applyScenario(_, _, _, let view), .cancel):
            state.mode = .scenarios(view)
            state.inform("Nothing was applied")
        default:
            break
        }
        return []
    }
}
