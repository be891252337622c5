import Checkout
import Profile
import ServiceConfiguration

/// The app's configuration: its scopes listed by hand, as apps have done, and the scopes its modules declare, as
/// ConfigurationCatalogPlugin found them.
public enum AppConfiguration {
    /// The scopes, listed by hand; the tests check the list against what the plugin found.
    public static let scopes: [any ConfigurationScope.Type] = [
        ConfigurationScopes.Checkout.self,
        ConfigurationScopes.Profile.self,
    ]

    /// The catalog from the hand-written list.
    public static func makeCatalog() throws(ConfigurationError) -> ConfigurationCatalog {
        try ConfigurationCatalog(scopes: scopes)
    }

    #if CATALOG_PLUGIN
        /// The catalog from the scopes the plugin found: no list to maintain.
        public static func makeLinkedCatalog() throws(ConfigurationError) -> ConfigurationCatalog {
            try ConfigurationCatalog(scopes: LinkedConfigurationScopes.types)
        }

        /// What the plugin found, one `name (module M)` each.
        public static var linkedScopeNames: [String] { LinkedConfigurationScopes.declarations.map(\.description) }
    #endif
}
