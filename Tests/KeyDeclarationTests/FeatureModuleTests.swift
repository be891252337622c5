// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// (The declarations are the README's, copied as a reader would copy them: no doc comments.)
// This target plays the part of a feature module: it sees only the public API of ServiceConfiguration. The
// declarations are the README's developer guide, written as is (the multi-module template, all `public`); the
// full multi-module app is Examples/ShopApp. This target enables InternalImportsByDefault, hence `public import`.
public import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

extension ConfigurationScopes {
    public struct Checkout: ConfigurationScope {
        public let checkoutMaxCartItems: MaxCartItemsKey  // the property: service.checkoutMaxCartItems
        public enum MaxCartItemsKey: ConfigurationKey {
            public static let name = "checkout.cart.max_items"  // the server's wire name
            public static let defaultValue = 50  // the one default; Int from the literal
            public static let summary = "The most items one cart holds."  // optional, shown in the menu
        }

        public let checkoutApplePayEnabled: ApplePayEnabledKey
        public enum ApplePayEnabledKey: ConfigurationKey {
            public static let name = "checkout.apple_pay.enabled"
            public static let defaultValue = false
            public static let boolEncoding = ConfigurationBoolEncoding.trueFalse  // this server sends true/false
        }
    }
}

extension ConfigurationDynamicLookup {  // once per scope, public
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Checkout, K>) -> K {
        self[K.self]
    }
}

public struct CheckoutModel {
    let configuration: ScopedConfiguration<ConfigurationScopes.Checkout>
    public var canPayWithApplePay: Bool { configuration.checkoutApplePayEnabled }
}

@Suite("Keys declared as the README's developer guide declares them")
struct FeatureModuleTests {
    @Test("the declarations compile and read typed values from the live service, by property and key path")
    func live() throws {
        let service = LiveConfigurationService(
            serverValues: ["checkout.cart.max_items": "40", "checkout.apple_pay.enabled": "true"]
        )
        #expect(service.checkoutMaxCartItems == 40)
        try service.setOverride(30, for: \.checkoutMaxCartItems)
        #expect(service.resolution(of: \.checkoutMaxCartItems).source == .overridden)
        try service.removeOverride(for: \.checkoutMaxCartItems)
        let model = CheckoutModel(configuration: service.scoped(to: ConfigurationScopes.Checkout.self))
        #expect(model.canPayWithApplePay)
    }

    @Test("the codec, the control, the title and the summary come from the declaration")
    func metadata() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Checkout.self])
        #expect(catalog.keys.map(\.name) == ["checkout.cart.max_items", "checkout.apple_pay.enabled"])
        #expect(
            catalog.keys.map(\.control) == [
                .number(
                    .integer, ConfigurationNumberRange(minimum: String(Int.min), maximum: String(Int.max), step: "1")),
                .toggle,
            ])
        #expect(catalog.keys.map(\.title) == ["Cart Max Items", "Apple Pay Enabled"])
        #expect(catalog.keys.map(\.defaultValueString) == ["50", "false"])
        #expect(catalog.keys.map(\.summary) == ["The most items one cart holds.", nil])
    }

    @Test("the README's mock snippet")
    func mock() throws {
        let mock = MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self])
        let model = CheckoutModel(configuration: mock.scoped(to: ConfigurationScopes.Checkout.self))
        mock.checkoutApplePayEnabled = true  // as if the server had sent "true"
        try mock.setOverride(10, for: \.checkoutMaxCartItems)
        #expect(model.canPayWithApplePay)
        #expect(mock.serverValues == ["checkout.apple_pay.enabled": "true"])
        #expect(mock.checkoutMaxCartItems == 10)
    }
}
