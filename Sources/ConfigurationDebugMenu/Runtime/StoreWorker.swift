import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Does the menu's work on the store — saving changes, undoing, pruning, applying and saving scenarios, reading the
/// history for an undo — one piece at a time, in the order asked, on a thread of its own, so the input thread never
/// waits for the store (an etcd that hangs takes 5 s to time out). The outcome of each piece comes back as feedback
/// (``takeResults()``), which the loop gives the reducer.
///
/// A change the store does not answer in time (``OverrideStoreError/Kind/outcomeUnknown``) is reported as
/// unanswered; the worker then reads the store until it answers, compares what it holds with what the change asked
/// for, and reports whether it was made (``MenuFeedback/writeSettled(id:applied:now:)``). Later work waits meanwhile,
/// so a later change of the same key is made after the earlier one is settled, never before it.
final class StoreWorker: Sendable {
    private let source: MenuDataSource
    private let queue = DispatchQueue(label: "config-menu.store")
    private let group = DispatchGroup()
    private let results = Locked<[MenuFeedback]>([])
    private let outstanding = Locked(0)
    /// The first wait before reading a store that did not answer; it doubles up to 5 s.
    private let retry: Double

    init(source: MenuDataSource, retry: Double = 0.25) {
        self.source = source
        self.retry = retry
    }

    private var service: any ConfigurationService { source.service }
    private var store: any OverrideStore { source.service.overrideStore }

    /// Whether work is waiting or under way.
    var isBusy: Bool { outstanding.withLock { $0 > 0 } }

    /// Waits until no work is waiting or under way, at most `seconds`; returns whether it is so.
    @discardableResult
    func waitUntilIdle(timeout seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }

    /// The outcomes reported since the last call, in order.
    func takeResults() -> [MenuFeedback] {
        results.withLock { results in
            defer { results.removeAll() }
            return results
        }
    }

    /// Queues `effect` if it is work on the store; returns whether it was.
    func submit(_ effect: MenuEffect) -> Bool {
        let work: @Sendable () -> Void
        switch effect {
        case .write(let write):
            let expected = write.values
            work = { self.change(id: write.id, expected: expected) { try self.save(write) } }
        case .note(let keys, let note, let id):
            work = {
                let saved: @Sendable (any OverrideStore) -> Bool = { store in
                    keys.allSatisfy { store.entry(forKey: $0)?.note == note }
                }
                self.change(id: id, expected: [:], check: saved) { try self.saveNote(note, for: keys, id: id) }
            }
        case .undo(let proposal, let id):
            work = {
                self.change(id: id, expected: proposal.restores.mapValues { $0?.value }) {
                    try self.service.undoOverrideChange(proposal)
                    self.source.markChanged(proposal.restores.keys)
                    if proposal.isRedo { return .redoSucceeded(proposal.record.summary, id: id) }
                    let own = proposal.record.origin == self.store.origin
                    return .undoSucceeded(
                        proposal.record.summary + (own ? "" : " (by \(proposal.record.origin))"), id: id)
                }
            }
        case .revert(let proposal, let id):
            work = {
                self.change(id: id, expected: proposal.restores.mapValues { $0?.value }) {
                    try self.service.restoreOverrides(
                        proposal.restores, reason: proposal.reason, expecting: proposal.expected)
                    self.source.markChanged(proposal.restores.keys)
                    let count = proposal.laterChanges.count
                    return .undoSucceeded(
                        "\(count) later change\(count == 1 ? "" : "s"), back to \(proposal.record.summary)", id: id)
                }
            }
        case .pruneExpired(let id):
            work = {
                let expired = self.service.expiredOverrides.keys
                self.change(id: id, expected: Dictionary(uniqueKeysWithValues: expired.map { ($0, nil) })) {
                    let removed = try self.service.pruneExpiredOverrides()
                    self.source.markChanged(removed.keys)
                    return .pruned(removed.keys.sorted(), id: id)
                }
            }
        case .applyScenario(let name, let changes, let id):
            work = {
                self.change(id: id, expected: changes.mapValues { $0?.value }) {
                    try self.service.restoreOverrides(
                        changes, reason: OverrideChangeReason(.importProfile, detail: name), expecting: nil)
                    self.source.markChanged(changes.keys)
                    return .scenarioApplied(name, id: id)
                }
            }
        case .saveScenario(let name, let keys):
            work = {
                do {
                    try ScenarioFolder.save(self.store, as: name, keys: keys, in: self.source.scenariosFolder)
                    self.post(.scenarioSaved(name))
                } catch {
                    self.post(.writeFailed("\(error)", id: 0))
                }
            }
        case .proposeUndo:
            work = { self.post(.undoProposed(self.store.history().undoProposal(current: self.store.entries))) }
        case .proposeRedo:
            work = { self.post(.redoProposed(self.store.history().redoProposal(current: self.store.entries))) }
        case .proposeUndoOfChange(let record):
            work = { self.post(self.proposeUndo(of: record)) }
        case .loadScenarios, .syncServerValues, .openExternalEditor, .copyToClipboard, .suspend, .quit:
            return false
        }
        outstanding.withLock { $0 += 1 }
        group.enter()
        queue.async {
            work()
            self.outstanding.withLock { $0 -= 1 }
            self.group.leave()
        }
        return true
    }

    private func post(_ action: MenuFeedback) {
        results.withLock { $0.append(action) }
    }

    // MARK: Changes

    /// Runs one change: reports what `body` returns, or its failure; when the store did not answer, reports that,
    /// then waits for the store to answer and reports whether the change was made: every key of `expected` holds
    /// the override value it gives (`nil`: none), and `check` holds.
    private func change(
        id: Int, expected: [String: String?], check: @escaping @Sendable (any OverrideStore) -> Bool = { _ in true },
        _ body: () throws -> MenuFeedback
    ) {
        do {
            post(try body())
        } catch let error as OverrideStoreError where error.kind == .outcomeUnknown {
            post(.writeUnanswered(error.problem, id: id))
            settle(id: id, keys: Array(expected.keys)) { store in
                check(store) && expected.allSatisfy { store.entry(forKey: $0.key)?.value == $0.value }
            }
        } catch {
            post(.writeFailed("\(error)", id: id))
        }
    }

    /// Reads the store until it answers, then reports whether the unanswered change `id` was made (`isMade`). A
    /// change that is not there yet is looked for once more a second later: the request etcd did not answer may be
    /// handled just after the read that found it missing.
    private func settle(id: Int, keys: [String], isMade: (any OverrideStore) -> Bool) {
        var wait = retry
        while true {
            Thread.sleep(forTimeInterval: wait)
            wait = min(wait * 2, 5)
            guard store.reload() == nil else { continue }
            var made = isMade(store)
            if !made {
                Thread.sleep(forTimeInterval: 1)
                if store.reload() == nil { made = isMade(store) }
            }
            source.markChanged(keys)
            let now = Dictionary(uniqueKeysWithValues: keys.map { ($0, store.entry(forKey: $0)?.value) })
            post(.writeSettled(id: id, applied: made, now: now))
            return
        }
    }

    /// Saves new values through the service, each validated by its key (one value with an expiry: that rule).
    private func save(_ write: OverrideWrite) throws -> MenuFeedback {
        var changes: [String: String?] = [:]
        for change in write.changes { changes[change.key] = change.value }
        if let choice = write.expiry, write.changes.count == 1, let value = write.changes[0].value {
            try service.setOverride(
                rawValue: value, forKeyNamed: write.changes[0].key, note: nil, expiry: choice.expiry(now: Date()))
        } else {
            try service.updateOverrides(changes, validate: true)
        }
        source.markChanged(changes.keys)
        return .writeSucceeded(write)
    }

    /// Replaces the note of `key`'s override, keeping its value and other metadata, through the service (refused if
    /// another process changed the override meanwhile).
    /// Puts `note` on the overrides of `keys` as one change (one history entry, one undo), each override's value
    /// and expiry kept; fails naming the first key that has no override any more, changing none.
    private func saveNote(_ note: String?, for keys: [String], id: Int) throws -> MenuFeedback {
        var originals: [String: OverrideEntry?] = [:]
        var entries: [String: OverrideEntry?] = [:]
        for key in keys {
            guard let original = store.entry(forKey: key) else {
                return .writeFailed("\(key) has no override any more", id: id)
            }
            var entry = original
            entry.note = note
            originals[key] = original
            entries[key] = entry
        }
        try service.restoreOverrides(entries, reason: OverrideChangeReason(.set, detail: "note"), expecting: originals)
        source.markChanged(keys)
        let subject = keys.count == 1 ? "note of \(keys[0])" : "note of \(keys.count) overrides"
        let summary = note.map { "\(subject): \($0)" } ?? "\(subject) removed"
        return .writeSucceeded(OverrideWrite(changes: [], summary: summary, id: id))
    }

    /// What undoing `chosen` would do, read from the history as it is now: exactly it, or back to before it when
    /// later changes of its keys are in the way.
    private func proposeUndo(of chosen: OverrideJournalRecord) -> MenuFeedback {
        let history = store.history()
        guard let record = history.change(matching: chosen) else { return .chosenUndoProposed(nil, undoneBy: nil) }
        let exact = history.undoProposal(for: record, current: store.entries)
        let proposal =
            exact.laterChanges.isEmpty ? exact : history.undoProposal(backTo: record, current: store.entries)
        return .chosenUndoProposed(proposal, undoneBy: history.undo(of: record))
    }
}
