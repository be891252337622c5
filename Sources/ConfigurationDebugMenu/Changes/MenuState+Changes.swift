import ServiceConfiguration
import ServiceConfigurationFileStore

/// Changes to the overrides, as every component starts them: a write recorded as pending (the list shows `saving…`
/// until the store answers), a reset, a step, an undo; and what the menu knows about a key's value meanwhile.
extension MenuState {
    // MARK: Writing

    /// A write of `value` as the key's override, expiring as `expiry` says (`nil`: a new value never expires, the
    /// same value keeps its rule).
    mutating func set(key: Int, value: String, expiry: ExpiryChoice? = nil) -> [MenuEffect] {
        let name = data.table.keys[key].descriptor.name
        return [
            write(
                OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)", expiry: expiry))
        ]
    }

    /// The effect of `write`, recorded as pending (the list shows its values as `saving…` until the store answers).
    mutating func write(_ write: OverrideWrite) -> MenuEffect {
        var write = write
        write.id = beginChange(summary: write.summary, values: write.values)
        return .write(write)
    }

    /// Removes the overrides of `names` as one change (the history records it; `u` puts them back).
    mutating func reset(_ names: [String], summary: String) -> [MenuEffect] {
        [write(OverrideWrite(changes: names.map { .init(key: $0, value: nil) }, summary: summary))]
    }

    /// A write of the key's current override value with a new expiry.
    mutating func expire(key: Int, _ choice: ExpiryChoice) -> [MenuEffect] {
        let name = data.table.keys[key].descriptor.name
        guard let value = overrideValue(key) else {
            inform("\(name) has no override to expire")
            return []
        }
        return [
            write(
                OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)", expiry: choice))
        ]
    }

    /// What the store is called in messages: `etcd`, or `the store`.
    var storeName: String {
        data.storeLocation?.hasPrefix("etcd") == true ? "etcd" : "the store"
    }

    /// The end of a change the store did not answer in time, now that it answered again: saved after all, or not.
    mutating func settle(_ id: Int, applied: Bool, now: [String: String?]) {
        guard let change = endChange(id) else { return }
        let store = storeName
        if applied {
            inform("Saved: \(change.summary) (\(store) answered late)")
            return
        }
        let name = change.values.keys.sorted().first { now[$0] ?? nil != change.values[$0] ?? nil } ?? ""
        let there = (now[name] ?? nil).map { "is \(ValueText.quoted($0))" } ?? "has no override"
        let yours = (change.values[name] ?? nil).map { ValueText.quoted($0) } ?? "removed"
        fail("not saved: \(store) answered again without your change: \(name) \(there), not \(yours)")
    }

    // MARK: Undo

    /// The effect of undoing `proposal`, recorded as pending.
    mutating func undoEffect(_ proposal: OverrideUndoProposal) -> MenuEffect {
        let id = beginChange(
            summary: "\(proposal.isRedo ? "redo" : "undo"): \(proposal.record.summary)",
            values: proposal.restores.mapValues { $0?.value })
        return .undo(proposal, id: id)
    }

    /// `u`: asks the runtime what undoing the last recorded change would do (whoever made it).
    mutating func undo() -> [MenuEffect] {
        guard data.history.isKept else {
            inform("This store keeps no history, so there is nothing to undo")
            return []
        }
        return [.proposeUndo]
    }

    /// `U`: asks the runtime what redoing would do (the last undo reversed, if nothing changed after it).
    mutating func redo() -> [MenuEffect] {
        guard data.history.isKept else {
            inform("This store keeps no history, so there is nothing to redo")
            return []
        }
        return [.proposeRedo]
    }

    /// What redoing would do: done at once when the undo was this menu's own and nothing changed since; otherwise
    /// asked, naming whose undo it reverses.
    mutating func proposeRedo(_ proposal: OverrideUndoProposal?) -> MenuOutcome {
        guard let proposal else {
            inform("Nothing to redo: no undo since the last change")
            return .stay
        }
        let own = proposal.record.origin == data.origin
        if own, proposal.changedSince.isEmpty { return .stay([undoEffect(proposal)]) }
        return .go(.confirming(.undo(proposal, own: own)))
    }

    /// What undoing the last recorded change would do: undone at once when it is this menu's own change and nothing
    /// changed since; otherwise the menu says whose change it is (and what changed since) and asks.
    mutating func proposeUndo(_ proposal: OverrideUndoProposal?) -> MenuOutcome {
        guard let proposal else {
            inform("Nothing to undo: no change is recorded")
            return .stay
        }
        guard proposal.record.canBeUndone else {
            fail("the last change (\(proposal.record.summary)) was too large to record in full; it cannot be undone")
            return .stay
        }
        let own = proposal.record.origin == data.origin
        if own, proposal.changedSince.isEmpty {
            return .stay([undoEffect(proposal)])
        }
        return .go(.confirming(.undo(proposal, own: own)))
    }

    /// What undoing the change chosen in the history would do: always asked first, naming the change (and the later
    /// change in the way, when there is one); the question goes back to `returnTo` (the history it was chosen in).
    mutating func proposeChosenUndo(
        _ proposal: OverrideUndoProposal?, undoneBy undo: OverrideJournalRecord?, returnTo: Mode
    ) -> MenuOutcome {
        guard let proposal else {
            inform("That change is no longer in the history (it was rotated away, or the journal was reset)")
            return .stay
        }
        let record = proposal.record
        guard record.canBeUndone else {
            fail("that change (\(record.summary)) was too large to record in full; it cannot be undone")
            return .stay
        }
        if let undo {
            let who = undo.origin == data.origin ? "you" : "\(undo.origin)"
            inform("Already undone at \(ValueText.seconds(undo.time)) by \(who): \(record.summary)")
            return .stay
        }
        if proposal.changesNothing {
            inform("Undoing it would change nothing: its keys already hold what it found (\(record.summary))")
            return .stay
        }
        return .go(.confirming(.undo(proposal, own: record.origin == data.origin, returnTo: returnTo)))
    }

    // MARK: What the menu knows about a key

    /// The text an editor starts from: the effective value (the default's wire string for a default); while a change
    /// of the key is pending, the value it asks for.
    func currentText(_ key: Int) -> String {
        shownValue(ofKey: key) ?? data.table.keys[key].descriptor.defaultValueString ?? ""
    }

    /// The key's override value (`nil`: none), the one a pending change asks for first: what an edit starts from,
    /// to tell later whether another process changed it.
    func overrideValue(_ key: Int) -> String? {
        pendingValue(of: data.statuses[key].name).map(\.value) ?? data.statuses[key].override?.value
    }

    /// The key's value now, as a question or a warning names it: the override, or the value once it was removed.
    func valueNow(_ key: Int) -> String {
        data.statuses[key].override?.value ?? "\(data.statuses[key].value ?? "—") (override removed)"
    }

    /// The status of the key or orphan named `name`, if listed.
    func status(_ name: String) -> ConfigurationKeyStatus? {
        if let index = data.table.index(of: name) { return data.statuses[index] }
        return data.orphans.first { $0.name == name }
    }

    /// The current override of the key or orphan named `name`, if any, as stored (time, note, server value then).
    func currentOverride(_ name: String) -> OverrideEntry? {
        status(name)?.override
    }

    /// Says that nothing is selected (or that an orphan is, which has no value to change).
    mutating func nothingSelected() {
        inform(selectedOrphan != nil ? "This key is not in the catalog; r removes its override" : "No key selected")
    }
}
