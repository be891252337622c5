/// Every operation that names a key also takes the key path the reads use, so a key is named one way everywhere:
///
/// ```swift
/// let count = service.checkoutMaxCartItems
/// try service.setOverride(30, for: \.checkoutMaxCartItems)
/// service.resolution(of: \.checkoutMaxCartItems).source      // .overridden
/// for await count in service.changes(of: \.checkoutMaxCartItems) { ... }
/// ```
extension ConfigurationReader {
    /// The key's effective value, its source, and every rejected candidate.
    public func resolution<K: ConfigurationKey>(
        of keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) -> ConfigurationResolution<K.Value> {
        resolution(of: K.self)
    }

    /// The key's new value each time its effective value changes (see ``changes(of:)-(K.Type)``).
    public func changes<K: ConfigurationKey>(
        of keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) -> AsyncStream<K.Value> {
        changes(of: K.self)
    }

    /// Whether the A/B key's current variant counts as enabled.
    public func isEnabled<K: ConfigurationKey>(
        _ keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) -> Bool where K.Value: ConfigurationExperimentVariant {
        self[K.self].isEnabled
    }

    /// The key's wire name: `service.name(of: \.checkoutMaxCartItems)` is `"checkout.cart.max_items"`.
    public func name<K: ConfigurationKey>(of keyPath: KeyPath<ConfigurationDynamicLookup, K>) -> String {
        K.name
    }

    /// Reached only by a name no visible scope declares; never available, so a misspelt or unreachable key is a
    /// compile error that says what to check.
    @available(
        *, unavailable,
        message:
            "no configuration key is named so here: check the spelling, import the module that declares the key, make its scope, property and key type public, and add the scope's routing subscript on ConfigurationDynamicLookup"
    )
    public subscript(dynamicMember name: String) -> NoConfigurationKeyWithThisName {
        preconditionFailure("unreachable: this subscript is unavailable")
    }
}

extension ConfigurationService {
    /// Overrides the key with `value`; throws when the value cannot be encoded or does not decode back.
    public func setOverride<K: ConfigurationKey>(
        _ value: K.Value,
        for keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) throws {
        try setOverride(value, for: K.self)
    }

    /// Removes the key's override, if any.
    public func removeOverride<K: ConfigurationKey>(for keyPath: KeyPath<ConfigurationDynamicLookup, K>) throws {
        try removeOverride(forKeyNamed: K.name)
    }
}
