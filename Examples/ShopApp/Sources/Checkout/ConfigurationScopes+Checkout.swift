import ServiceConfigurationMacros

// One declaration per key: its wire name and its default. `@ConfigurationKey` writes the key type and the property
// `service.checkoutApplePayEnabled` reads, with the declaration's access level (`public`: other modules read them);
// the doc comment becomes the key's summary in the menu and the manifest. Property names start with the scope's name
// (`checkout…`): they share one namespace with every other module's keys.

extension ConfigurationScopes {
    /// The checkout module's keys, owned by the checkout team unless a key says otherwise.
    @ConfigurationScope(owner: "checkout-team")
    public struct Checkout {
        /// Whether Apple Pay is offered at checkout.
        @ConfigurationKey("checkout.apple_pay.enabled", boolEncoding: .trueFalse)  // this server sends true/false
        public static let checkoutApplePayEnabled = false

        /// Whether guests can check out without an account. A rollout flag: `config-menu audit` lists it once the
        /// app reaches 3.0, and `expectNoKeyPastDue(version:)` fails the app's tests from then on.
        @ConfigurationKey("checkout.guest.enabled", ticket: "SHOP-142", removeBy: .version("3.0"))
        public static let checkoutGuestEnabled = true  // Y/N on the wire

        /// The most items one cart holds.
        @ConfigurationKey("checkout.cart.max_items", range: 1...500) public static let checkoutMaxCartItems = 50

        /// The service fee, as a fraction of the order.
        @ConfigurationKey("checkout.service_fee_rate", range: 0...0.2, step: 0.01)
        public static let checkoutServiceFeeRate = 0.05

        /// The banner above the cart.
        @ConfigurationKey("checkout.promo_banner.text") public static let checkoutPromoBanner = ""

        /// Which checkout flow is shown.
        @ConfigurationKey("checkout.flow")  // an enum: a picker over its cases
        public static let checkoutFlow = CheckoutFlow.classic

        /// The smallest order accepted.
        @ConfigurationKey("checkout.minimum_order")  // "20 EUR": a custom string value with a pattern
        public static let checkoutMinimumOrder = MoneyAmount(minorUnits: 1000, currency: "EUR")

        /// Shipping prices by country.
        @ConfigurationKey("checkout.shipping_rules")  // a Codable value: JSON on the wire
        public static let checkoutShippingRules = ShippingRules(freeAbove: 5000, countries: ["DE": 490, "FR": 590])

        /// The A/B test of the express checkout.
        @ConfigurationKey("ab.checkout.express") public static let checkoutExpressTest = ConfigurationABTest.none
    }
}

/// Routes `service.checkout…` to the keys of ``ConfigurationScopes/Checkout``.
@Routes(ConfigurationScopes.Checkout.self) extension ConfigurationDynamicLookup {}
