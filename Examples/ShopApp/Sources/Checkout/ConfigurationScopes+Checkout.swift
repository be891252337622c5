import ServiceConfiguration

// The multi-module template: everything another module reads is `public` (the scope, each property, each key type
// and its `name` and `defaultValue`), and the routing subscript at the bottom is `public` too. Property names start
// with the scope's name (`checkout…`): they share one namespace with every other module's keys.

extension ConfigurationScopes {
    /// The checkout module's keys.
    public struct Checkout: ConfigurationScope {
        /// Whether Apple Pay is offered. This server sends `true`/`false`.
        public let checkoutApplePayEnabled: ApplePayEnabledKey
        /// `checkout.apple_pay.enabled`.
        public enum ApplePayEnabledKey: ConfigurationKey {
            public static let name = "checkout.apple_pay.enabled"
            public static let defaultValue = false
            public static let boolEncoding = ConfigurationBoolEncoding.trueFalse
            public static let summary = "Whether Apple Pay is offered at checkout."
        }

        /// Whether guests can check out without an account (`Y`/`N` on the wire, the default encoding).
        public let checkoutGuestEnabled: GuestEnabledKey
        /// `checkout.guest.enabled`.
        public enum GuestEnabledKey: ConfigurationKey {
            public static let name = "checkout.guest.enabled"
            public static let defaultValue = true
        }

        /// The most items one cart holds.
        public let checkoutMaxCartItems: MaxCartItemsKey
        /// `checkout.cart.max_items`: its derived title keeps the distinguishing segment, "Cart Max Items".
        public enum MaxCartItemsKey: ConfigurationKey {
            public static let name = "checkout.cart.max_items"
            public static let defaultValue = 50
            public static let summary = "The most items one cart holds."
        }

        /// The service fee, as a fraction of the order.
        public let checkoutServiceFeeRate: ServiceFeeRateKey
        /// `checkout.service_fee_rate`.
        public enum ServiceFeeRateKey: ConfigurationKey {
            public static let name = "checkout.service_fee_rate"
            public static let defaultValue = 0.05
        }

        /// The banner above the cart.
        public let checkoutPromoBanner: PromoBannerKey
        /// `checkout.promo_banner.text`.
        public enum PromoBannerKey: ConfigurationKey {
            public static let name = "checkout.promo_banner.text"
            public static let defaultValue = ""
        }

        /// Which checkout flow is shown.
        public let checkoutFlow: FlowKey
        /// `checkout.flow`: a picker over the cases.
        public enum FlowKey: ConfigurationKey {
            public static let name = "checkout.flow"
            public static let defaultValue = CheckoutFlow.classic
        }

        /// The smallest order accepted, as `"20 EUR"`: a custom string value with a pattern.
        public let checkoutMinimumOrder: MinimumOrderKey
        /// `checkout.minimum_order`.
        public enum MinimumOrderKey: ConfigurationKey {
            public static let name = "checkout.minimum_order"
            public static let defaultValue = MoneyAmount(minorUnits: 1000, currency: "EUR")
            public static let summary = "The smallest order accepted."
        }

        /// Shipping prices by country: a JSON value.
        public let checkoutShippingRules: ShippingRulesKey
        /// `checkout.shipping_rules`.
        public enum ShippingRulesKey: ConfigurationKey {
            public static let name = "checkout.shipping_rules"
            public static let defaultValue = ShippingRules(freeAbove: 5000, countries: ["DE": 490, "FR": 590])
        }

        /// The A/B test of the express checkout.
        public let checkoutExpressTest: ExpressTestKey
        /// `ab.checkout.express`.
        public enum ExpressTestKey: ConfigurationKey {
            public static let name = "ab.checkout.express"
            public static let defaultValue = ConfigurationABTest.none
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.checkout…` to the keys of ``ConfigurationScopes/Checkout``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Checkout, K>) -> K {
        self[K.self]
    }
}
