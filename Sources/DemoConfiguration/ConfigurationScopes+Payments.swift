public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Wallet and checkout.
    public struct Payments: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "payments-team"

        /// Whether the wallet tab is shown.
        public let paymentsEnabled: PaymentsEnabledKey
        /// `function.payments.enabled`: Whether the wallet tab is shown.
        public enum PaymentsEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.payments.enabled"
            /// The default value.
            public static let defaultValue: Bool = false
            /// The details pane's explanation.
            public static let summary = "Whether the wallet tab is shown."
        }

        /// Largest total a user can pay in one day, in minor units.
        public let paymentsDailyLimit: PaymentsDailyLimitKey
        /// `function.payments.daily_limit`: Largest total a user can pay in one day, in minor units.
        public enum PaymentsDailyLimitKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.payments.daily_limit"
            /// The default value.
            public static let defaultValue: Int = 500000
            /// The details pane's explanation.
            public static let summary = "Largest total a user can pay in one day, in minor units."
        }

        /// Currencies offered at checkout, in order.
        public let paymentsCurrencies: PaymentsCurrenciesKey
        /// `function.payments.currencies`: Currencies offered at checkout, in order.
        public enum PaymentsCurrenciesKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.payments.currencies"
            /// The default value.
            public static let defaultValue: [String] = ["JPY", "USD", "THB", "TWD"]
            /// The details pane's explanation.
            public static let summary = "Currencies offered at checkout, in order."
        }

        /// A/B test of the checkout flow.
        public let paymentsCheckoutTest: PaymentsCheckoutTestKey
        /// `ab.payments.checkout_flow`: A/B test of the checkout flow.
        public enum PaymentsCheckoutTestKey: ConfigurationKey {
            /// The wire name.
            public static let name = "ab.payments.checkout_flow"
            /// The default value.
            public static let defaultValue: CheckoutFlowVariant = .none
            /// The details pane's explanation.
            public static let summary = "A/B test of the checkout flow."
            /// Who owns the key and when it goes.
            public static let lifecycle = ConfigurationKeyLifecycle(
                owner: "growth-team", ticket: "EXP-342", removeBy: .version("8.4"))
        }

        /// Fee charged on card top-ups, as a fraction.
        public let paymentsFeeRate: PaymentsFeeRateKey
        /// `function.payments.fee_rate`: Fee charged on card top-ups, as a fraction.
        public enum PaymentsFeeRateKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.payments.fee_rate"
            /// The default value.
            public static let defaultValue: Double = 0.035
            /// The details pane's explanation.
            public static let summary = "Fee charged on card top-ups, as a fraction."
        }

        /// Which payment provider processes cards.
        public let paymentsProvider: PaymentsProviderKey
        /// `function.payments.provider`: Which payment provider processes cards.
        public enum PaymentsProviderKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.payments.provider"
            /// The default value.
            public static let defaultValue: PaymentProvider = .primary
            /// The details pane's explanation.
            public static let summary = "Which payment provider processes cards."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Payments``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Payments, K>) -> K {
        self[K.self]
    }
}
