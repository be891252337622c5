import Foundation

/// The override layer of a service: its ``OverrideStore``, kept in step with the engine, and the one write path
/// every override change takes.
///
/// Every change is one ``OverrideStore/modify(_:)``; the engine then applies what the store holds (through the
/// store's change notification), so nothing is shown as applied before it is saved, and a file-backed service, an
/// in-memory one and the mock change overrides the same way. ``LiveConfigurationService`` and
/// `MockConfigurationService` both delegate here.
package final class OverrideLayer: Sendable {
    package let engine: ConfigurationEngine
    package let store: any OverrideStore
    private let observation: ConfigurationObservation?

    /// Connects `store` to `engine`: reads it, applies it, follows its changes (and, with `watchMode`, changes
    /// other processes make). With overrides off in this build, the store is never read.
    package init(engine: ConfigurationEngine, store: any OverrideStore, watchMode: OverrideStoreWatchMode?) {
        self.engine = engine
        self.store = store
        guard engine.overridesEnabled else {
            observation = nil
            return
        }
        store.reload()
        // Apply what the store holds now rather than what the change carried: notifications of two saves racing in
        // this process can arrive out of order, and the store's current state is the one that was saved.
        observation = store.observe { [weak store] change in
            guard let store else { return }
            engine.updateOverrides(
                Dictionary(uniqueKeysWithValues: change.changedKeys.map { ($0, store.entry(forKey: $0)?.value) }))
        }
        // Pick up anything written between the first read and the observation.
        store.reload()
        engine.replaceOverrides(store.entries.mapValues(\.value))
        if let watchMode { store.startWatching(watchMode) }
    }

    deinit {
        observation?.cancel()
    }

    /// Applies what the store holds for `keys` now. The store announces each change, but when its watcher reads a
    /// save back before the saving thread records it, the announcement comes from the watcher's thread, a moment
    /// later: this makes every write visible in the service when it returns.
    private func applyStored(_ keys: some Sequence<String>) {
        engine.updateOverrides(Dictionary(uniqueKeysWithValues: Set(keys).map { ($0, store.entry(forKey: $0)?.value) }))
    }

    private func requireOverrides() throws(ConfigurationError) {
        guard engine.overridesEnabled else { throw .overridesDisabled }
    }

    /// Sets (a wire string) or removes (`nil`) overrides as one change, each value validated by its key when
    /// `validate`. A changed value gets the time and the server value it now hides; its note stays, unless `note`
    /// gives a new one (an empty note removes it). A value equal to the stored one changes nothing.
    package func update(_ changes: [String: String?], note: String? = nil, validate: Bool) throws {
        try requireOverrides()
        if validate {
            for case (let name, let value?) in changes { try engine.validate(value, forKeyNamed: name) }
        }
        let server = engine.serverValues
        let now = Date()
        try store.modify { entries in
            for (name, value) in changes {
                guard let value else {
                    entries[name] = nil
                    continue
                }
                var entry = entries[name]
                if entry?.value != value {
                    entry = OverrideEntry(value: value, setAt: now, serverValueWhenSet: server[name], note: entry?.note)
                }
                if let note { entry?.note = note.isEmpty ? nil : note }
                entries[name] = entry
            }
        }
        applyStored(changes.keys)
    }

    /// Puts entries back exactly as given (time, note, server value then, unknown fields): what an undo or an
    /// import does. No validation: they may name keys this program does not know or hold values its keys reject.
    package func restore(_ entries: [String: OverrideEntry?]) throws {
        try requireOverrides()
        try store.modify { stored in
            for (name, entry) in entries { stored[name] = entry }
        }
        applyStored(entries.keys)
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
        let keys = Array(engine.overrides.keys)
        try store.removeAll()
        applyStored(keys)
    }
}
