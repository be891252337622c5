import Foundation
import ServiceConfiguration

/// The event loop: input → action → reducer → effects → render. Separate from the terminal so tests can drive it.
struct MenuLoop {
    let source: MenuDataSource
    let terminal: any TerminalDevice
    let label: String

    /// The most input events handled before the screen is drawn again (a paste arrives as many).
    static let batchLimit = 100_000

    func run() {
        let size = terminal.size
        var state = MenuState(data: source.initialData(label: label), width: size.width, height: size.height)
        let renderer = MenuRenderer(colors: terminal.supportsColor)
        terminal.draw(renderer.render(state))
        while !terminal.stopRequested {
            var events: [KeyEvent] = []
            if let first = terminal.nextEvent(timeout: 200) {
                events.append(first)
                // Everything already typed or pasted is handled before one redraw.
                while events.count < Self.batchLimit, let next = terminal.nextEvent(timeout: 0) { events.append(next) }
            }
            var changed = !events.isEmpty
            if !handle(events, on: &state) { return }
            if !state.changedElsewhere.isEmpty || state.data.showsServerLine {
                let marks = state.changedElsewhere
                let line = state.data.server.map { ServerLine.text($0, clock: state.clock) }
                _ = MenuReducer.reduce(&state, .tick(ProcessInfo.processInfo.systemUptime))
                changed =
                    changed || marks != state.changedElsewhere
                    || line != state.data.server.map { ServerLine.text($0, clock: state.clock) }
            }
            if let update = source.takeUpdate() {
                changed = true
                if !perform([.refreshed(update)], on: &state) { return }
            }
            // After the refresh, so a sync asked for here reports its own outcome (its values are applied first).
            let outcomes = source.takeSyncOutcomes()
            if !outcomes.isEmpty {
                changed = true
                if !perform(outcomes.map { .syncFinished($0) }, on: &state) { return }
            }
            if changed { terminal.draw(renderer.render(state)) }
        }
    }

    /// Maps events to actions in the mode each one arrives in, joining runs of typed characters into one insert
    /// (so a 5,000-character paste filters or validates once, not 5,000 times); false when the menu should close.
    func handle(_ events: [KeyEvent], on state: inout MenuState) -> Bool {
        var index = 0
        while index < events.count {
            let context = state.keymapContext
            let action = Keymap.action(for: events[index], in: context)
            index += 1
            guard var action else { continue }
            while index < events.count, let next = Keymap.action(for: events[index], in: context),
                let joined = Self.join(action, next)
            {
                action = joined
                index += 1
            }
            if !perform([action], on: &state) { return false }
        }
        return true
    }

    /// Two inserts of the same kind as one, or `nil`.
    static func join(_ first: MenuAction, _ second: MenuAction) -> MenuAction? {
        switch (first, second) {
        case (.filterInsert(let text), .filterInsert(let more)): .filterInsert(text + more)
        case (.editInsert(let text), .editInsert(let more)): .editInsert(text + more)
        default: nil
        }
    }

    /// Runs actions and the effects they ask for, until none are left; false when the menu should close.
    func perform(_ actions: [MenuAction], on state: inout MenuState) -> Bool {
        var queue = actions
        while !queue.isEmpty {
            let action = queue.removeFirst()
            for effect in MenuReducer.reduce(&state, action) {
                switch effect {
                case .quit:
                    return false
                case .write(let write):
                    queue.append(save(write))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .note(let key, let note):
                    queue.append(saveNote(note, for: key))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .proposeUndo:
                    let store = source.service.overrideStore
                    queue.append(.undoProposed(store.history().undoProposal(current: store.entries)))
                case .proposeUndoOfChange(let id):
                    queue.append(proposeUndo(ofChange: id))
                case .undo(let proposal):
                    queue.append(undo(proposal))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .pruneExpired:
                    queue.append(prune())
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .loadScenarios:
                    queue.append(.scenariosLoaded(ScenarioFolder.read(source.scenariosFolder)))
                case .applyScenario(let name, let changes):
                    queue.append(apply(name, changes))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .saveScenario(let name):
                    queue.append(saveScenario(name))
                case .syncServerValues:
                    source.startSync()
                case .openExternalEditor(let edit):
                    let name = state.data.table.keys[edit.key].descriptor.name
                    let outcome = ExternalEditor(terminal: terminal).edit(edit, name: name)
                    // What other processes changed while the editor ran is shown first, so saving can ask.
                    if source.service.overrideStore.localFileURL != nil { source.service.overrideStore.reload() }
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                    queue.append(outcome)
                }
            }
        }
        return true
    }

    /// Saves new values through the service, each validated by its key (one value with an expiry: that rule).
    private func save(_ write: OverrideWrite) -> MenuAction {
        var changes: [String: String?] = [:]
        for change in write.changes { changes[change.key] = change.value }
        do {
            if let choice = write.expiry, write.changes.count == 1, let value = write.changes[0].value {
                try source.service.setOverride(
                    rawValue: value, forKeyNamed: write.changes[0].key, note: nil, expiry: choice.expiry(now: Date()))
            } else {
                try source.service.updateOverrides(changes, validate: true)
            }
            source.markChanged(changes.keys)
            return .writeSucceeded(write)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Replaces the note of `key`'s override, keeping its value and other metadata, through the service (refused if
    /// another process changed the override meanwhile).
    private func saveNote(_ note: String?, for key: String) -> MenuAction {
        guard let original = source.service.overrideStore.entry(forKey: key) else {
            return .writeFailed("\(key) has no override any more")
        }
        var entry = original
        entry.note = note
        do {
            try source.service.restoreOverrides(
                [key: entry], reason: OverrideChangeReason(.set, detail: "note"), expecting: [key: original])
            source.markChanged([key])
            let summary = note.map { "note of \(key): \($0)" } ?? "note of \(key) removed"
            return .writeSucceeded(OverrideWrite(changes: [], summary: summary))
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// What undoing the recorded change `id` would do, read from the history as it is now: exactly it, or back to
    /// before it when later changes of its keys are in the way.
    private func proposeUndo(ofChange id: String) -> MenuAction {
        let store = source.service.overrideStore
        let history = store.history()
        guard let record = history.change(id: id) else { return .chosenUndoProposed(nil, undoneBy: nil) }
        let exact = history.undoProposal(for: record, current: store.entries)
        let proposal =
            exact.laterChanges.isEmpty ? exact : history.undoProposal(backTo: record, current: store.entries)
        return .chosenUndoProposed(proposal, undoneBy: history.undo(of: record))
    }

    /// Undoes a recorded change through the service (refused if a key changed since the proposal).
    private func undo(_ proposal: OverrideUndoProposal) -> MenuAction {
        do {
            try source.service.undoOverrideChange(proposal)
            source.markChanged(proposal.restores.keys)
            let own = proposal.record.origin == source.service.overrideStore.origin
            let whose = own ? "" : " (by \(proposal.record.origin))"
            return .undoSucceeded(proposal.record.summary + whose)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Removes the expired overrides through the service.
    private func prune() -> MenuAction {
        do {
            let removed = try source.service.pruneExpiredOverrides()
            source.markChanged(removed.keys)
            return .pruned(removed.keys.sorted())
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Puts a scenario's entries in place through the service, as one change named after it.
    private func apply(_ name: String, _ changes: [String: OverrideEntry?]) -> MenuAction {
        do {
            try source.service.restoreOverrides(
                changes, reason: OverrideChangeReason(.importProfile, detail: name), expecting: nil)
            source.markChanged(changes.keys)
            return .scenarioApplied(name)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Saves the current overrides as a new scenario file.
    private func saveScenario(_ name: String) -> MenuAction {
        do {
            try ScenarioFolder.save(source.service.overrideStore, as: name, in: source.scenariosFolder)
            return .scenarioSaved(name)
        } catch {
            return .writeFailed("\(error)")
        }
    }
}
