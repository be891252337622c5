#if Macros
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    /// What the macros write: the hand-written form of Examples/ShopApp, key for key.
    @Suite("Macro expansions")
    struct MacroExpansionTests {
        @Test("a public scope of two keys: properties, key types, the key list, the override builder, the conformance")
        func publicScope() {
            expectExpansion(
                """
                extension ConfigurationScopes {
                    /// The checkout module's keys.
                    @ConfigurationScope
                    public struct Checkout {
                        /// The most items one cart holds.
                        ///
                        /// More about it.
                        @ConfigurationKey("checkout.cart.max_items") public static let checkoutMaxCartItems = 50

                        @ConfigurationKey("checkout.apple_pay.enabled", boolEncoding: .trueFalse)
                        public static let checkoutApplePayEnabled = false
                    }
                }
                """,
                expanded: """
                    extension ConfigurationScopes {
                        /// The checkout module's keys.
                        public struct Checkout {
                            /// The most items one cart holds.
                            ///
                            /// More about it.
                            public static let checkoutMaxCartItems = 50

                            /// The most items one cart holds.
                            ///
                            /// More about it.
                            public let checkoutMaxCartItems: CheckoutMaxCartItemsKey

                            /// The configuration key `checkout.cart.max_items`; its default is `Checkout.checkoutMaxCartItems`.
                            public enum CheckoutMaxCartItemsKey: ServiceConfiguration.ConfigurationKey {
                                public static let name = "checkout.cart.max_items"
                                public static let defaultValue = Checkout.checkoutMaxCartItems
                                public static let summary = "The most items one cart holds."
                            }
                            public static let checkoutApplePayEnabled = false

                            /// `checkout.apple_pay.enabled`, read as `service.checkoutApplePayEnabled`.
                            public let checkoutApplePayEnabled: CheckoutApplePayEnabledKey

                            /// The configuration key `checkout.apple_pay.enabled`; its default is `Checkout.checkoutApplePayEnabled`.
                            public enum CheckoutApplePayEnabledKey: ServiceConfiguration.ConfigurationKey {
                                public static let name = "checkout.apple_pay.enabled"
                                public static let defaultValue = Checkout.checkoutApplePayEnabled
                                public static let boolEncoding: ServiceConfiguration.ConfigurationBoolEncoding = .trueFalse
                            }

                            /// The scope's keys in declaration order, listed by `@ConfigurationScope` (no reflection needed).
                            public static var keys: [any ServiceConfiguration.ConfigurationKey.Type] {
                                [
                                    CheckoutMaxCartItemsKey.self,
                                    CheckoutApplePayEnabledKey.self,
                                ]
                            }

                            /// Overrides the keys given a value on `service` (a `MockConfigurationService` in a test) in one call,
                            /// and returns the service; a key left `nil` keeps its value. Throws as `setOverride(_:for:)` does.
                            ///
                            /// ```swift
                            /// let mock = try setOverrides(on: MockConfigurationService(scopes: [Self.self]), checkoutMaxCartItems: …)
                            /// ```
                            @discardableResult
                            public static func setOverrides<Service: ServiceConfiguration.ConfigurationService>(
                                on serviceToOverride: Service,
                                checkoutMaxCartItems: CheckoutMaxCartItemsKey.Value? = nil,
                                checkoutApplePayEnabled: CheckoutApplePayEnabledKey.Value? = nil
                            ) throws -> Service {
                                if let checkoutMaxCartItems {
                                    try serviceToOverride.setOverride(checkoutMaxCartItems, for: CheckoutMaxCartItemsKey.self)
                                }
                                if let checkoutApplePayEnabled {
                                    try serviceToOverride.setOverride(checkoutApplePayEnabled, for: CheckoutApplePayEnabledKey.self)
                                }
                                return serviceToOverride
                            }
                        }
                    }

                    extension ConfigurationScopes.Checkout: ServiceConfiguration.ConfigurationScope {
                    }
                    """)
        }

        @Test("every optional argument: summary, title, pattern, bounds with a step, a control; a private key")
        func options() {
            expectExpansion(
                """
                @ConfigurationScope
                struct Profile {
                    @ConfigurationKey("p.color", summary: "The accent.", title: "Accent", pattern: ConfigurationValuePattern("#[0-9A-F]{6}", format: "#RRGGBB"))
                    static let profileColor: String = "#06C755"
                    @ConfigurationKey("p.scale", range: 0...1, step: 0.25) static let profileScale = 0.5
                    @ConfigurationKey("p.size", control: .picker([.init(128), .init(256)])) private static let profileSize = 256
                }
                """,
                expanded: """
                    struct Profile {
                        static let profileColor: String = "#06C755"

                        /// `p.color`, read as `service.profileColor`.
                        let profileColor: ProfileColorKey

                        /// The configuration key `p.color`; its default is `Profile.profileColor`.
                        enum ProfileColorKey: ServiceConfiguration.ConfigurationKey {
                            static let name = "p.color"
                            static let defaultValue = Profile.profileColor
                            static let summary = "The accent."
                            static let debugTitle: String = "Accent"
                            static let valuePattern: ServiceConfiguration.ConfigurationValuePattern = ConfigurationValuePattern("#[0-9A-F]{6}", format: "#RRGGBB")
                        }
                        static let profileScale = 0.5

                        /// `p.scale`, read as `service.profileScale`.
                        let profileScale: ProfileScaleKey

                        /// The configuration key `p.scale`; its default is `Profile.profileScale`.
                        enum ProfileScaleKey: ServiceConfiguration.ConfigurationKey {
                            static let name = "p.scale"
                            static let defaultValue = Profile.profileScale
                            static var debugControlType: ServiceConfiguration.ConfigurationDebugControlType<Value> {
                                .number(range: 0 ... 1, step: 0.25)
                            }
                        }
                        private static let profileSize = 256

                        /// `p.size`, read as `service.profileSize`.
                        private let profileSize: ProfileSizeKey

                        /// The configuration key `p.size`; its default is `Profile.profileSize`.
                        private enum ProfileSizeKey: ServiceConfiguration.ConfigurationKey {
                            static let name = "p.size"
                            static let defaultValue = Profile.profileSize
                            static var debugControlType: ServiceConfiguration.ConfigurationDebugControlType<Value> {
                                .picker([.init(128), .init(256)])
                            }
                        }

                        /// The scope's keys in declaration order, listed by `@ConfigurationScope` (no reflection needed).
                        static var keys: [any ServiceConfiguration.ConfigurationKey.Type] {
                            [
                                ProfileColorKey.self,
                                ProfileScaleKey.self,
                                ProfileSizeKey.self,
                            ]
                        }

                        /// Overrides the keys given a value on `service` (a `MockConfigurationService` in a test) in one call,
                        /// and returns the service; a key left `nil` keeps its value. Throws as `setOverride(_:for:)` does.
                        ///
                        /// ```swift
                        /// let mock = try setOverrides(on: MockConfigurationService(scopes: [Self.self]), profileColor: …)
                        /// ```
                        @discardableResult
                        private static func setOverrides<Service: ServiceConfiguration.ConfigurationService>(
                            on serviceToOverride: Service,
                            profileColor: ProfileColorKey.Value? = nil,
                            profileScale: ProfileScaleKey.Value? = nil,
                            profileSize: ProfileSizeKey.Value? = nil
                        ) throws -> Service {
                            if let profileColor {
                                try serviceToOverride.setOverride(profileColor, for: ProfileColorKey.self)
                            }
                            if let profileScale {
                                try serviceToOverride.setOverride(profileScale, for: ProfileScaleKey.self)
                            }
                            if let profileSize {
                                try serviceToOverride.setOverride(profileSize, for: ProfileSizeKey.self)
                            }
                            return serviceToOverride
                        }
                    }

                    extension Profile: ServiceConfiguration.ConfigurationScope {
                    }
                    """)
        }

        // swift-syntax's test support expands no macro inside `#if` (it has no build configuration here): the
        // compiler does, as MacroScopeTests shows in a debug build.
        @Test("keys under #if: the list keeps the conditions; the override builder takes the others")
        func conditionalKeys() {
            expectExpansion(
                """
                @ConfigurationScope
                struct Debugging: ConfigurationScope {
                    @ConfigurationKey("d.always") static let dAlways = 1
                    #if DEBUG
                        @ConfigurationKey("d.debug") static let dDebug = true
                    #endif
                }
                """,
                expanded: """
                    struct Debugging: ConfigurationScope {
                        static let dAlways = 1

                        /// `d.always`, read as `service.dAlways`.
                        let dAlways: DAlwaysKey

                        /// The configuration key `d.always`; its default is `Debugging.dAlways`.
                        enum DAlwaysKey: ServiceConfiguration.ConfigurationKey {
                            static let name = "d.always"
                            static let defaultValue = Debugging.dAlways
                        }
                        #if DEBUG
                            static let dDebug = true
                        #endif

                        /// The scope's keys in declaration order, listed by `@ConfigurationScope` (no reflection needed).
                        static var keys: [any ServiceConfiguration.ConfigurationKey.Type] {
                            var keys: [any ServiceConfiguration.ConfigurationKey.Type] = []
                            keys.append(DAlwaysKey.self)
                            #if DEBUG
                            keys.append(DDebugKey.self)
                            #endif
                            return keys
                        }

                        /// Overrides the keys given a value on `service` (a `MockConfigurationService` in a test) in one call,
                        /// and returns the service; a key left `nil` keeps its value. Throws as `setOverride(_:for:)` does.
                        ///
                        /// ```swift
                        /// let mock = try setOverrides(on: MockConfigurationService(scopes: [Self.self]), dAlways: …)
                        /// ```
                        @discardableResult
                        static func setOverrides<Service: ServiceConfiguration.ConfigurationService>(
                            on serviceToOverride: Service,
                            dAlways: DAlwaysKey.Value? = nil
                        ) throws -> Service {
                            if let dAlways {
                                try serviceToOverride.setOverride(dAlways, for: DAlwaysKey.self)
                            }
                            return serviceToOverride
                        }
                    }
                    """)
        }

        @Test("@Routes writes one public subscript per scope; internal on request")
        func routes() {
            expectExpansion(
                """
                @Routes(ConfigurationScopes.Checkout.self, ConfigurationScopes.Profile.self) extension ConfigurationDynamicLookup {}
                @Routes(Local.self, access: .internal) extension ConfigurationDynamicLookup {}
                """,
                expanded: """
                    extension ConfigurationDynamicLookup {

                        /// Routes `service.…` to the keys of `ConfigurationScopes.Checkout`.
                        public subscript <K: ServiceConfiguration.ConfigurationKey>(
                            dynamicMember keyPath: Swift.KeyPath<ConfigurationScopes.Checkout, K>
                        ) -> K {
                            self[K.self]
                        }

                        /// Routes `service.…` to the keys of `ConfigurationScopes.Profile`.
                        public subscript <K: ServiceConfiguration.ConfigurationKey>(
                            dynamicMember keyPath: Swift.KeyPath<ConfigurationScopes.Profile, K>
                        ) -> K {
                            self[K.self]
                        }
                    }
                    extension ConfigurationDynamicLookup {

                        /// Routes `service.…` to the keys of `Local`.
                        subscript <K: ServiceConfiguration.ConfigurationKey>(
                            dynamicMember keyPath: Swift.KeyPath<Local, K>
                        ) -> K {
                            self[K.self]
                        }
                    }
                    """)
        }
    }
#endif
