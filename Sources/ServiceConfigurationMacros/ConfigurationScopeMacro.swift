#if Macros
    /// Makes a struct a ``ServiceConfiguration/ConfigurationScope`` whose keys are declared with
    /// ``ConfigurationKey(_:summary:title:boolEncoding:pattern:owner:ticket:removeBy:)``, one declaration each.
    ///
    /// ```swift
    /// extension ConfigurationScopes {
    ///     /// The checkout module's keys.
    ///     @ConfigurationScope
    ///     public struct Checkout {
    ///         /// The most items one cart holds.
    ///         @ConfigurationKey("checkout.cart.max_items") public static let checkoutMaxCartItems = 50
    ///     }
    /// }
    ///
    /// @Routes(ConfigurationScopes.Checkout.self) extension ConfigurationDynamicLookup {}
    /// ```
    ///
    /// The macro adds the conformance to `ConfigurationScope`, the scope's `keys` (listed by the scope itself, so
    /// reflection metadata is not needed), and `setOverrides(on:…)`, which sets typed overrides of any of the scope's
    /// keys on a service in one call (`try ConfigurationScopes.Checkout.setOverrides(on: mock, checkoutMaxCartItems: 3)`).
    /// It reports at the line two keys of the scope with one wire name, and a key declared outside the struct's body.
    ///
    /// - Parameter owner: Who owns the scope's keys that name no owner of their own
    ///   (``ServiceConfiguration/ConfigurationScope/owner``), for example `@ConfigurationScope(owner: "checkout-team")`.
    @attached(extension, conformances: ServiceConfiguration.ConfigurationScope)
    @attached(member, names: named(keys), named(setOverrides), named(owner))
    public macro ConfigurationScope(owner: String? = nil) =
        #externalMacro(module: "ServiceConfigurationMacrosPlugin", type: "ConfigurationScopeMacro")
#endif
