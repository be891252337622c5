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

        /// Creates a scope; each key is re-labelled as belonging to `name`, and the scope keeps its keys' names and
        /// titles in one buffer.
        public init(name: String, keys: [ConfigurationKeyDescriptor]) {
            self.name = name
            self.keys = ConfigurationKeyDescriptor.packingText(
                of: keys.allSatisfy { $0.scopeName == name }
                    ? keys : keys.map { $0.scopeName == name ? $0 : $0.inScope(name) })
        }
    }

    /// The scopes, in the order given.
    public let scopes: [Scope]
    /// Whether every key should name its owner (``ConfigurationKeyLifecycle/owner``): `config-menu audit` then
    /// lists the keys that do not, and the manifest carries the requirement. Default: `false`.
    public var requiresOwners = false
    private let index: CatalogNameIndex
    /// Identifies this catalog (and its copies), so registering it with a service twice costs nothing.
    let identity = Identity()

    final class Identity: Sendable {}

    /// Builds a catalog from scope types; with `requiresOwners`, `config-menu audit` lists keys that name no owner.
    public init(scopes scopeTypes: [any ConfigurationScope.Type], requiresOwners: Bool) throws(ConfigurationError) {
        try self.init(scopes: scopeTypes)
        self.requiresOwners = requiresOwners
    }

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
                keys.append(ConfigurationKeyDescriptor(key, scopeName: scope.name, scopeOwner: scope.owner))
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
        if let problem = defaultValueProblem(of: K.self) { throw .invalidDeclaration(key: K.name, problem: problem) }
        if let problem = K.lifecycle.problem { throw .invalidDeclaration(key: K.name, problem: problem) }
    }

    /// Why the key's default cannot travel through its own codec, or `nil`: it must encode to a wire string that the
    /// key decodes (pattern and bounds included) back to a value that encodes to the same string and, when the value
    /// type is `Equatable`, equals the default. Otherwise the manifest, the menu and a reset would show or restore a
    /// value the program never has.
    private static func defaultValueProblem<K: ConfigurationKey>(of key: K.Type) -> String? {
        let wire: String
        do {
            guard let encoded = try K.encode(K.defaultValue) else {
                return "the default value has no wire form (encode(_:) returns nil for it), so no tool can show or "
                    + "restore it"
            }
            wire = encoded
        } catch {
            return "the default value cannot be encoded: \(error)"
        }
        let shown = "\"\(VisibleText.escaped(wire))\""
        let decoded: K.Value
        do {
            decoded = try K.decodeWithinBounds(from: wire, range: K.declaredNumberRange)
        } catch {
            return "the default value does not round-trip: it encodes to \(shown), which the key refuses (\(error))"
        }
        let again = try? K.encode(decoded)
        if again != wire || isEqual(decoded, K.defaultValue) == false {
            let reencoded = again.map { " that encodes to \"\(VisibleText.escaped($0))\"" } ?? ""
            return "the default value does not round-trip: it encodes to \(shown), which decodes to a different value"
                + (again == wire ? "" : reencoded)
        }
        return nil
    }

    /// Whether two values are equal, when their type is `Equatable`; `nil` when it is not.
    private static func isEqual(_ value: Any, _ other: Any) -> Bool? {
        guard let value = value as? any Equatable else { return nil }
        return value.isEqual(to: other)
    }

    /// Builds a catalog from described scopes (for example from a manifest).
    public init(scopes: [Scope]) throws(ConfigurationError) {
        var scopeNames: Set<String> = []
        for scope in scopes {
            guard scopeNames.insert(scope.name).inserted else { throw .duplicateScopeName(scope.name) }
            guard !scope.keys.isEmpty else { throw .scopeHasNoKeys(scope.name) }
        }
        self.index = try CatalogNameIndex(scopes: scopes)
        self.scopes = scopes
    }

    /// Every key of every scope, scope by scope.
    public var keys: [ConfigurationKeyDescriptor] { scopes.flatMap(\.keys) }

    /// The number of keys.
    public var keyCount: Int { index.count }

    /// The key named `name`, if any.
    public func descriptor(named name: String) -> ConfigurationKeyDescriptor? {
        index.position(of: name, in: scopes).map { scopes[$0.scope].keys[$0.key] }
    }

    /// Where the key named `name` is, if any: its scope's index in ``scopes`` and its index in that scope's keys
    /// (for a view of the catalog in the same order, such as the debug menu's, without an index of its own).
    package func position(of name: String) -> (scope: Int, key: Int)? {
        index.position(of: name, in: scopes)
    }

    /// The scope named `name`, if any.
    public func scope(named name: String) -> Scope? {
        scopes.first { $0.name == name }
    }

    /// Up to three known key names close to `name`, for "did you mean" hints.
    public func suggestions(for name: String) -> [String] {
        NameSuggestions.nearest(to: name, in: scopes.lazy.flatMap { $0.keys.lazy.map(\.name) })
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}
