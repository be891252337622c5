import Foundation

/// The production ``ConfigurationService``: server values from your sync code, overrides from people and tools.
///
/// ```swift
/// let store = FileOverrideStore(url: FileOverrideStore.defaultURL(appName: "demo"))
/// let service = LiveConfigurationService(serverValues: lastSync, catalog: catalog, overrideStore: store)
/// service.updateServerValues(newSync)   // after each server sync; overrides stay
/// if service.albumLikeEnabled { ... }
/// ```
///
/// With an override store, overrides survive restarts, every change is saved before it takes effect, and changes
/// other processes (the debug menu, `config-menu set`) make to the file reach this service within a second and
/// fire its change notifications. Without one, overrides live in memory.
///
/// `LiveConfigurationService` is `Sendable` without `@unchecked`: its state lives in a ``ConfigurationEngine``
/// whose mutable state sits in one `Mutex`. Decoding runs outside the lock, so a key's custom `decode` may read
/// other keys of the same service. A warm read takes no shared lock.
///
/// Builds without the `DebugOverrides` package trait have no override layer: the store is never read, and
/// setting an override throws ``ConfigurationError/overridesDisabled``.
///
/// The service records which keys the program reads (``readCoverage()``), warns once about each key read whose scope
/// is missing from the catalog (``Options/onWarning``), and, with an override store, publishes that beside the store
/// for the debug tools (``programReportURL``). See ``Options``.
public final class LiveConfigurationService: ConfigurationService {
    @usableFromInline let engine: ConfigurationEngine
    /// The store that persists this service's overrides, if any.
    public let overrideStore: FileOverrideStore?
    private let storeObservation: ConfigurationObservation?
    /// Publishes the program report beside the store, if any.
    let publisher: ProgramReportPublisher?

    /// Creates a service with initial server values and in-memory overrides.
    ///
    /// Pass the program's `catalog` so string-level operations (the debug menu, the command-line tool) can validate
    /// every key and change notifications compare decoded values; keys not in the catalog become known when read
    /// (and, once the service has a catalog, are reported as unregistered).
    public init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        options: Options = Options()
    ) {
        engine = ConfigurationEngine(
            serverValues: serverValues, overrides: overrides, catalog: catalog, recordsReads: options.recordsReads,
            onWarning: options.onWarning)
        overrideStore = nil
        storeObservation = nil
        publisher = nil
    }

    /// Creates a service whose overrides live in `overrideStore`.
    ///
    /// The store is read now; a problem with the file (see ``FileOverrideStore/lastError``) leaves the service on
    /// server and default values. With a `watchMode`, changes other processes make to the file are picked up live;
    /// pass `nil` to read the file only now and on your own ``FileOverrideStore/reload()`` calls.
    ///
    /// From its first read on, the service publishes its program report in a `programs` folder beside the store
    /// (see ``programReportURL``), unless ``Options/publishesProgramReport`` is off.
    public init(
        serverValues: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overrideStore: FileOverrideStore,
        watchMode: OverrideStoreWatchMode? = .automatic,
        options: Options = Options()
    ) {
        guard ConfigurationEngine.overridesCompiledIn else {
            engine = ConfigurationEngine(
                serverValues: serverValues, catalog: catalog, recordsReads: options.recordsReads,
                onWarning: options.onWarning)
            self.overrideStore = nil
            storeObservation = nil
            publisher = nil
            return
        }
        overrideStore.reload()
        let engine = ConfigurationEngine(
            serverValues: serverValues,
            overrides: overrideStore.entries.mapValues(\.value),
            catalog: catalog,
            recordsReads: options.recordsReads,
            onWarning: options.onWarning
        )
        self.engine = engine
        self.overrideStore = overrideStore
        if options.publishesProgramReport {
            let publisher = ProgramReportPublisher(
                engine: engine, storeURL: overrideStore.url, programName: options.programName,
                interval: options.programReportInterval, keptFinishedReports: options.keptFinishedReports,
                onWarning: options.onWarning)
            engine.setChangeHook { [weak publisher] change in publisher?.engineChanged(change) }
            self.publisher = publisher
        } else {
            publisher = nil
        }
        // Apply what the store holds now rather than what the change carried: notifications of two saves racing in
        // this process can arrive out of order, and the store's current state is the one that is on disk.
        storeObservation = overrideStore.observe { [unowned overrideStore] change in
            engine.updateOverrides(
                Dictionary(
                    uniqueKeysWithValues: change.changedKeys.map { ($0, overrideStore.entry(forKey: $0)?.value) }))
        }
        // Pick up anything written between the first read and the observation.
        overrideStore.reload()
        engine.replaceOverrides(overrideStore.entries.mapValues(\.value))
        if let watchMode { overrideStore.startWatching(watchMode) }
    }

    deinit {
        storeObservation?.cancel()
        publisher?.end()
    }

    /// The key's effective value.
    @inlinable
    public subscript<K: ConfigurationKey>(key: K.Type) -> K.Value {
        engine.value(of: K.self)
    }

    /// The key's effective value, its source, and every rejected candidate.
    public func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value> {
        engine.resolveAndCache(K.self)
    }

    /// The type-erased resolution of the key named `name`, or `nil` when no known key has that name.
    public func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>? {
        engine.resolution(forKeyNamed: name)
    }

    /// A consistent snapshot of every value at this instant.
    public func values() -> ConfigurationValues { engine.snapshot() }

    /// The server layer.
    public var serverValues: [String: String] { engine.serverValues }

    /// The override layer.
    public var overrides: [String: String] { engine.overrides }

    /// Makes the keys of `catalog` known to string-level operations and change detection.
    public func register(_ catalog: ConfigurationCatalog) { engine.register(catalog) }

    /// Replaces the server layer; overrides are kept.
    public func updateServerValues(_ values: [String: String]) { engine.replaceServerValues(values) }

    /// Overrides the key with `value`, saving it to the override store first if there is one.
    public func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
        try writeOverride(try engine.wireString(for: value, of: K.self), forKeyNamed: K.name, note: nil)
    }

    /// Overrides the key named `name` with a validated wire string.
    public func setOverride(rawValue: String, forKeyNamed name: String) throws {
        try setOverride(rawValue: rawValue, forKeyNamed: name, note: nil)
    }

    /// Overrides the key named `name` with a validated wire string and a note kept with it in the store.
    ///
    /// Throws ``ConfigurationError`` for an unknown key or an invalid value, ``OverrideStoreError`` when the store
    /// cannot save; in both cases nothing changes.
    public func setOverride(rawValue: String, forKeyNamed name: String, note: String?) throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
        try engine.validate(rawValue, forKeyNamed: name)
        try writeOverride(rawValue, forKeyNamed: name, note: note)
    }

    /// Removes the override of the key named `name`, if any.
    public func removeOverride(forKeyNamed name: String) throws {
        try writeOverride(nil, forKeyNamed: name, note: nil)
    }

    /// Removes every override.
    public func removeAllOverrides() throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
        if let overrideStore {
            try overrideStore.removeAll()
        } else {
            engine.replaceOverrides([:])
        }
    }

    /// Sets or removes several overrides as one change (validated first, with `validate`), saved in one write.
    public func updateOverrides(_ changes: [String: String?], validate: Bool) throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
        if validate {
            for case (let name, let value?) in changes { try engine.validate(value, forKeyNamed: name) }
        }
        guard let overrideStore else {
            engine.updateOverrides(changes)
            return
        }
        let server = engine.serverValues
        try overrideStore.modify { entries in
            for (name, value) in changes {
                entries[name] = value.map { OverrideEntry(value: $0, setAt: Date(), serverValueWhenSet: server[name]) }
            }
        }
    }

    /// Saves first (the store's observation then updates the engine), so nothing is shown as done before it is.
    private func writeOverride(_ raw: String?, forKeyNamed name: String, note: String?) throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
        guard let overrideStore else {
            engine.setOverride(raw, forKeyNamed: name)
            return
        }
        if let raw {
            try overrideStore.set(raw, forKey: name, serverValue: engine.serverValues[name], note: note)
        } else {
            try overrideStore.removeValue(forKey: name)
        }
    }

    /// Calls `handler` after each change with the names of the keys whose effective value changed.
    ///
    /// Changes read from the override store by its watcher are announced on the watcher's thread.
    public func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation {
        engine.observe(handler, finish: finish)
    }
}
