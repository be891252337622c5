import Foundation

/// The override layer of a service: its ``OverrideStore``, kept in step with the engine, and the one write path
/// every override change takes.
///
/// Every change is one ``OverrideStore/modify(_:_:)``, recorded in the store's history with its reason; the engine
/// then applies what the store holds (through the store's change notification), leaving out overrides that have
/// expired (see ``OverrideExpiry``), so nothing is shown as applied before it is saved, and a file-backed service,
/// an in-memory one and the mock change overrides the same way. ``LiveConfigurationService`` and
/// `MockConfigurationService` both delegate here.
package final class OverrideLayer: Sendable {
    package let engine: ConfigurationEngine
    package let store: any OverrideStore
    private let applier: OverrideApplier
    private let observation: ConfigurationObservation?

    /// Connects `store` to `engine`: reads it, applies it (without expired overrides, judged by `clock` and the
    /// program's version), follows its changes (and, with `watchMode`, changes other processes make). With overrides
    /// off in this build, the store is never read.
    package init(
        engine: ConfigurationEngine,
        store: any OverrideStore,
        watchMode: OverrideStoreWatchMode?,
        clock: any OverrideClock = SystemOverrideClock(),
        programVersion: ProgramVersion? = nil
    ) {
        self.engine = engine
        self.store = store
        let applier = OverrideApplier(engine: engine, store: store, clock: clock, programVersion: programVersion)
        self.applier = applier
        guard engine.overridesEnabled else {
            observation = nil
            return
        }
        store.reload()
        // Apply what the store holds now rather than what the change carried: notifications of two saves racing in
        // this process can arrive out of order, and the store's current state is the one that was saved.
        observation = store.observe { change in applier.apply(change.changedKeys) }
        // Pick up anything written between the first read and the observation.
        store.reload()
        applier.applyAll()
        if let watchMode { store.startWatching(watchMode) }
    }

    deinit {
        observation?.cancel()
        applier.stop()
    }

    /// The program version overrides "until version" are judged by.
    package var programVersion: ProgramVersion? { applier.programVersion }

    /// The stored overrides that have expired (and are not applied), with why.
    package var expiredOverrides: [String: OverrideExpiryReason] {
        engine.overridesEnabled ? applier.expired : [:]
    }

    /// Replaces the server values, re-evaluating overrides that expire when their key's server value changes.
    package func replaceServerValues(_ values: [String: String]) {
        if engine.overridesEnabled {
            applier.replaceServerValues(values)
        } else {
            engine.replaceServerValues(values)
        }
    }

    /// Sets or removes one key's server value (as if one key of a sync changed), re-evaluating its override.
    package func setServerValue(_ raw: String?, forKeyNamed name: String) {
        if engine.overridesEnabled {
            applier.setServerValue(raw, forKeyNamed: name)
        } else {
            engine.setServerValue(raw, forKeyNamed: name)
        }
    }

    /// Applies what the store holds for `keys` now. The store announces each change, but when its watcher reads a
    /// save back before the saving thread records it, the announcement comes from the watcher's thread, a moment
    /// later: this makes every write visible in the service when it returns.
    private func applyStored(_ keys: some Sequence<String>) {
        applier.apply(keys)
    }

    private func requireOverrides() throws(ConfigurationError) {
        guard engine.overridesEnabled else { throw .overridesDisabled }
    }

    /// Sets (a wire string) or removes (`nil`) overrides as one change, each value validated by its key when
    /// `validate`. A changed value gets the time and the server value it now hides; its note stays, unless `note`
    /// gives a new one (an empty note removes it). A new value starts without expiry unless `expiry` gives one; for
    /// an unchanged value, `expiry` (if given) replaces the rule and restarts it from now (the time and server value
    /// are taken again, so "until the server changes" means from now). A value equal to the stored one, without a
    /// note or expiry, changes nothing. A removal removes an entry the store kept without applying it too (saved and
    /// recorded as a change of its own, after the others).
    package func update(
        _ changes: [String: String?], note: String? = nil, expiry: OverrideExpiry? = nil, validate: Bool
    ) throws {
        try requireOverrides()
        if validate {
            for case (let name, let value?) in changes { try engine.validate(value, forKeyNamed: name) }
        }
        let server = engine.serverValues
        let now = applier.clock.now
        let removing = changes.values.allSatisfy { $0 == nil }
        try store.modify(keys: Set(changes.keys), OverrideChangeReason(removing ? .reset : .set)) { entries in
            for (name, value) in changes {
                guard let value else {
                    entries[name] = nil
                    continue
                }
                var entry = entries[name]
                if entry?.value != value {
                    entry = OverrideEntry(
                        value: value, setAt: now, serverValueWhenSet: server[name], note: entry?.note,
                        expiry: expiry ?? .never)
                } else if let expiry, entry?.expiry != expiry {
                    entry?.expiry = expiry
                    entry?.setAt = now
                    entry?.serverValueWhenSet = server[name]
                }
                if let note { entry?.note = note.isEmpty ? nil : note }
                entries[name] = entry
            }
        }
        // Removing an override removes an entry the store kept without applying it too, as `remove` does: the
        // change's body never sees those entries, so they go one by one after it.
        let removals = changes.compactMap { $0.value == nil ? $0.key : nil }
        if !removals.isEmpty {
            let kept = Set(store.problems.lazy.filter { !$0.isApplied }.map(\.key))
            for name in removals where kept.contains(name) { try store.removeValue(forKey: name) }
        }
        applyStored(changes.keys)
    }

    /// Puts entries back exactly as given (time, note, server value then, expiry, unknown fields): what an undo or
    /// an import does, recorded with `reason`. No validation: they may name keys this program does not know or hold
    /// values its keys reject. With `expecting`, each named key must hold exactly that entry when the change is
    /// saved (under the store's lock), else nothing changes and ``OverrideChangeConflict`` says which keys changed.
    package func restore(
        _ entries: [String: OverrideEntry?], reason: OverrideChangeReason = OverrideChangeReason(.restore),
        expecting: [String: OverrideEntry?]? = nil
    ) throws {
        try requireOverrides()
        let conflict = Locked<OverrideChangeConflict?>(nil)
        do {
            try store.modify(keys: Set(entries.keys).union(expecting.map { Array($0.keys) } ?? []), reason) { stored in
                if let expecting {
                    let changed = expecting.keys.sorted().filter { stored[$0] != expecting[$0] ?? nil }
                    if !changed.isEmpty {
                        let found = OverrideChangeConflict(
                            keys: changed, current: Dictionary(uniqueKeysWithValues: changed.map { ($0, stored[$0]) }))
                        conflict.withLock { $0 = found }
                        throw found
                    }
                }
                for (name, entry) in entries { stored[name] = entry }
            }
        } catch {
            if let found = conflict.withLock({ $0 }) { throw found }
            throw error
        }
        applyStored(entries.keys)
    }

    /// Removes the stored overrides that have expired (judged when the change is saved), recorded as a prune;
    /// returns the removed entries.
    @discardableResult
    package func prune() throws -> [String: OverrideEntry] {
        try requireOverrides()
        let server = engine.serverValues
        let now = applier.clock.now
        let version = applier.programVersion
        let removed = Locked<[String: OverrideEntry]>([:])
        try store.modify(OverrideChangeReason(.prune)) { entries in
            let expired = entries.filter {
                $0.value.expiration(now: now, serverValue: server[$0.key], programVersion: version) != nil
            }
            for key in expired.keys { entries[key] = nil }
            removed.withLock { $0 = expired }
        }
        let result = removed.withLock { $0 }
        applyStored(result.keys)
        return result
    }

    /// Removes the override of `name`, including an entry the store kept without applying.
    package func remove(_ name: String) throws {
        try requireOverrides()
        try store.removeValue(forKey: name)
        applyStored([name])
    }

    /// Removes every override, including entries the store kept without applying.
    package func removeAll() throws {
        try requireOverrides()
        let keys = Set(engine.overrides.keys).union(store.entries.keys)
        try store.removeAll()
        applyStored(keys)
    }
}
