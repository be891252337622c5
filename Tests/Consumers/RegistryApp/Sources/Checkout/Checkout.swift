import ServiceConfigurationMacros

extension ConfigurationScopes {
    /// The checkout module's keys, declared with the macros.
    @ConfigurationScope
    public struct Checkout {
        /// The most items one cart holds.
        @ConfigurationKey("function.checkout.max_cart_items") public static let checkoutMaxCartItems = 50
        /// Whether express checkout is offered.
        @ConfigurationKey("function.checkout.express.enabled") public static let checkoutExpressEnabled = false
    }
}

@Routes(ConfigurationScopes.Checkout.self) extension ConfigurationDynamicLookup {}
