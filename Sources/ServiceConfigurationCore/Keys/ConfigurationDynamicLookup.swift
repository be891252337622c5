/// The routing type behind `service.albumLikeEnabled`: each module adds one subscript that maps its scope's key
/// paths to key types.
///
/// `ConfigurationDynamicLookup` has no cases and is never instantiated; only its key paths are used, and they
/// resolve entirely at compile time. A module that owns a scope adds (all `public` when other modules read the
/// keys):
///
/// ```swift
/// extension ConfigurationDynamicLookup {
///     public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Photos, K>) -> K {
///         self[K.self]
///     }
/// }
/// ```
///
/// When no visible scope has a property of the name used, the compiler reports the fallback declared here:
/// `'subscript(dynamicMember:)' is unavailable: no configuration key is named so here…` for a read, or
/// `… requires that 'NoConfigurationKeyWithThisName' conform to 'ConfigurationKey'` for a key path such as
/// `changes(of: \.typo)`. Both mean: check the spelling, import the module that declares the key, make its scope,
/// property and key type `public`, and give the scope its routing subscript.
@dynamicMemberLookup
public enum ConfigurationDynamicLookup {
    /// Returns the key type's placeholder instance; used only to give key paths their type.
    ///
    /// It is never called at run time: `ConfigurationDynamicLookup` has no values.
    public subscript<K: ConfigurationKey>(_ key: K.Type) -> K {
        switch self {}
    }

    /// An uninhabited member lookup, so that two scopes declaring the same property name are reported as
    /// "ambiguous use of '<name>'" with the module of each. `@dynamicMemberLookup` needs one declared in this
    /// module; scopes add theirs in extensions.
    public subscript<T>(dynamicMember keyPath: KeyPath<NoConfigurationKeyWithThisName, T>) -> T {
        switch self {}
    }

    /// Reached only by a name no visible scope declares; never available.
    @available(
        *, unavailable,
        message:
            "no configuration key is named so here: check the spelling, import the module that declares the key, make its scope, property and key type public, and add the scope's routing subscript on ConfigurationDynamicLookup"
    )
    public subscript(dynamicMember name: String) -> NoConfigurationKeyWithThisName {
        switch self {}
    }
}

@available(*, unavailable)
extension ConfigurationDynamicLookup: Sendable {}

/// The type a compiler error names when a configuration key path does not resolve: no visible scope declares a
/// property of that name.
///
/// Check the spelling; import the module that declares the key; make the scope, its property and the key type
/// `public`; give the scope its routing subscript on ``ConfigurationDynamicLookup``. It has no values.
public enum NoConfigurationKeyWithThisName {}

@available(*, unavailable)
extension NoConfigurationKeyWithThisName: Sendable {}
