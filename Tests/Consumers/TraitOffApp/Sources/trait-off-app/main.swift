import ServiceConfiguration

extension ConfigurationScopes {
    /// The app's keys.
    struct Checkout: ConfigurationScope {
        let checkoutMaxItems: MaxItemsKey
        enum MaxItemsKey: ConfigurationKey {
            static let name = "function.checkout.max_items"
            static let defaultValue = 10
        }
    }
}

// The server's value, and an override that a build without overrides does not apply, whatever the policy.
let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Checkout.self])
let service = LiveConfigurationService(
    serverValues: ["function.checkout.max_items": "40"], overrides: ["function.checkout.max_items": "7"],
    catalog: catalog, overridePolicy: .allBuilds)
let maxItems = service[ConfigurationScopes.Checkout.MaxItemsKey.self]
print("max items: \(maxItems), overrides apply: \(service.overridesApply)")
