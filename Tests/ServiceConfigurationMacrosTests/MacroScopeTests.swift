#if Macros
    import ServiceConfigurationMacros
    import ServiceConfigurationTesting
    import Testing

    extension ConfigurationScopes {
        /// Keys declared with the macros.
        @ConfigurationScope
        struct MacroCheckout {
            /// The most items one cart holds.
            @ConfigurationKey("macro.cart.max_items", range: 1...500) static let macroMaxCartItems = 50
            @ConfigurationKey("macro.apple_pay.enabled", boolEncoding: .trueFalse)
            static let macroApplePayEnabled = false
        }
    }

    @Routes(ConfigurationScopes.MacroCheckout.self, access: .internal) extension ConfigurationDynamicLookup {}

    @Suite struct MacroScopeTests {
        @Test func reads() throws {
            let mock = try ConfigurationScopes.MacroCheckout.setOverrides(
                on: MockConfigurationService(scopes: [ConfigurationScopes.MacroCheckout.self]), macroMaxCartItems: 3)
            #expect(mock.macroMaxCartItems == 3)
            #expect(mock.macroApplePayEnabled == false)
            mock.macroApplePayEnabled = true
            #expect(mock.serverValues["macro.apple_pay.enabled"] == "true")
        }
    }
#endif
