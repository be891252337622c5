#if CATALOG_PLUGIN
    import Checkout
    import Profile
    @testable import RegistryApp
    import ServiceConfigurationCore
    import ServiceConfigurationTesting
    import Testing

    /// What ConfigurationCatalogPlugin generated, for the app module and for this test target, and the completeness
    /// check that fails when a hand-listed catalog forgets a scope.
    @Suite struct RegistryTests {
        @Test func thePluginFoundBothModulesScopes() {
            // This target's own list (it applies the plugin too): the module's declaration shadows the app's,
            // which `@testable import` also makes visible; the app's is reachable qualified.
            #expect(
                LinkedConfigurationScopes.declarations.map(\.description) == [
                    "ConfigurationScopes.Checkout (module Checkout)", "ConfigurationScopes.Profile (module Profile)",
                ])
            let appModule = RegistryApp.LinkedConfigurationScopes.declarations.map(\.description)
            #expect(appModule == AppConfiguration.linkedScopeNames)
            #expect(AppConfiguration.linkedScopeNames.count == 2)
            // A closure, not `\.name`: a key path to a static member through an existential metatype crashes Swift
            // 6.3.1's SILGen.
            #expect(LinkedConfigurationScopes.types.map { $0.name } == ["Checkout", "Profile"])
        }

        @Test func theLinkedCatalogHasEveryKey() throws {
            let catalog = try AppConfiguration.makeLinkedCatalog()
            #expect(
                catalog.keys.map(\.name).sorted() == [
                    "function.checkout.express.enabled", "function.checkout.max_cart_items",
                    "function.profile.nickname_length",
                ])
        }

        @Test func theHandListedCatalogIsComplete() throws {
            let catalog = try AppConfiguration.makeCatalog()
            #expect(catalog.scopesMissing(from: LinkedConfigurationScopes.declarations).isEmpty)
            #expect(catalog.expectIncludesEveryScope(of: LinkedConfigurationScopes.declarations))
        }

        @Test func anIncompleteCatalogFailsNamingTheScopeAndItsModule() throws {
            let incomplete = try ConfigurationCatalog(scopes: [ConfigurationScopes.Checkout.self])
            let missing = incomplete.scopesMissing(from: LinkedConfigurationScopes.declarations)
            #expect(missing.map(\.description) == ["ConfigurationScopes.Profile (module Profile)"])
            withKnownIssue {
                #expect(!incomplete.expectIncludesEveryScope(of: LinkedConfigurationScopes.declarations))
            } matching: { issue in
                let expected =
                    "lacks the configuration scope ConfigurationScopes.Profile, declared in the linked module Profile"
                return issue.comments.contains { $0.rawValue.contains(expected) }
            }
        }
    }
#endif
