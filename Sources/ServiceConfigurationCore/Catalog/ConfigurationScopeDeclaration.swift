/// A scope type with the module that declares it and its declared name: one entry of the list
/// `ConfigurationCatalogPlugin` generates (`LinkedConfigurationScopes.declarations`), which names where a scope was
/// found in messages such as the completeness check's (ServiceConfigurationTesting) for a hand-listed catalog.
public struct ConfigurationScopeDeclaration: Sendable, CustomStringConvertible {
    /// The scope type.
    public let type: any ConfigurationScope.Type
    /// The module whose sources declare it, such as `"Checkout"`.
    public let module: String
    /// The name through its enclosing types, as declared, such as `"ConfigurationScopes.Checkout"`.
    public let name: String

    /// Records that `module` declares `type` as `name`.
    public init(_ type: any ConfigurationScope.Type, module: String, name: String) {
        (self.type, self.module, self.name) = (type, module, name)
    }

    /// The name and the module, such as `ConfigurationScopes.Checkout (module Checkout)`.
    public var description: String { "\(name) (module \(module))" }
}
