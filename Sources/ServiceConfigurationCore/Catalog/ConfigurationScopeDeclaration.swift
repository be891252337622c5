/// A scope type with the module that declares it and the name it is declared with: one entry of the list
/// `ConfigurationCatalogPlugin` generates for a target (`LinkedConfigurationScopes.declarations`).
///
/// ```swift
/// let catalog = try ConfigurationCatalog(scopes: LinkedConfigurationScopes.types)
/// ```
///
/// The type names no module of its own: `type` already is the scope. `module` and `name` say where it was found, for
/// messages such as the one ServiceConfigurationTesting's completeness check gives when a hand-listed catalog lacks it.
public struct ConfigurationScopeDeclaration: Sendable, CustomStringConvertible {
    /// The scope type.
    public let type: any ConfigurationScope.Type
    /// The module whose sources declare it, such as `"Checkout"`.
    public let module: String
    /// The name through its enclosing types, as declared, such as `"ConfigurationScopes.Checkout"`.
    public let name: String

    /// Records that `module` declares `type` as `name`.
    public init(_ type: any ConfigurationScope.Type, module: String, name: String) {
        self.type = type
        self.module = module
        self.name = name
    }

    /// The name and the module, such as `ConfigurationScopes.Checkout (module Checkout)`.
    public var description: String { "\(name) (module \(module))" }
}
