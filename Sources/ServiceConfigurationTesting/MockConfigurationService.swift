public import ServiceConfiguration

/// A ``ConfigurationService`` for tests that behaves exactly like production, plus setters.
///
/// The mock runs the same engine as ``LiveConfigurationService``: the same priority (overridden > server >
/// default), the same `decode`/`encode` (a value you assign is encoded and decoded back, so a broken codec fails
/// your test instead of hiding), and the same change notifications at the same moment. No module needs a
/// hand-written double.
///
/// ```swift
/// let service = MockConfigurationService()
/// service.albumLikeEnabled = true          // as if the server had sent "Y"
/// #expect(AlbumViewModel(service: service).showsLikeButton)
/// ```
///
/// Assigning through a property simulates the server sending that value (source ``ValueSource/server``);
/// ``setOverride(_:for:)`` and ``updateServerValues(_:)`` work as on the live service.
@dynamicMemberLookup
public final class MockConfigurationService: ConfigurationService {
    private let engine: ConfigurationEngine

    /// Creates a mock with optional initial server values, overrides and catalog.
    public init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil
    ) {
        engine = ConfigurationEngine(serverValues: serverValues, overrides: overrides, catalog: catalog)
    }

    /// Reads a key as a property, or sets it as if the server had sent the value.
    ///
    /// Setting a value the key cannot encode, or whose encoding does not decode back, stops the test with a message
    /// naming the key: the codec is broken.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationDynamicLookup, K>) -> K.Value {
        get { self[K.self] }
        set { setServerValue(newValue, for: K.self) }
    }

    /// Simulates the server sending `value` for the key (other server values stay).
    public func setServerValue<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) {
        do {
            engine.setServerValue(try engine.wireString(for: value, of: K.self), forKeyNamed: K.name)
        } catch {
            preconditionFailure("MockConfigurationService: \(error)")
        }
    }

    /// Simulates the server sending a raw wire string for the key named `name`, valid or not (`nil` removes it), so
    /// tests can check how code copes with a value that fails to decode.
    public func setServerValue(rawValue: String?, forKeyNamed name: String) {
        engine.setServerValue(rawValue, forKeyNamed: name)
    }

    /// The key's effective value.
    public subscript<K: ConfigurationKey>(key: K.Type) -> K.Value { engine.value(of: K.self) }

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

    /// Replaces the server layer; overrides are kept.
    public func updateServerValues(_ values: [String: String]) { engine.replaceServerValues(values) }

    /// Overrides the key with `value`.
    public func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws {
        try requireOverrides()
        engine.setOverride(try engine.wireString(for: value, of: K.self), forKeyNamed: K.name)
    }

    /// Overrides the key named `name` with a validated wire string.
    public func setOverride(rawValue: String, forKeyNamed name: String) throws {
        try requireOverrides()
        try engine.validate(rawValue, forKeyNamed: name)
        engine.setOverride(rawValue, forKeyNamed: name)
    }

    /// Removes the override of the key named `name`, if any.
    public func removeOverride(forKeyNamed name: String) throws {
        try requireOverrides()
        engine.setOverride(nil, forKeyNamed: name)
    }

    /// Removes every override.
    public func removeAllOverrides() throws {
        try requireOverrides()
        engine.replaceOverrides([:])
    }

    /// Sets or removes several overrides as one change (validated first, with `validate`).
    public func updateOverrides(_ changes: [String: String?], validate: Bool) throws {
        try requireOverrides()
        if validate {
            for case (let name, let value?) in changes { try engine.validate(value, forKeyNamed: name) }
        }
        engine.updateOverrides(changes)
    }

    /// Makes the keys of `catalog` known to string-level operations and change detection.
    public func register(_ catalog: ConfigurationCatalog) { engine.register(catalog) }

    /// Throws, as the live service does, when the build has no override layer.
    private func requireOverrides() throws {
        guard ConfigurationEngine.overridesCompiledIn else { throw ConfigurationError.overridesDisabled }
    }

    /// Calls `handler` after each change with the names of the keys whose effective value changed.
    public func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation {
        engine.observe(handler, finish: finish)
    }
}
