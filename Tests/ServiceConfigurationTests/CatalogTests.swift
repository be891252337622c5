import DemoConfiguration
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

extension ConfigurationScopes {
    struct DuplicateOfFixture: ConfigurationScope {
        let flagAgain: FlagAgainKey
        enum FlagAgainKey: ConfigurationKey {
            static let name = "test.feature.flag.enabled"
            static let defaultValue = true
        }
    }

    /// A scope that lists its keys itself, as a scope must where reflection metadata is stripped.
    struct Explicit: ConfigurationScope {
        enum FirstKey: ConfigurationKey {
            static let name = "test.explicit.first"
            static let defaultValue = 1
        }
        enum SecondKey: ConfigurationKey {
            static let name = "test.explicit.second"
            static let defaultValue = "two"
        }
        static var name: String { "Hand-listed" }
        static var keys: [any ConfigurationKey.Type] { [SecondKey.self, FirstKey.self] }
    }

    struct Empty: ConfigurationScope {
        let notAKey: Int
    }
}

@Suite("Catalog: keys by scope for tools")
struct CatalogTests {
    @Test("reflection lists a scope's keys in declaration order, with the scope's name")
    func reflection() throws {
        let catalog = try fixtureCatalog()
        let scope = try #require(catalog.scopes.first)
        #expect(scope.name == "Fixture")
        #expect(
            scope.keys.map(\.name) == [
                "test.feature.flag.enabled", "test.feature.retry_count", "test.feature.ratio",
                "test.feature.greeting", "test.feature.mode", "test.feature.level", "test.feature.policy",
                "ab.test.experiment", "test.feature.size",
            ]
        )
        #expect(scope.keys.allSatisfy { $0.scopeName == "Fixture" })
        #expect(catalog.descriptor(named: "test.feature.ratio")?.title == "Feature Ratio")
    }

    @Test("explicit key lists are the fallback and keep their order")
    func explicitKeys() throws {
        let catalog = try ConfigurationCatalog(scopes: [ConfigurationScopes.Explicit.self])
        #expect(catalog.scopes.map(\.name) == ["Hand-listed"])
        #expect(catalog.keys.map(\.name) == ["test.explicit.second", "test.explicit.first"])
    }

    @Test("the same wire name in two scopes is an error naming both")
    func duplicates() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [
                ConfigurationScopes.Fixture.self, ConfigurationScopes.DuplicateOfFixture.self,
            ])
        }
        #expect(
            error
                == .duplicateKeyName(
                    "test.feature.flag.enabled", firstScope: "Fixture", secondScope: "DuplicateOfFixture"))
        #expect(error?.description.contains("Fixture and DuplicateOfFixture") == true)
    }

    @Test("a scope without keys (stripped metadata) is reported, not silently empty")
    func emptyScope() {
        #expect(throws: ConfigurationError.scopeHasNoKeys("Empty")) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.Empty.self])
        }
    }

    @Test("two scopes with one name are refused")
    func duplicateScopeNames() {
        #expect(throws: ConfigurationError.duplicateScopeName("Fixture")) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.Fixture.self, ConfigurationScopes.Fixture.self])
        }
    }

    @Test("every demo scope yields keys through reflection; the demo covers every control")
    func demo() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        #expect(catalog.scopes.count == 10)
        #expect(catalog.keyCount >= 50)
        for scope in DemoConfiguration.scopes {
            #expect(!scope.keys.isEmpty, "scope \(scope.name) yields no keys")
        }
        let kinds = Set(catalog.keys.map(\.control.kindName))
        #expect(kinds == ["toggle", "picker", "text", "number (integer)", "number (floating point)", "json"])
        #expect(catalog.keys.contains { $0.valueTypeName == "ImageTransferQuality" })
        #expect(catalog.keys.contains { $0.valueTypeName == "ConfigurationABTest" })
    }

    @Test("the demo server snapshot has exactly two values its keys reject")
    func demoServerValues() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let service = LiveConfigurationService(serverValues: DemoConfiguration.serverValues, catalog: catalog)
        let rejected = catalog.keys.filter { !(service.resolution(forKeyNamed: $0.name)?.rejections.isEmpty ?? true) }
        #expect(rejected.map(\.name).sorted() == ["function.album.like.enabled", "function.payments.daily_limit"])
        #expect(service.albumLikeEnabled == false)
        #expect(service.imageMedium == ImageTransferQuality(maxDimension: 1600, compression: 0.75))
        #expect(service.paymentsCheckoutTest.isEnabled)
    }

    @Test("suggestions for a mistyped name")
    func suggestions() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        #expect(catalog.suggestions(for: "function.album.like.enable").first == "function.album.like.enabled")
        #expect(catalog.suggestions(for: "zzzzzzzzzzzzzzzzzzz").isEmpty)
    }
}
