/// A module's group of configuration keys: a struct whose stored properties are key *types*.
///
/// Each module declares one scope inside ``ConfigurationScopes`` and one routing subscript on
/// ``ConfigurationDynamicLookup``; after that every key in the scope reads as a typed property of any
/// ``ConfigurationService``:
///
/// ```swift
/// extension ConfigurationScopes {
///     struct Photos: ConfigurationScope {
///         let albumLikeEnabled: AlbumLikeEnabledKey
///         enum AlbumLikeEnabledKey: ConfigurationKey {
///             static let name = "function.album.like.enabled"
///             static let defaultValue = false
///         }
///     }
/// }
///
/// extension ConfigurationDynamicLookup {
///     subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Photos, K>) -> K {
///         self[K.self]
///     }
/// }
/// ```
///
/// A scope is never instantiated (its key types usually have no cases). Tools list its keys through reflection
/// of the stored properties; where reflection metadata is unavailable, implement ``keys`` to list them yourself.
public protocol ConfigurationScope: SendableMetatype {
    /// The scope's name in the debug menu and the command-line tool. Default: the type's name, such as `"Photos"`.
    static var name: String { get }

    /// The scope's keys, in the order to show them.
    ///
    /// Default: the key types of the scope's stored properties, in declaration order, found by reflection.
    /// Override it only where reflection metadata is stripped (`-disable-reflection-metadata`).
    static var keys: [any ConfigurationKey.Type] { get }

    /// Who owns the scope's keys when a key names no owner of its own (``ConfigurationKeyLifecycle/owner``), for
    /// example `static let owner = "album-team"` (with the macros: `@ConfigurationScope(owner: "album-team")`).
    /// Default: empty, no owner.
    static var owner: String { get }
}

extension ConfigurationScope {
    /// The type's own name, without module or enclosing types.
    public static var name: String { String(describing: Self.self) }

    /// The key types of the stored properties, in declaration order.
    public static var keys: [any ConfigurationKey.Type] { ScopeReflection.keyTypes(of: Self.self) }

    /// No owner for the whole scope.
    public static var owner: String { "" }
}

/// The namespace that modules extend with their ``ConfigurationScope``.
///
/// ```swift
/// extension ConfigurationScopes {
///     struct Photos: ConfigurationScope { ... }
/// }
/// ```
public enum ConfigurationScopes {}
