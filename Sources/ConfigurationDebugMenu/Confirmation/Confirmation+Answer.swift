extension Confirmation {
    /// The answer: y does what was asked, n (Enter, Esc) goes back to where the question was asked from.
    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        switch (self, intent) {
        case (.resetAll(let count), .confirm):
            let names =
                state.data.table.keys.indices.filter { state.data.statuses[$0].override != nil }
                .map { state.data.table.keys[$0].descriptor.name } + state.data.orphans.map(\.name)
            return .go(.browsing, state.reset(names, summary: "all \(count) overrides removed"))
        case (.resetScope(let name, let keys), .confirm):
            return .go(
                .browsing,
                state.reset(keys, summary: "\(keys.count) override\(keys.count == 1 ? "" : "s") in \(name) removed"))
        case (.resetAll, .cancel), (.resetScope, .cancel):
            state.inform("Nothing was reset")
            return .go(.browsing)
        case (.discardEdit(let key, _), .confirm):
            state.inform("Discarded your changes to \(key)")
            return .go(.browsing)
        case (.quitDiscardingEdit, .confirm), (.quitWithPendingChanges, .confirm):
            return .stay([.quit])
        case (.quitWithPendingChanges(_, _, let returnTo), .cancel):
            return .go(returnTo)
        case (.overwrite(_, _, .editing(var editor)), .confirm):
            editor.changedElsewhere = nil
            return state.save(
                key: editor.key, editor.validation, changedElsewhere: nil, expiry: editor.expiry, editor: editor.mode)
        case (.overwrite(_, _, .editingJSON(var editor)), .confirm):
            editor.changedElsewhere = nil
            return state.save(
                key: editor.key, editor.validation, changedElsewhere: nil, expiry: editor.expiry, editor: editor.mode)
        case (.overwrite, .confirm):
            return .go(.browsing)
        case (.discardEdit(_, let editor), .cancel), (.quitDiscardingEdit(_, let editor), .cancel),
            (.overwrite(_, _, let editor), .cancel):
            return .go(editor)
        case (.revert(let proposal, let returnTo), .confirm):
            let id = state.beginChange(
                summary: "revert to \(proposal.record.summary)", values: proposal.restores.mapValues { $0?.value })
            return .go(returnTo, [.revert(proposal, id: id)])
        case (.revert(_, let returnTo), .cancel):
            state.inform("Nothing was reverted")
            return .go(returnTo)
        case (.undo(let proposal, _, let returnTo), .confirm):
            return .go(returnTo, [state.undoEffect(proposal)])
        case (.undo(let proposal, _, let returnTo), .cancel) where proposal.isRedo:
            state.inform("Nothing was redone; the undo stays")
            return .go(returnTo)
        case (.undo(_, let own, let returnTo), .cancel):
            state.inform(own ? "Nothing was undone" : "Nothing was undone; their change stays")
            return .go(returnTo)
        case (.pruneExpired, .confirm):
            let expired = state.data.expiredNames
            let id = state.beginChange(
                summary: "expired overrides removed",
                values: Dictionary(uniqueKeysWithValues: expired.map { ($0, nil) }))
            return .go(.browsing, [.pruneExpired(id: id)])
        case (.pruneExpired, .cancel):
            state.inform("The expired overrides stay (not applied)")
            return .go(.browsing)
        case (.applyScenario(let name, _, let changes, let view), .confirm):
            let id = state.beginChange(summary: "scenario \(name) applied", values: changes.mapValues { $0?.value })
            return .go(.scenarios(view), [.applyScenario(name: name, changes: changes, id: id)])
        case (.bulk(_, let write), .confirm):
            state.marks.removeAll()
            return .go(.browsing, [state.write(write)])
        case (.bulk, .cancel):
            state.inform("Nothing was changed; the marks stay")
            return .go(.browsing)
        case (.applyScenario(_, _, _, let view), .cancel):
            state.inform("Nothing was applied")
            return .go(.scenarios(view))
        default:
            return .ignored
        }
    }
}
