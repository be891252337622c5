import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// The event loop: key → intent (the focused component's key map) → reducer → effects → feedback → render.
/// Separate from the terminal so tests can drive it.
struct MenuLoop {
    let source: MenuDataSource
    let terminal: any TerminalDevice
    let label: String
    /// Where work on the store happens, off the input thread.
    let worker: StoreWorker
    /// Where a big catalog is ranked for a new query, off the input thread.
    let ranker: RankWorker

    init(source: MenuDataSource, terminal: any TerminalDevice, label: String, ranker: RankWorker = RankWorker()) {
        self.source = source
        self.terminal = terminal
        self.label = label
        self.ranker = ranker
        worker = StoreWorker(source: source)
    }

    /// The most input events handled before the screen is drawn again (a paste arrives as many).
    static let batchLimit = 100_000

    func run() {
        let size = terminal.size
        var state = MenuState(
            data: source.initialData(label: label), width: size.width, height: size.height,
            wallClockOffset: Date().timeIntervalSince1970 - ProcessInfo.processInfo.systemUptime)
        _ = MenuReducer.reduce(&state, MenuFeedback.tick(ProcessInfo.processInfo.systemUptime))
        let renderer = MenuRenderer(colors: terminal.supportsColor)
        terminal.draw(renderer.render(state))
        while !terminal.stopRequested {
            var events: [KeyEvent] = []
            // While the store works, results are looked for often, so a fast store's answer shows at once.
            // While a ranking runs, its result is looked for every few milliseconds.
            let timeout = state.list.pendingRank != nil ? 4 : worker.isBusy ? 20 : 200
            if let first = terminal.nextEvent(timeout: timeout) {
                events.append(first)
                // Everything already typed or pasted is handled before one redraw.
                while events.count < Self.batchLimit, let next = terminal.nextEvent(timeout: 0) { events.append(next) }
            }
            var changed = !events.isEmpty
            // The clock first: what the keys and the results show is logged at the time they are shown.
            let marks = state.changedElsewhere
            let line = state.data.server.map { ServerLine.text($0, clock: state.clock) }
            _ = MenuReducer.reduce(&state, MenuFeedback.tick(ProcessInfo.processInfo.systemUptime))
            changed =
                changed || marks != state.changedElsewhere
                || line != state.data.server.map { ServerLine.text($0, clock: state.clock) }
            if !handle(events, on: &state) { return }
            // The keystrokes are drawn at once; a ranking they asked for is drawn when it is done (a later frame).
            dispatchRanking(state)
            if let ranked = ranker.takeResult() {
                changed = true
                if !perform([.feedback(ranked)], on: &state) { return }
            }
            // A fast store answers within a frame: the outcome is drawn in place of a flash of "saving…".
            if changed, worker.isBusy { worker.waitUntilIdle(timeout: 0.1) }
            let (reported, open) = takeWorkResults(on: &state)
            guard open else { return }
            changed = changed || reported
            // After the refresh, so a sync asked for here reports its own outcome (its values are applied first).
            let outcomes = source.takeSyncOutcomes()
            if !outcomes.isEmpty {
                changed = true
                if !perform(outcomes.map { .feedback(.syncFinished($0)) }, on: &state) { return }
            }
            if changed { terminal.draw(renderer.render(state)) }
        }
    }

    /// Maps events to intents with the key map of the component that has the keyboard when each one arrives,
    /// joining runs of typed characters into one insert (so a 5,000-character paste filters or validates once, not
    /// 5,000 times); a resize is feedback. False when the menu should close.
    func handle(_ events: [KeyEvent], on state: inout MenuState) -> Bool {
        var index = 0
        while index < events.count {
            if case .resize(let width, let height) = events[index] {
                index += 1
                if !perform([.feedback(.resize(width: width, height: height))], on: &state) { return false }
                continue
            }
            let keymap = state.keymap
            let intent = keymap.action(for: events[index])
            index += 1
            guard var intent else { continue }
            while index < events.count, let next = keymap.action(for: events[index]),
                let joined = Self.join(intent, next)
            {
                intent = joined
                index += 1
            }
            // Only a change of the query goes on while a ranking is under way; anything else acts on its result.
            if !intent.changesQueryOnly, !finishRanking(&state) { return false }
            // A new query makes the ranking under way stale: it stops now, so a small ranking done here has the CPU
            // to itself (had the query not changed after all, `dispatchRanking` asks for the pending one again).
            if intent.replacesQuery, state.list.pendingRank != nil { ranker.submitNothing() }
            if !perform([.intent(intent)], on: &state) { return false }
        }
        return true
    }

    /// Two inserts of the same kind as one, or `nil`.
    static func join(_ first: MenuIntent, _ second: MenuIntent) -> MenuIntent? {
        switch (first, second) {
        case (.filterInsert(let text), .filterInsert(let more)): .filterInsert(text + more)
        case (.editInsert(let text), .editInsert(let more)): .editInsert(text + more)
        default: nil
        }
    }

    /// Runs the inputs and the effects they ask for, until none are left; false when the menu should close. Work on
    /// the store goes to the ``StoreWorker``; its outcomes come back through ``takeWorkResults(on:)``.
    func perform(_ inputs: [MenuInput], on state: inout MenuState) -> Bool {
        var queue = inputs
        while !queue.isEmpty {
            let input = queue.removeFirst()
            for effect in MenuReducer.reduce(&state, input) {
                if worker.submit(effect) { continue }
                switch effect {
                case .quit:
                    return false
                case .loadScenarios:
                    queue.append(.feedback(.scenariosLoaded(ScenarioFolder.read(source.scenariosFolder))))
                case .syncServerValues:
                    source.startSync()
                case .copyToClipboard(let text):
                    terminal.copyToClipboard(text)
                case .suspend:
                    terminal.suspendJob()
                    // The store may have changed while the menu was stopped; the resize feedback redraws whole.
                    if source.service.overrideStore.localFileURL != nil { source.service.overrideStore.reload() }
                    if let update = source.takeUpdate() { queue.append(.feedback(.refreshed(update))) }
                    let size = terminal.size
                    queue.append(.feedback(.resize(width: size.width, height: size.height)))
                case .openExternalEditor(let edit):
                    let name = state.data.table.keys[edit.key].descriptor.name
                    let outcome = ExternalEditor(terminal: terminal).edit(edit, name: name)
                    // What other processes changed while the editor ran is shown first, so saving can ask.
                    if source.service.overrideStore.localFileURL != nil { source.service.overrideStore.reload() }
                    if let update = source.takeUpdate() { queue.append(.feedback(.refreshed(update))) }
                    queue.append(.feedback(outcome))
                default:
                    break
                }
            }
        }
        return true
    }

    /// Hands the list's pending ranking to the ranker if it does not have it yet, or stops the ranker's work when
    /// the list no longer waits for any; returns whether a ranking is pending.
    @discardableResult
    func dispatchRanking(_ state: MenuState) -> Bool {
        guard let pending = state.list.pendingRank else {
            if ranker.newestID != 0 { ranker.submitNothing() }
            return false
        }
        if pending.id != ranker.newestID {
            ranker.submit(state.list, data: state.data, filters: state.filters, visibleRows: state.visibleKeyRows)
        }
        return true
    }

    /// Waits for the list's pending ranking, if any, and gives its result to the reducer; false when the menu
    /// should close.
    func finishRanking(_ state: inout MenuState) -> Bool {
        guard dispatchRanking(state) else { return true }
        ranker.waitUntilIdle(timeout: 600)
        if let ranked = ranker.takeResult(), !perform([.feedback(ranked)], on: &state) { return false }
        // Never left waiting: had the result gone astray, the list is computed here.
        if state.list.pendingRank != nil {
            state.refreshList(selectFirst: state.list.pendingRank?.selectFirst ?? false)
        }
        return true
    }

    /// Gives the reducer what the store worker reported, then what changed in the store; returns whether anything
    /// was reported, and false in `open` when the menu should close.
    func takeWorkResults(on state: inout MenuState) -> (reported: Bool, open: Bool) {
        var feedback = worker.takeResults()
        if let update = source.takeUpdate() { feedback.append(.refreshed(update)) }
        guard !feedback.isEmpty else { return (false, true) }
        return (true, perform(feedback.map { .feedback($0) }, on: &state))
    }

    /// Runs `intents`, then waits (at most `timeout` seconds) until the store worker has done everything they and
    /// their outcomes asked for, giving each outcome to the reducer: what a test sees after a key press.
    @discardableResult
    func performAndWait(_ intents: [MenuIntent], on state: inout MenuState, timeout: Double = 60) -> Bool {
        guard perform(intents.map { .intent($0) }, on: &state), finishRanking(&state) else { return false }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            worker.waitUntilIdle(timeout: max(0, deadline.timeIntervalSinceNow))
            let (_, open) = takeWorkResults(on: &state)
            guard open else { return false }
        } while worker.isBusy && Date() < deadline
        return true
    }
}
