#if Macros
    /// Adds the routing subscript of each scope named to an empty extension of
    /// ``ServiceConfiguration/ConfigurationDynamicLookup``, so `service.checkoutMaxCartItems` reads the scope's key.
    ///
    /// ```swift
    /// @Routes(ConfigurationScopes.Checkout.self) extension ConfigurationDynamicLookup {}
    /// ```
    ///
    /// It writes, once per scope, what the hand-written form spells out:
    ///
    /// ```swift
    /// public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Checkout, K>) -> K {
    ///     self[K.self]
    /// }
    /// ```
    ///
    /// The subscript is `public`, as other modules need it; pass `access: .internal` (or `.package`) for a scope of
    /// that access level. A macro cannot add the subscript from the scope itself (an expansion cannot introduce an
    /// extension of another type), hence this one line per module.
    @attached(member, names: named(subscript))
    public macro Routes(
        _ scopes: any ServiceConfiguration.ConfigurationScope.Type...,
        access: ConfigurationRoutingAccess = .public
    ) = #externalMacro(module: "ServiceConfigurationMacrosPlugin", type: "RoutesMacro")

    /// The access level of the routing subscripts ``Routes(_:access:)`` writes: at most the scope's own.
    public enum ConfigurationRoutingAccess: Sendable {
        /// `public`: other modules read the scope's keys (the default).
        case `public`
        /// `package`: modules of the same package read them.
        case package
        /// `internal`: only the declaring module reads them.
        case `internal`
    }
#endif
