import Checkout
import Foundation
import Profile
import ServiceConfiguration

/// The app's configuration set-up: its catalog, its store, its service.
public enum AppConfiguration {
    /// Every scope the app links, found by `ConfigurationCatalogPlugin` in the modules ShopAppCore depends on: a
    /// module that adds a scope adds it to the catalog, the debug menu and the manifest, with no list to edit.
    public static let scopes: [any ConfigurationScope.Type] = LinkedConfigurationScopes.types

    /// Where each scope was found, `ConfigurationScopes.Checkout (module Checkout)`, for the report and the tests.
    public static var scopeDeclarations: [String] { LinkedConfigurationScopes.declarations.map { "\($0)" } }

    /// The catalog; building it checks for duplicate wire names, duplicate property names and broken declarations.
    public static func makeCatalog() throws(ConfigurationError) -> ConfigurationCatalog {
        try ConfigurationCatalog(scopes: scopes)
    }

    /// Overrides apply in debug builds only (Examples/HandWrittenApp shows a QA trait that lets a release build
    /// apply them).
    public static let overridePolicy = ConfigurationOverridePolicy.debugBuildsOnly

    /// Where the overrides live: `CONFIG_OVERRIDES_FILE`, else `~/.local/state/shop-app/overrides.json`. On iOS pass
    /// a URL inside the app's sandbox instead (see the README).
    public static func defaultStoreURL() -> URL {
        FileOverrideStore.defaultURL(appName: "shop-app")
    }

    /// The service the app passes to its modules.
    public static func makeService(
        serverValues: [String: String] = lastSync,
        catalog: ConfigurationCatalog,
        storeURL: URL
    ) -> LiveConfigurationService {
        LiveConfigurationService(
            serverValues: serverValues,
            catalog: catalog,
            overrideStore: FileOverrideStore(url: storeURL),
            watchMode: nil,
            overridePolicy: overridePolicy
        )
    }

    /// A server sync as the app last received it, with one value the key rejects (`"20 eur"`: lower case).
    public static let lastSync: [String: String] = [
        "checkout.apple_pay.enabled": "true",
        "checkout.cart.max_items": "40",
        "checkout.minimum_order": "20 eur",
        "checkout.shipping_rules": #"{"countries":{"DE":390,"NL":450},"freeAbove":4000}"#,
        "ab.checkout.express": "on",
        "function.profile.avatar_upload.enabled": "1",
        "function.profile.bio.max_length": "200",
        "ab.profile.editor": "compact",
    ]
}
