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
/// The list of scopes is written by hand: a scope left out is missing from the debug menu and the manifest, and its
/// keys are validated only once read. Building fails when two keys share a wire name or two scopes a property name
/// (the error names both scopes), when two scopes share a name, when a scope yields no keys (usually stripped
/// reflection metadata), or when a key's declaration cannot work as written (see
/// ``ConfigurationError/invalidDeclaration(key:problem:)``).
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
        var propertyScopes: [String: String] = [:]
        for scope in scopeTypes {
            for property in ScopeReflection.keyProperties(of: scope) {
                if let first = propertyScopes[property.name], first != scope.name {
                    throw .duplicatePropertyName(property.name, firstScope: first, secondScope: scope.name)
                }
                propertyScopes[property.name] = scope.name
            }
        }
        var scopes: [Scope] = []
        for scope in scopeTypes {
            var keys: [ConfigurationKeyDescriptor] = []
            for key in scope.keys {
                try Self.checkDeclaration(of: key)
                keys.append(ConfigurationKeyDescriptor(key, scopeName: scope.name))
            }
            scopes.append(Scope(name: scope.name, keys: keys))
        }
        try self.init(scopes: scopes)
    }

    /// Refuses a key declaration that would otherwise be ignored or break at run time.
    static func checkDeclaration<K: ConfigurationKey>(of key: K.Type) throws(ConfigurationError) {
        if K.declaresRenamedDebugDescription {
            throw .invalidDeclaration(
                key: K.name,
                problem: "`debugDescription` was renamed `summary`; write `static let summary = \"…\"`")
        }
        if K.Value.self == Bool.self {
            let encoding = K.boolEncoding
            if encoding.trueString == encoding.falseString {
                throw .invalidDeclaration(
                    key: K.name,
                    problem: "boolEncoding uses \"\(encoding.trueString)\" for both true and false; give two different "
                        + "strings")
            }
        } else if K.boolEncoding != .letterYN {
            throw .invalidDeclaration(
                key: K.name, problem: "boolEncoding applies only to Bool keys; this key's value is \(K.Value.self)")
        }
        if let problem = K.valuePattern.problem {
            throw .invalidDeclaration(
                key: K.name, problem: "valuePattern \(K.valuePattern) is not a valid regular expression (\(problem))")
        }
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
