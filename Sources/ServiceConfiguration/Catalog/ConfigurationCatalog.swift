/// Every registered key, grouped by scope: what the debug menu and the command-line tool list.
///
/// Build it from your modules' scope types; keys are found by reflection (see ``ConfigurationScope/keys``):
///
/// ```swift
/// let catalog = try ConfigurationCatalog(scopes: [
///     ConfigurationScopes.Photos.self,
///     ConfigurationScopes.Chat.self,
/// ])
/// for scope in catalog.scopes { print(scope.name, scope.keys.count) }
/// ```
///
/// Building fails when two keys share a wire name (the error names both scopes), when two scopes share a name,
/// or when a scope yields no keys (usually stripped reflection metadata).
public struct ConfigurationCatalog: Sendable {
    /// One scope and its keys, in declaration order.
    public struct Scope: Sendable, Identifiable {
        /// The scope's name; also its identity.
        public var id: String { name }
        /// The scope's name, for example `"Photos"`.
        public let name: String
        /// The scope's keys.
        public let keys: [ConfigurationKeyDescriptor]

        /// Creates a scope; each key is re-labelled as belonging to `name`.
        public init(name: String, keys: [ConfigurationKeyDescriptor]) {
            self.name = name
            self.keys = keys.map { $0.scopeName == name ? $0 : $0.inScope(name) }
        }
    }

    /// The scopes, in the order given.
    public let scopes: [Scope]
    private let index: [String: (scope: Int, key: Int)]
    /// Identifies this catalog (and its copies), so registering it with a service twice costs nothing.
    let identity = Identity()

    final class Identity: Sendable {}

    /// Builds a catalog from scope types.
    public init(scopes scopeTypes: [any ConfigurationScope.Type]) throws(ConfigurationError) {
        try self.init(
            scopes: scopeTypes.map { scope in
                Scope(name: scope.name, keys: scope.keys.map { ConfigurationKeyDescriptor($0, scopeName: scope.name) })
            }
        )
    }

    /// Builds a catalog from described scopes (for example from a manifest).
    public init(scopes: [Scope]) throws(ConfigurationError) {
        var index: [String: (scope: Int, key: Int)] = [:]
        index.reserveCapacity(scopes.reduce(0) { $0 + $1.keys.count })
        var scopeNames: Set<String> = []
        for (scopeIndex, scope) in scopes.enumerated() {
            guard scopeNames.insert(scope.name).inserted else { throw .duplicateScopeName(scope.name) }
            guard !scope.keys.isEmpty else { throw .scopeHasNoKeys(scope.name) }
            for (keyIndex, key) in scope.keys.enumerated() {
                if let existing = index[key.name] {
                    throw .duplicateKeyName(key.name, firstScope: scopes[existing.scope].name, secondScope: scope.name)
                }
                index[key.name] = (scopeIndex, keyIndex)
            }
        }
        self.scopes = scopes
        self.index = index
    }

    /// Every key of every scope, scope by scope.
    public var keys: [ConfigurationKeyDescriptor] { scopes.flatMap(\.keys) }

    /// The number of keys.
    public var keyCount: Int { index.count }

    /// The key named `name`, if any.
    public func descriptor(named name: String) -> ConfigurationKeyDescriptor? {
        index[name].map { scopes[$0.scope].keys[$0.key] }
    }

    /// The scope named `name`, if any.
    public func scope(named name: String) -> Scope? {
        scopes.first { $0.name == name }
    }

    /// Up to three known key names close to `name`, for "did you mean" hints.
    public func suggestions(for name: String) -> [String] {
        NameSuggestions.nearest(to: name, in: index.keys)
    }
}
