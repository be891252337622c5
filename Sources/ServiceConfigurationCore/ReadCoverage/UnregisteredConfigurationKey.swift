public import Foundation

/// A key the program read although its scope is not in the service's catalog.
///
/// The program reads such a key fine, but the debug menu and `config-menu` list only the catalog's keys, so QA can
/// neither see nor override it. The fix is to add the scope to the scopes the catalog is built from:
///
/// ```swift
/// let catalog = try ConfigurationCatalog(scopes: [
///     ConfigurationScopes.Photos.self,
///     ConfigurationScopes.Checkout.self,   // was missing
/// ])
/// ```
public struct UnregisteredConfigurationKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's wire name, for example `"checkout.max_items"`.
    public var name: String
    /// The type that declares the key, without its module, for example `"ConfigurationScopes.Checkout"`; empty when
    /// the key type is declared at the top level of its module.
    public var scopeTypeName: String
    /// The key type's name as the runtime reflects it, for example
    /// `"(extension in Checkout):ServiceConfigurationCore.ConfigurationScopes.Checkout.MaxItemsKey"`.
    public var keyTypeName: String
    /// When the program first read the key in this run (or first read it after a catalog was registered).
    public var firstRead: Date

    /// Creates a description of an unregistered key.
    public init(name: String, scopeTypeName: String, keyTypeName: String, firstRead: Date) {
        self.name = name
        self.scopeTypeName = scopeTypeName
        self.keyTypeName = keyTypeName
        self.firstRead = firstRead
    }

    /// Describes the key type `key`, first read at `firstRead`.
    init<K: ConfigurationKey>(_ key: K.Type, firstRead: Date) {
        let typeName = String(reflecting: K.self)
        self.init(
            name: K.name, scopeTypeName: Self.scopeTypeName(ofKeyType: typeName), keyTypeName: typeName,
            firstRead: firstRead)
    }

    /// The module that declares the key type, for example `"Checkout"`; empty when unknown.
    public var moduleName: String { Self.parse(keyTypeName).module }

    /// What to tell a person: which key, which scope, and the fix.
    public var description: String {
        let name = VisibleText.escaped(name)
        let parsed = Self.parse(keyTypeName)
        let module = parsed.module.isEmpty ? "" : " in module \(VisibleText.escaped(parsed.module))"
        let keyType = VisibleText.escaped(parsed.path.joined(separator: "."))
        guard !scopeTypeName.isEmpty else {
            return "key \"\(name)\" (\(keyType)\(module)) was read but is declared outside any scope, so it is not in "
                + "the service's catalog and the debug menu cannot show or override it. Fix: declare it as a property "
                + "of a ConfigurationScope and add that scope to the ConfigurationCatalog"
        }
        let scope = VisibleText.escaped(scopeTypeName)
        return "key \"\(name)\" (\(keyType)\(module)) was read but its scope \(scope) is not in the service's "
            + "catalog, so the debug menu cannot show or override it. Fix: add \(scope).self to the scopes the "
            + "ConfigurationCatalog is built from"
    }

    /// The type that encloses a key type, from its reflected name, without the module: `"ConfigurationScopes.Checkout"`
    /// for `"(extension in Checkout):ServiceConfigurationCore.ConfigurationScopes.Checkout.MaxItemsKey"` (a scope
    /// declared in an extension of the library's `ConfigurationScopes`) or for
    /// `"App.ConfigurationScopes.Checkout.MaxItemsKey"`; empty for a top-level key type.
    package static func scopeTypeName(ofKeyType reflected: String) -> String {
        parse(reflected).path.dropLast().joined(separator: ".")
    }

    /// Splits a reflected type name into its module and its path of type names inside the module.
    ///
    /// `"(extension in M):N.A.B"` is a type `A.B` declared by module `M` in an extension of a type from module `N`;
    /// `"M.A.B"` is a type declared in `M`. Dots inside generic arguments (`<…>`) and other parenthesised contexts
    /// (`(unknown context at $…)`) do not split names.
    static func parse(_ reflected: String) -> (module: String, path: [String]) {
        var text = Substring(reflected)
        var module: String?
        let prefix = "(extension in "
        if text.hasPrefix(prefix), let end = text.range(of: "):") {
            module = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            text = text[end.upperBound...]
        }
        var components: [String] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "<", "(": depth += 1
            case ">", ")": depth = max(0, depth - 1)
            case "." where depth == 0:
                components.append(String(text[start..<index]))
                start = text.index(after: index)
            default: break
            }
        }
        components.append(String(text[start...]))
        guard components.count > 1 else { return (module ?? "", components) }
        return (module ?? components[0], Array(components.dropFirst()))
    }
}
