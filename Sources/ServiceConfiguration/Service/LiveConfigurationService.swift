/// The production ``ConfigurationService``: server values from your sync code, overrides from people and tools.
///
/// ```swift
/// let service = LiveConfigurationService(catalog: try ConfigurationCatalog(scopes: [ConfigurationScopes.Photos.self]))
/// service.updateServerValues(["function.album.like.enabled": "Y"])   // after each server sync
/// if service.albumLikeEnabled { ... }
/// ```
///
/// `LiveConfigurationService` is `Sendable` without `@unchecked`: its only stored state is a ``ConfigurationEngine``
/// whose mutable state sits in one `Mutex`. Decoding runs outside the lock, so a key's custom `decode` may read
/// other keys of the same service. A warm read takes no shared lock (see ``ConfigurationEngine``).
public final class LiveConfigurationService: ConfigurationService {
    @usableFromInline let engine: ConfigurationEngine

    /// Creates a service with initial server values and overrides.
    ///
    /// Pass the program's `catalog` so string-level operations (the debug menu, the command-line tool) can validate
    /// every key and change notifications compare decoded values; keys not in the catalog become known when read.
    public init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil
    ) {
        engine = ConfigurationEngine(serverValues: serverValues, overrides: overrides, catalog: catalog)
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

    /// Overrides the key with `value`.
    public func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws {
        engine.setOverride(try engine.wireString(for: value, of: K.self), forKeyNamed: K.name)
    }

    /// Overrides the key named `name` with a validated wire string.
    public func setOverride(rawValue: String, forKeyNamed name: String) throws {
        try engine.validate(rawValue, forKeyNamed: name)
        engine.setOverride(rawValue, forKeyNamed: name)
    }

    /// Removes the override of the key named `name`, if any.
    public func removeOverride(forKeyNamed name: String) throws { engine.setOverride(nil, forKeyNamed: name) }

    /// Removes every override.
    public func removeAllOverrides() throws { engine.replaceOverrides([:]) }

    /// Calls `handler` after each change with the names of the keys whose effective value changed.
    public func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation {
        engine.observe(handler, finish: finish)
    }
}
