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
                case .write(let write, let undo):
                    queue.append(save(write, undo: undo))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .note(let key, let note, let undo):
                    queue.append(saveNote(note, for: key, undo: undo))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .undo(let step):
                    queue.append(restore(step))
                    if let update = source.takeUpdate() { queue.append(.refreshed(update)) }
                case .syncServerValues:
                    source.startSync()
                case .openExternalEditor(let key, let text):
                    queue.append(
                        ExternalEditor(terminal: terminal).edit(
                            key: key, text: text, name: state.data.table.keys[key].descriptor.name))
                }
            }
        }
        return true
    }

    /// Saves new values through the service, each validated by its key.
    private func save(_ write: OverrideWrite, undo: UndoStep) -> MenuAction {
        var changes: [String: String?] = [:]
        for change in write.changes { changes[change.key] = change.value }
        do {
            try source.service.updateOverrides(changes, validate: true)
            source.markChanged(changes.keys)
            return .writeSucceeded(write, undo: undo)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Replaces the note of `key`'s override, keeping its value and other metadata, through the service.
    private func saveNote(_ note: String?, for key: String, undo: UndoStep) -> MenuAction {
        guard var entry = source.service.overrideStore.entry(forKey: key) else {
            return .writeFailed("\(key) has no override any more")
        }
        entry.note = note
        do {
            try source.service.restoreOverrides([key: entry])
            source.markChanged([key])
            let summary = note.map { "note of \(key): \($0)" } ?? "note of \(key) removed"
            return .writeSucceeded(OverrideWrite(changes: [], summary: summary), undo: undo)
        } catch {
            return .writeFailed("\(error)")
        }
    }

    /// Puts entries back as they were stored, each with its time, note and server value then, through the service.
    private func restore(_ step: UndoStep) -> MenuAction {
        do {
            try source.service.restoreOverrides(step.entries)
            source.markChanged(step.entries.keys)
            return .undoSucceeded(step)
        } catch {
            return .writeFailed("\(error)")
        }
    }
}
