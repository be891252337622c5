/// The routing type behind `service.albumLikeEnabled`: each module adds one subscript that maps its scope's key
/// paths to key types.
///
/// `ConfigurationDynamicLookup` has no cases and is never instantiated; only its key paths are used, and they
/// resolve entirely at compile time. A module that owns a scope adds:
///
/// ```swift
/// extension ConfigurationDynamicLookup {
///     subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Photos, K>) -> K {
///         self[K.self]
///     }
/// }
/// ```
@dynamicMemberLookup
public enum ConfigurationDynamicLookup {
    /// Returns the key type's placeholder instance; used only to give key paths their type.
    ///
    /// It is never called at run time: `ConfigurationDynamicLookup` has no values.
    public subscript<K: ConfigurationKey>(_ key: K.Type) -> K {
        switch self {}
    }

    /// An uninhabited member lookup. `@dynamicMemberLookup` needs one declared in this module; scopes add theirs
    /// in extensions.
    public subscript<T>(dynamicMember keyPath: KeyPath<Never, T>) -> T {
        switch self {}
    }
}

@available(*, unavailable)
extension ConfigurationDynamicLookup: Sendable {}
