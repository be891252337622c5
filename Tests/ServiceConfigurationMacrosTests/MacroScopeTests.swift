#if Macros
    import Foundation
    import ServiceConfigurationMacros
    import ServiceConfigurationTesting
    import Testing

    /// The checkout flows of the test scopes.
    enum Flow: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
        case classic, express
    }

    /// A compound value carried as JSON.
    struct Rules: Codable, Hashable, Sendable, ConfigurationValueJSONRepresentable {
        var freeAbove: Int
    }

    /// The same keys twice: declared with the macros, and as a careful person writes them by hand.
    enum MacroForm {
        /// The keys, declared with the macros.
        @ConfigurationScope
        struct Checkout {
            /// The most items one cart holds.
            @ConfigurationKey("checkout.cart.max_items", range: 1...500) static let macroMaxCartItems = 50
            @ConfigurationKey("checkout.apple_pay.enabled", title: "Apple Pay", boolEncoding: .trueFalse)
            static let macroApplePayEnabled = false
            @ConfigurationKey("checkout.fee_rate", summary: "The fee.", range: 0...0.2, step: 0.01)
            static let macroFeeRate = 0.05
            @ConfigurationKey("checkout.banner", pattern: ConfigurationValuePattern("[a-z ]*", format: "lower case"))
            static let macroBanner = "hello"
            @ConfigurationKey("checkout.flow") static let macroFlow = Flow.classic
            @ConfigurationKey("checkout.size", control: .picker([.init(128), .init(256, title: "retina")]))
            static let macroSize = 128
            @ConfigurationKey("checkout.rules") static let macroRules = Rules(freeAbove: 5000)
            @ConfigurationKey("ab.checkout.express") static let macroExpress = ConfigurationABTest.none
            #if DEBUG
                @ConfigurationKey("checkout.debug_only") static let macroDebugOnly = true
            #endif
        }
    }

    @Routes(MacroForm.Checkout.self, access: .internal) extension ConfigurationDynamicLookup {}

    enum HandForm {
        /// The same keys, written by hand.
        struct Checkout: ConfigurationScope {
            let handMaxCartItems: MaxCartItemsKey
            enum MaxCartItemsKey: ConfigurationKey {
                static let name = "checkout.cart.max_items"
                static let defaultValue = 50
                static let summary = "The most items one cart holds."
                static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 1...500) }
            }
            let handApplePayEnabled: ApplePayEnabledKey
            enum ApplePayEnabledKey: ConfigurationKey {
                static let name = "checkout.apple_pay.enabled"
                static let defaultValue = false
                static let debugTitle = "Apple Pay"
                static let boolEncoding = ConfigurationBoolEncoding.trueFalse
            }
            let handFeeRate: FeeRateKey
            enum FeeRateKey: ConfigurationKey {
                static let name = "checkout.fee_rate"
                static let defaultValue = 0.05
                static let summary = "The fee."
                static var debugControlType: ConfigurationDebugControlType<Double> {
                    .number(range: 0...0.2, step: 0.01)
                }
            }
            let handBanner: BannerKey
            enum BannerKey: ConfigurationKey {
                static let name = "checkout.banner"
                static let defaultValue = "hello"
                static let valuePattern = ConfigurationValuePattern("[a-z ]*", format: "lower case")
            }
            let handFlow: FlowKey
            enum FlowKey: ConfigurationKey {
                static let name = "checkout.flow"
                static let defaultValue = Flow.classic
            }
            let handSize: SizeKey
            enum SizeKey: ConfigurationKey {
                static let name = "checkout.size"
                static let defaultValue = 128
                static var debugControlType: ConfigurationDebugControlType<Int> {
                    .picker([.init(128), .init(256, title: "retina")])
                }
            }
            let handRules: RulesKey
            enum RulesKey: ConfigurationKey {
                static let name = "checkout.rules"
                static let defaultValue = Rules(freeAbove: 5000)
            }
            let handExpress: ExpressKey
            enum ExpressKey: ConfigurationKey {
                static let name = "ab.checkout.express"
                static let defaultValue = ConfigurationABTest.none
            }
            #if DEBUG
                let handDebugOnly: DebugOnlyKey
                enum DebugOnlyKey: ConfigurationKey {
                    static let name = "checkout.debug_only"
                    static let defaultValue = true
                }
            #endif
        }
    }

    @Suite("Keys declared with the macros, compiled and used")
    struct MacroScopeTests {
        typealias Checkout = MacroForm.Checkout

        @Test("the catalog, its manifest and every descriptor are the hand-written form's, key for key")
        func sameAsByHand() throws {
            let macro = try ConfigurationCatalog(scopes: [MacroForm.Checkout.self])
            let hand = try ConfigurationCatalog(scopes: [HandForm.Checkout.self])
            #expect(macro.manifestJSON() == hand.manifestJSON())
            #expect(macro.keys.map(\.name) == hand.keys.map(\.name))
            #expect(macro.scopes.map(\.name) == ["Checkout"])
            let limit = try #require(macro.descriptor(named: "checkout.cart.max_items"))
            #expect(limit.summary == "The most items one cart holds.", "the doc comment's first paragraph")
            #expect(limit.control.numberRange == ConfigurationNumberRange(minimum: "1", maximum: "500", step: "1"))
            #expect(macro.descriptor(named: "checkout.apple_pay.enabled")?.title == "Apple Pay")
        }

        @Test("the scope lists its keys itself, in declaration order, with the #if key in a debug build")
        func keysListed() {
            var expected = [
                "checkout.cart.max_items", "checkout.apple_pay.enabled", "checkout.fee_rate", "checkout.banner",
                "checkout.flow", "checkout.size", "checkout.rules", "ab.checkout.express",
            ]
            #if DEBUG
                expected.append("checkout.debug_only")
            #endif
            #expect(Checkout.keys.map { $0.name } == expected)
            #expect(Checkout.checkoutDefault == 50, "the static let stays the default, as a constant")
        }

        @Test("reads, the key's own Bool encoding, bounds as a value rule, through the service and a scoped view")
        func reads() throws {
            let mock = MockConfigurationService(scopes: [Checkout.self])
            let view = mock.scoped(to: Checkout.self)
            #expect(mock.macroMaxCartItems == 50)
            #expect(view.macroFlow == .classic)
            mock.macroApplePayEnabled = true
            #expect(mock.serverValues["checkout.apple_pay.enabled"] == "true")
            mock.setServerValue(rawValue: "600", for: \.macroMaxCartItems)
            #expect(mock.resolution(of: \.macroMaxCartItems).source == .default, "600 is outside 1...500")
            mock.setServerValue(rawValue: "Hello", for: \.macroBanner)
            #expect(view.macroBanner == "hello", "the pattern refuses capitals")
        }

        @Test("setOverrides sets typed overrides in one call, leaves the others, and throws on a refused value")
        func overrideBuilder() throws {
            let mock = try Checkout.setOverrides(
                on: MockConfigurationService(scopes: [Checkout.self]), macroMaxCartItems: 3, macroFlow: .express,
                macroRules: Rules(freeAbove: 1))
            #expect(mock.macroMaxCartItems == 3)
            #expect(mock.resolution(of: \.macroFlow).source == .overridden)
            #expect(mock.macroRules == Rules(freeAbove: 1))
            #expect(mock.resolution(of: \.macroBanner).source == .default)
            #expect(
                mock.overrides == [
                    "checkout.cart.max_items": "3", "checkout.flow": "express", "checkout.rules": #"{"freeAbove":1}"#,
                ])
            #expect(throws: ConfigurationError.self) { try Checkout.setOverrides(on: mock, macroMaxCartItems: 600) }
            #expect(mock.macroMaxCartItems == 3, "a refused override changes nothing")
        }
    }

    extension MacroForm.Checkout {
        /// The default, read as a constant.
        static var checkoutDefault: Int { macroMaxCartItems }
    }
#endif
