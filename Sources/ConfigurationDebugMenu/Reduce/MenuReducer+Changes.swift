import ServiceConfiguration

extension MenuReducer {
    /// A write of `value` as the key's override, expiring as `expiry` says (`nil`: a new value never expires, the
    /// same value keeps its rule).
    static func set(_ state: inout MenuState, key: Int, value: String, expiry: ExpiryChoice? = nil) -> [MenuEffect] {
        let name = state.data.table.keys[key].descriptor.name
        return [
            write(
                &state,
                OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)", expiry: expiry))
        ]
    }

    /// The effect of `write`, recorded as pending (the list shows its values as `saving…` until the store answers).
    static func write(_ state: inout MenuState, _ write: OverrideWrite) -> MenuEffect {
        var write = write
        write.id = state.beginChange(summary: write.summary, values: write.values)
        return .write(write)
    }

    /// The effect of undoing `proposal`, recorded as pending.
    static func undoEffect(_ state: inout MenuState, _ proposal: OverrideUndoProposal) -> MenuEffect {
        let id = state.beginChange(
            summary: "undo: \(proposal.record.summary)", values: proposal.restores.mapValues { $0?.value })
        return .undo(proposal, id: id)
    }

    /// What the store is called in messages: `etcd`, or `the store`.
    static func storeName(_ state: MenuState) -> String {
        state.data.storeLocation?.hasPrefix("etcd") == true ? "etcd" : "the store"
    }

    /// The end of a change the store did not answer in time, now that it answered again: saved after all, or not.
    static func settle(_ state: inout MenuState, _ id: Int, applied: Bool, now: [String: String?]) {
        guard let change = state.endChange(id) else { return }
        let store = storeName(state)
        if applied {
            state.inform("Saved: \(change.summary) (\(store) answered late)")
            return
        }
        let name = change.values.keys.sorted().first { now[$0] ?? nil != change.values[$0] ?? nil } ?? ""
        let there = (now[name] ?? nil).map { "is \(ValueText.quoted($0))" } ?? "has no override"
        let yours = (change.values[name] ?? nil).map { ValueText.quoted($0) } ?? "removed"
        state.fail("not saved: \(store) answered again without your change: \(name) \(there), not \(yours)")
    }

    /// `+`/`-`: moves a number key with a range by `steps` steps, within its range.
    static func step(_ state: inout MenuState, by steps: Int) -> [MenuEffect] {
        guard let key = state.selectedKey else {
            nothingSelected(&state)
            return []
        }
        let descriptor = state.data.table.keys[key].descriptor
        guard case .number(let kind, let range?) = descriptor.control else {
            let enter: String =
                switch descriptor.control {
                case .toggle: "Enter flips this value"
                case .picker: "Enter picks this value"
                case .text, .number, .json: "Enter edits this value"
                }
            state.inform("+ and - step numbers with a range; " + enter)
            return []
        }
        let current = currentText(state, key)
        guard let next = range.stepped(current, by: steps, kind: kind), next != current else {
            state.inform(
                "\(descriptor.name) is at the \(steps > 0 ? "top" : "bottom") of its range (\(range.description))")
            return []
        }
        return set(&state, key: key, value: next)
    }

    /// `r`: removes the selected key's (or orphan's) override.
    static func resetSelected(_ state: inout MenuState) -> [MenuEffect] {
        let name: String
        if let key = state.selectedKey {
            name = state.data.table.keys[key].descriptor.name
        } else if let orphan = state.selectedOrphan {
            name = state.data.orphans[orphan].name
        } else {
            nothingSelected(&state)
            return []
        }
        let pending = state.pendingValue(of: name)
        guard
            pending.map({ $0.value != nil })
                ?? (currentOverride(state, name) != nil || status(state, name)?.isQuarantined == true)
        else {
            state.inform("\(name) has no override" + (pending == nil ? "" : " (its removal is being saved)"))
            return []
        }
        let summary =
            currentOverride(state, name) == nil && pending == nil
            ? "\(name) unreadable entry removed" : "\(name) override removed"
        return [write(&state, OverrideWrite(changes: [.init(key: name, value: nil)], summary: summary))]
    }

    /// Removes the overrides of `names` as one change (the history records it; `u` puts them back).
    static func reset(_ state: inout MenuState, _ names: [String], summary: String) -> [MenuEffect] {
        [write(&state, OverrideWrite(changes: names.map { .init(key: $0, value: nil) }, summary: summary))]
    }

    /// `u`: asks the runtime what undoing the last recorded change would do (whoever made it).
    static func undo(_ state: inout MenuState) -> [MenuEffect] {
        guard state.data.history.isKept else {
            state.inform("This store keeps no history, so there is nothing to undo")
            return []
        }
        return [.proposeUndo]
    }

    /// What undoing the last recorded change would do: undone at once when it is this menu's own change and nothing
    /// changed since; otherwise the menu says whose change it is (and what changed since) and asks.
    static func proposeUndo(_ state: inout MenuState, _ proposal: OverrideUndoProposal?) -> [MenuEffect] {
        guard let proposal else {
            state.inform("Nothing to undo: no change is recorded")
            return []
        }
        guard proposal.record.canBeUndone else {
            state.fail(
                "the last change (\(proposal.record.summary)) was too large to record in full; it cannot be undone")
            return []
        }
        let own = proposal.record.origin == state.data.origin
        if own, proposal.changedSince.isEmpty {
            return [undoEffect(&state, proposal)]
        }
        state.mode = .confirming(.undo(proposal, own: own))
        return []
    }

    /// What undoing the change chosen in the history would do: always asked first, naming the change (and the later
    /// change in the way, when there is one); the question is asked over the history, which it returns to.
    static func proposeChosenUndo(
        _ state: inout MenuState, _ proposal: OverrideUndoProposal?, undoneBy undo: OverrideJournalRecord?
    ) -> [MenuEffect] {
        guard let proposal else {
            state.inform("That change is no longer in the history (it was rotated away, or the journal was reset)")
            return []
        }
        let record = proposal.record
        guard record.canBeUndone else {
            state.fail("that change (\(record.summary)) was too large to record in full; it cannot be undone")
            return []
        }
        if let undo {
            let who = undo.origin == state.data.origin ? "you" : "\(undo.origin)"
            state.inform("Already undone at \(ValueText.seconds(undo.time)) by \(who): \(record.summary)")
            return []
        }
        if proposal.changesNothing {
            state.inform("Undoing it would change nothing: its keys already hold what it found (\(record.summary))")
            return []
        }
        let returnTo: MenuState.Mode
        if case .history = state.mode { returnTo = state.mode } else { returnTo = .browsing }
        state.mode = .confirming(.undo(proposal, own: record.origin == state.data.origin, returnTo: returnTo))
        return []
    }

    /// The status of the key or orphan named `name`, if listed.
    static func status(_ state: MenuState, _ name: String) -> ConfigurationKeyStatus? {
        if let index = state.data.table.index(of: name) { return state.data.statuses[index] }
        return state.data.orphans.first { $0.name == name }
    }

    /// The current override of the key or orphan named `name`, if any, as stored (time, note, server value then).
    static func currentOverride(_ state: MenuState, _ name: String) -> OverrideEntry? {
        status(state, name)?.override
    }
}
