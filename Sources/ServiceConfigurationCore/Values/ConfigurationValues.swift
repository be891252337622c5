/// A value-type snapshot of every key's resolved value, taken at one instant.
///
/// A feature that reads several related keys reads them from one snapshot, so it never sees half of a server
/// sync:
///
/// ```swift
/// let values = service.values()
/// if values.albumLikeEnabled { configureLikes(limit: values.albumLikeLimit) }
/// ```
///
/// Taking a snapshot copies no values (the layers are copy-on-write); values are decoded when first read, or
/// taken from the service's decoded cache when it was valid at the snapshot's instant.
@dynamicMemberLookup
public struct ConfigurationValues: Sendable {
    /// The server layer at the snapshot's instant.
    public let serverValues: [String: String]
    /// The override layer at the snapshot's instant.
    public let overrides: [String: String]
    /// The launch overrides this run was started with (see ``ConfigurationLaunchOverrides``); they win over
    /// ``overrides``.
    public let launchOverrides: [String: String]
    private let decoded: [ObjectIdentifier: ConfigurationEngine.DecodedEntry]
    /// The engine the snapshot was taken from, which records the snapshot's reads as the program's reads.
    private weak let engine: ConfigurationEngine?

    /// Creates a snapshot from explicit layers, for example in a unit test or a preview.
    public init(
        serverValues: [String: String] = [:], overrides: [String: String] = [:],
        launchOverrides: [String: String] = [:]
    ) {
        self.init(server: serverValues, overrides: overrides, launch: launchOverrides, decoded: [:], engine: nil)
    }

    init(
        server: [String: String], overrides: [String: String], launch: [String: String],
        decoded: [ObjectIdentifier: ConfigurationEngine.DecodedEntry], engine: ConfigurationEngine?
    ) {
        self.serverValues = server
        self.overrides = overrides
        self.launchOverrides = launch
        self.decoded = decoded
        self.engine = engine
    }

    /// Reads a key as a property: `values.albumLikeEnabled`.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationDynamicLookup, K>) -> K.Value {
        self[K.self]
    }

    /// The key's value at the snapshot's instant.
    public subscript<K: ConfigurationKey>(key: K.Type) -> K.Value {
        resolution(of: K.self).value
    }

    /// The key's resolution at the snapshot's instant.
    ///
    /// A snapshot taken from a service counts as the program reading the key (see
    /// ``ConfigurationReadCoverage``).
    public func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value> {
        let layers = RawLayers(
            launch: launchOverrides[K.name], override: overrides[K.name], server: serverValues[K.name])
        let resolution: ConfigurationResolution<K.Value>
        if let entry = decoded[ObjectIdentifier(K.self)], entry.layers == layers,
            let box = entry.box as? ResolutionBox<K.Value>
        {
            resolution = box.resolution
        } else {
            resolution = layers.resolve(K.self, range: K.declaredNumberRange)
        }
        engine?.recordSnapshotRead(K.self, layers: layers, rejections: resolution.rejections)
        return resolution
    }

    /// The resolution of the key at `keyPath`: `values.resolution(of: \.albumLikeEnabled)`.
    public func resolution<K: ConfigurationKey>(
        of keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) -> ConfigurationResolution<K.Value> {
        resolution(of: K.self)
    }

    /// Reached only by a name no visible scope declares; never available.
    @available(
        *, unavailable,
        message:
            "no configuration key is named so here: check the spelling, import the module that declares the key, make its scope, property and key type public, and add the scope's routing subscript on ConfigurationDynamicLookup"
    )
    public subscript(dynamicMember name: String) -> NoConfigurationKeyWithThisName {
        preconditionFailure("unreachable: this subscript is unavailable")
    }

    /// The snapshot restricted to one scope's keys.
    public func scoped<Scope: ConfigurationScope>(to scope: Scope.Type) -> ScopedConfigurationValues<Scope> {
        ScopedConfigurationValues(self)
    }
}

/// A ``ConfigurationValues`` snapshot restricted, at compile time, to the keys of one scope.
///
/// ```swift
/// let photos = service.values(in: ConfigurationScopes.Photos.self)
/// photos.albumLikeEnabled        // compiles
/// photos.chatTypingIndicator     // does not: not a Photos key
/// ```
@dynamicMemberLookup
public struct ScopedConfigurationValues<Scope: ConfigurationScope>: Sendable {
    /// The whole snapshot this view reads from.
    public let values: ConfigurationValues

    /// Creates a view of `values` restricted to `Scope`.
    public init(_ values: ConfigurationValues) {
        self.values = values
    }

    /// Reads one of the scope's keys as a property.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<Scope, K>) -> K.Value {
        values[K.self]
    }

    /// The resolution of one of the scope's keys.
    public func resolution<K: ConfigurationKey>(of keyPath: KeyPath<Scope, K>) -> ConfigurationResolution<K.Value> {
        values.resolution(of: K.self)
    }

    /// Reached only by a name the scope does not declare; never available.
    @available(
        *, unavailable,
        message:
            "this scope has no key property of that name: check the spelling, or read a key of another scope through a view of that scope"
    )
    public subscript(dynamicMember name: String) -> NoConfigurationKeyWithThisName {
        preconditionFailure("unreachable: this subscript is unavailable")
    }
}
