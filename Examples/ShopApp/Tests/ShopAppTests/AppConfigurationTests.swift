import Checkout
import Foundation
import Profile
import ServiceConfiguration
import ServiceConfigurationTesting
import ShopAppCore
import Testing

extension ConfigurationScopes {
    /// A scope a careless module might add: its property repeats one of Checkout's names.
    struct Careless: ConfigurationScope {
        let checkoutMaxCartItems: MaxItemsKey
        enum MaxItemsKey: ConfigurationKey {
            static let name = "careless.max_items"
            static let defaultValue = 1
        }
    }
}

@Suite("The app's catalog, store and release behaviour")
struct AppConfigurationTests {
    func temporaryStore() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shop-app-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("overrides.json")
    }

    @Test("the plugin finds both modules' scopes, every scope yields keys, the manifest round-trips")
    func catalog() throws {
        #expect(
            AppConfiguration.scopeDeclarations == [
                "ConfigurationScopes.Checkout (module Checkout)", "ConfigurationScopes.Profile (module Profile)",
            ])
        let catalog = try AppConfiguration.makeCatalog()
        #expect(catalog.scopes.map(\.name) == ["Checkout", "Profile"])
        #expect(catalog.scopes.allSatisfy { !$0.keys.isEmpty })
        let kinds = Set(catalog.keys.map(\.control.kindName))
        #expect(kinds == ["toggle", "picker", "text", "number (integer)", "number (floating point)", "json"])
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        #expect(restored.manifestJSON() == catalog.manifestJSON())
    }

    @Test("no flag is past its removal at this version; the macros' owners and removals reach the catalog")
    func lifecycle() throws {
        let catalog = try AppConfiguration.makeCatalog()
        // The app is 2.4: the guest checkout flag goes at 3.0, so this passes until the app reaches 3.0.
        catalog.expectNoKeyPastDue(version: ProgramVersion("2.4"))
        let guest = try #require(catalog.descriptor(named: "checkout.guest.enabled"))
        #expect(
            guest.lifecycle
                == ConfigurationKeyLifecycle(owner: "checkout-team", ticket: "SHOP-142", removeBy: .version("3.0")))
        #expect(catalog.descriptor(named: "checkout.flow")?.lifecycle.owner == "checkout-team")
        // At 3.0 the same check fails, naming the key and its ticket.
        withKnownIssue {
            catalog.expectNoKeyPastDue(version: ProgramVersion("3.0"))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("checkout.guest.enabled (Checkout) is past its removal")
        }
    }

    @Test("a tool reading the manifest refuses what the app refuses, with the app's message")
    func manifestAgrees() throws {
        let catalog = try AppConfiguration.makeCatalog()
        let restored = try ConfigurationCatalog(manifest: catalog.manifestJSON())
        for (name, raw) in [
            ("checkout.minimum_order", "20 eur"), ("checkout.minimum_order", "20 EUR"),
            ("function.profile.theme_color", "red"), ("checkout.apple_pay.enabled", "Y"),
            ("checkout.apple_pay.enabled", "false"), ("function.profile.avatar_upload.enabled", "1"),
            ("checkout.shipping_rules", #"{ "freeAbove": 1, "countries": {} }"#),
        ] {
            let program = Result { try catalog.descriptor(named: name)!.validate(raw) }.map { $0 }
            let tool = Result { try restored.descriptor(named: name)!.validate(raw) }.map { $0 }
            #expect("\(program)" == "\(tool)", "\(name) = \(raw)")
        }
    }

    @Test("the same property name in another scope is caught when the catalog is built, naming both scopes")
    func propertyCollision() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: AppConfiguration.scopes + [ConfigurationScopes.Careless.self])
        }
        #expect(
            error == .duplicatePropertyName("checkoutMaxCartItems", firstScope: "Checkout", secondScope: "Careless"))
    }

    @Test("overrides in the store apply in a debug build and are ignored in a release build")
    func releaseDefault() throws {
        let url = try temporaryStore()
        try FileOverrideStore(url: url).set("7", forKey: "checkout.cart.max_items")
        let service = AppConfiguration.makeService(catalog: try AppConfiguration.makeCatalog(), storeURL: url)
        #if DEBUG
            #expect(service.overridesApply)
            #expect(service.checkoutMaxCartItems == 7)
        #else
            #expect(!service.overridesApply)
            #expect(service.checkoutMaxCartItems == 40, "the server value, not the override")
            #expect(throws: ConfigurationError.overridesDisabled) {
                try service.setOverride(8, for: \.checkoutMaxCartItems)
            }
        #endif
        let qa = LiveConfigurationService(
            catalog: try AppConfiguration.makeCatalog(), overrideStore: FileOverrideStore(url: url), watchMode: nil,
            overridePolicy: .allBuilds)
        #expect(qa.checkoutMaxCartItems == 7, "a QA build opts in with one argument")
    }

    @Test("the mock applies overrides in every build; with .never it behaves as the release app does, in any build")
    func mockPolicy() throws {
        let mock = MockConfigurationService(scopes: AppConfiguration.scopes)
        try mock.setOverride(3, for: \.checkoutMaxCartItems)
        #expect(mock.checkoutMaxCartItems == 3)
        let asReleased = MockConfigurationService(scopes: AppConfiguration.scopes, overridePolicy: .never)
        #expect(throws: ConfigurationError.overridesDisabled) {
            try asReleased.setOverride(3, for: \.checkoutMaxCartItems)
        }
        #expect(asReleased.checkoutMaxCartItems == 50)
        // The app's own default policy follows the build the tests run in.
        let asBuilt = MockConfigurationService(scopes: AppConfiguration.scopes, overridePolicy: .debugBuildsOnly)
        #if DEBUG
            try asBuilt.setOverride(3, for: \.checkoutMaxCartItems)
            #expect(asBuilt.checkoutMaxCartItems == 3)
        #else
            #expect(throws: ConfigurationError.overridesDisabled) {
                try asBuilt.setOverride(3, for: \.checkoutMaxCartItems)
            }
        #endif
    }

    @Test("the app's report: values, sources and the rejected server value with its reason")
    func report() throws {
        let url = try temporaryStore()
        let catalog = try AppConfiguration.makeCatalog()
        let lines = AppReport.lines(
            service: AppConfiguration.makeService(catalog: catalog, storeURL: url), catalog: catalog)
        #expect(
            lines.contains(
                #"checkout.minimum_order = 1000 EUR (DEFAULT) [server value rejected: expected MINOR_UNITS CURRENCY such as 2000 EUR, got "20 eur"]"#
            ))
        #expect(lines.contains("checkout: pay with express, apple-pay, card"))
    }
}
