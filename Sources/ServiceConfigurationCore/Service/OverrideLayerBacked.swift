/// A service made of a ``ConfigurationEngine`` and an ``OverrideLayer`` over it: ``LiveConfigurationService`` and
/// `MockConfigurationService`.
///
/// This extension implements every requirement of ``ConfigurationService`` (and so of ``ConfigurationReader``) once,
/// for both: reads go to the engine, changes to the override layer. The mock behaves like production because it runs
/// this same code; a conformer only provides its ``overrideLayer`` (the live service also declares an inlinable
/// subscript, for its warm reads).
package protocol OverrideLayerBacked: ConfigurationService, ConfigurationEngineBacked {
    /// The override layer every change goes through; its engine is the one every read goes to.
    var overrideLayer: OverrideLayer { get }
}

extension OverrideLayerBacked {
    /// The engine behind every read: the override layer's.
    package var configurationEngine: ConfigurationEngine { overrideLayer.engine }

    // MARK: Reading and observing (ConfigurationReader)

    /// The key's effective value.
    public subscript<K: ConfigurationKey>(key: K.Type) -> K.Value {
        configurationEngine.value(of: K.self)
    }

    /// The key's effective value, its source, and every rejected candidate.
    public func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value> {
        configurationEngine.resolveAndCache(K.self)
    }

    /// The type-erased resolution of the key named `name`, or `nil` when no known key has that name.
    public func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>? {
        configurationEngine.resolution(forKeyNamed: name)
    }

    /// A consistent snapshot of every value at this instant.
    public func values() -> ConfigurationValues { configurationEngine.currentValues() }

    /// The server layer.
    public var serverValues: [String: String] { configurationEngine.serverValues }

    /// The override layer as applied (empty where overrides do not apply in this build).
    public var overrides: [String: String] { configurationEngine.overrides }

    /// The overrides this run was launched with, as applied (checked against the catalog; empty where overrides do
    /// not apply). They win over ``overrides`` until the program ends.
    public var launchOverrides: [String: String] { configurationEngine.launchOverrides }

    /// Whether this service applies overrides: `false` for a live service created with the default
    /// ``ConfigurationOverridePolicy/debugBuildsOnly`` in a release build, for one created with
    /// ``ConfigurationOverridePolicy/never``, and in every build without the `DebugOverrides` trait.
    ///
    /// A debug menu can show it, so nobody wonders why an override has no effect.
    public var overridesApply: Bool { configurationEngine.overridesEnabled }

    /// Calls `handler` after each change with the names of the keys whose effective value changed.
    ///
    /// Changes read from the override store by its watcher are announced on the watcher's thread.
    public func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation {
        configurationEngine.observe(handler, finish: finish)
    }

    // MARK: Feeding and registering

    /// Replaces the server layer; overrides are kept (those set "until the server changes" expire if their key's
    /// value changed, in the same step).
    public func updateServerValues(_ values: [String: String]) { overrideLayer.replaceServerValues(values) }

    /// Makes the keys of `catalog` known to string-level operations and change detection.
    public func register(_ catalog: ConfigurationCatalog) { configurationEngine.register(catalog) }

    // MARK: Overriding

    /// Where this service's overrides live, with their metadata.
    public var overrideStore: any OverrideStore { overrideLayer.store }

    /// Overrides the key with `value`, saving it to the override store first.
    public func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws {
        guard configurationEngine.overridesEnabled else { throw ConfigurationError.overridesDisabled }
        try overrideLayer.update([K.name: try configurationEngine.wireString(for: value, of: K.self)], validate: false)
    }

    /// Overrides the key named `name` with a validated wire string; `note` replaces the override's note (`nil`
    /// keeps it, an empty note removes it).
    ///
    /// Throws ``ConfigurationError`` for an unknown key or an invalid value, ``OverrideStoreError`` when the store
    /// cannot save; in both cases nothing changes.
    public func setOverride(rawValue: String, forKeyNamed name: String, note: String?) throws {
        try overrideLayer.update([name: rawValue], note: note, validate: true)
    }

    /// Overrides the key named `name` with a validated wire string that stops applying by `expiry`; see
    /// ``ConfigurationService/setOverride(rawValue:forKeyNamed:note:expiry:)``.
    public func setOverride(rawValue: String, forKeyNamed name: String, note: String?, expiry: OverrideExpiry?) throws {
        try overrideLayer.update([name: rawValue], note: note, expiry: expiry, validate: true)
    }

    /// Removes the override of the key named `name`, if any (an entry kept without being applied included).
    public func removeOverride(forKeyNamed name: String) throws {
        try overrideLayer.remove(name)
    }

    /// Removes every override.
    public func removeAllOverrides() throws {
        try overrideLayer.removeAll()
    }

    /// Sets or removes several overrides as one change (validated first, with `validate`), saved in one write.
    public func updateOverrides(_ changes: [String: String?], validate: Bool) throws {
        try overrideLayer.update(changes, validate: validate)
    }

    /// Puts stored entries back exactly as given, metadata included (an undo, an import), in one write.
    public func restoreOverrides(_ entries: [String: OverrideEntry?]) throws {
        try overrideLayer.restore(entries)
    }

    /// Puts stored entries back, recorded with `reason`, if the keys of `expecting` still hold those entries.
    public func restoreOverrides(
        _ entries: [String: OverrideEntry?], reason: OverrideChangeReason, expecting: [String: OverrideEntry?]?
    ) throws {
        try overrideLayer.restore(entries, reason: reason, expecting: expecting)
    }

    /// The stored overrides that have expired, with why (kept, not applied, until pruned).
    public var expiredOverrides: [String: OverrideExpiryReason] { overrideLayer.expiredOverrides }

    /// Removes the stored overrides that have expired, as one change.
    @discardableResult
    public func pruneExpiredOverrides() throws -> [String: OverrideEntry] {
        try overrideLayer.prune()
    }
}
