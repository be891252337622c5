// expect: ambiguous use of '
// The compiler names either the property or 'subscript(dynamicMember:)', from one run to the next.
import Checkout
import ServiceConfiguration

extension ConfigurationScopes {
    struct Legacy: ConfigurationScope {
        let checkoutMaxCartItems: MaxItemsKey
        enum MaxItemsKey: ConfigurationKey {
            static let name = "legacy.max_items"
            static let defaultValue = 10
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Legacy, K>) -> K {
        self[K.self]
    }
}

func limit(_ service: some ConfigurationService) -> Int {
    service.checkoutMaxCartItems
}
