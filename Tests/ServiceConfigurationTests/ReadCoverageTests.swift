import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

extension ConfigurationScopes {
    /// A scope the tests read from but never add to a catalog.
    struct Unlisted: ConfigurationScope {
        let unlistedLimit: LimitKey
        enum LimitKey: ConfigurationKey {
            static let name = "test.unlisted.limit"
            static let defaultValue = 7
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Unlisted, K>) -> K {
        self[K.self]
    }
}

/// A key declared outside any scope.
enum TopLevelKey: ConfigurationKey {
    static let name = "test.top_level"
    static let defaultValue = false
}

/// Collects warnings from a service's hook.
final class WarningLog: Sendable {
    private let warnings = Locked<[ConfigurationWarning]>([])
    var all: [ConfigurationWarning] { warnings.withLock { $0 } }
    func append(_ warning: ConfigurationWarning) { warnings.withLock { $0.append(warning) } }
    var hook: @Sendable (ConfigurationWarning) -> Void { { [self] in append($0) } }
}

@Suite("Read coverage: what the program read, and keys read but never registered")
struct ReadCoverageTests {
    typealias Fixture = ConfigurationScopes.Fixture
    typealias LimitKey = ConfigurationScopes.Unlisted.LimitKey

    @Test("the first read of each key is recorded with its time; keys not read are not")
    func firstRead() throws {
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "5"], catalog: try fixtureCatalog(), options: .init(onWarning: nil))
        #expect(service.readCoverage().reads.isEmpty)
        let before = Date()
        #expect(service.count == 5)
        let after = Date()
        _ = service.flag
        for _ in 0..<100 { _ = service.count }
        let coverage = service.readCoverage()
        #expect(coverage.isRecording)
        #expect(coverage.reads.map(\.name) == [Fixture.CountKey.name, Fixture.FlagKey.name].sorted())
        let read = try #require(coverage.read(named: Fixture.CountKey.name))
        #expect(read.firstRead >= before && read.firstRead <= after)
        #expect(read.currentValueFirstRead == read.firstRead)
        #expect(coverage.read(named: Fixture.RatioKey.name) == nil)
        #expect(coverage.unregistered.isEmpty)
    }

    @Test("after a key's value changes it counts as unread until the program reads it again")
    func readAfterChange() throws {
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "5"], catalog: try fixtureCatalog(), options: .init(onWarning: nil))
        _ = service.count
        _ = service.flag
        let first = try #require(service.readCoverage().read(named: Fixture.CountKey.name)).firstRead
        let changed = Date()
        try service.setOverride(9, for: Fixture.CountKey.self)
        var coverage = service.readCoverage()
        #expect(coverage.read(named: Fixture.CountKey.name)?.currentValueFirstRead == nil)
        #expect(coverage.read(named: Fixture.CountKey.name)?.firstRead == first)
        // Another key's read of its unchanged value still counts.
        #expect(coverage.read(named: Fixture.FlagKey.name)?.currentValueFirstRead != nil)
        _ = service.flag
        #expect(service.readCoverage().read(named: Fixture.CountKey.name)?.currentValueFirstRead == nil)
        #expect(service.count == 9)
        coverage = service.readCoverage()
        let reread = try #require(coverage.read(named: Fixture.CountKey.name))
        #expect(reread.firstRead == first)
        #expect(try #require(reread.currentValueFirstRead) >= changed)
        // A server sync that changes the key's wire strings counts as a change too.
        service.updateServerValues([Fixture.CountKey.name: "6"])
        #expect(service.readCoverage().read(named: Fixture.CountKey.name)?.currentValueFirstRead == nil)
    }

    @Test("snapshot reads count, string-level reads by the tools do not")
    func whatCountsAsARead() throws {
        let service = LiveConfigurationService(catalog: try fixtureCatalog(), options: .init(onWarning: nil))
        _ = service.values().flag
        _ = service.values(in: Fixture.self).ratio
        _ = service.resolution(of: Fixture.ModeKey.self)
        _ = service.resolution(forKeyNamed: Fixture.CountKey.name)
        #expect(
            service.readCoverage().reads.map(\.name).sorted()
                == [Fixture.FlagKey.name, Fixture.ModeKey.name, Fixture.RatioKey.name])
        // A snapshot taken before a change reads the old value: the current value stays unread.
        let old = service.values()
        try service.setOverride(true, for: Fixture.FlagKey.self)
        _ = old.flag
        #expect(service.readCoverage().read(named: Fixture.FlagKey.name)?.currentValueFirstRead == nil)
        _ = service.values().flag
        #expect(service.readCoverage().read(named: Fixture.FlagKey.name)?.currentValueFirstRead != nil)
    }

    @Test("with recording off no reads are kept, and unregistered keys are still reported")
    func recordingOff() throws {
        let log = WarningLog()
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), options: .init(recordsReads: false, onWarning: log.hook))
        _ = service.flag
        _ = service[LimitKey.self]
        let coverage = service.readCoverage()
        #expect(!coverage.isRecording)
        #expect(coverage.reads.isEmpty)
        #expect(coverage.unregistered.map(\.name) == [LimitKey.name])
        #expect(log.all.count == 1)
    }

    @Test("a key whose scope is not in the catalog is recorded with its scope type and reported once")
    func unregistered() async throws {
        let log = WarningLog()
        let service = LiveConfigurationService(
            serverValues: [LimitKey.name: "3"], catalog: try fixtureCatalog(), options: .init(onWarning: log.hook))
        let before = Date()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<200 { #expect(service[LimitKey.self] == 3) } }
            }
        }
        service.updateServerValues([LimitKey.name: "4"])
        #expect(service.unlistedLimit == 4)
        _ = service.values().unlistedLimit
        _ = service.flag
        let key = try #require(service.readCoverage().unregistered.first)
        #expect(service.readCoverage().unregistered.count == 1)
        #expect(key.name == LimitKey.name)
        #expect(key.scopeTypeName == "ConfigurationScopes.Unlisted")
        #expect(
            key.keyTypeName
                == "(extension in ServiceConfigurationTests):ServiceConfigurationCore.ConfigurationScopes.Unlisted.LimitKey"
        )
        #expect(key.moduleName == "ServiceConfigurationTests")
        #expect(key.firstRead >= before)
        #expect(log.all == [.unregisteredKey(key)])
        let message = log.all.first?.description ?? ""
        #expect(
            message.hasPrefix(
                "key \"test.unlisted.limit\" (ConfigurationScopes.Unlisted.LimitKey in module ServiceConfigurationTests)"
            ))
        #expect(message.contains("ConfigurationScopes.Unlisted is not in the service's catalog"))
        #expect(message.contains("Fix: add ConfigurationScopes.Unlisted.self to the scopes"))
        // The key is still read fine, and still counts as read.
        #expect(service.readCoverage().read(named: LimitKey.name) != nil)
    }

    @Test("learning a key by reading or setting it does not make it registered")
    func learnedIsNotRegistered() throws {
        let log = WarningLog()
        let service = LiveConfigurationService(catalog: try fixtureCatalog(), options: .init(onWarning: log.hook))
        // A typed override makes the key known to the string-level API before any read...
        try service.setOverride(5, for: LimitKey.self)
        #expect(service.resolution(forKeyNamed: LimitKey.name) != nil)
        // ...but it is still not in the catalog.
        #expect(service.unlistedLimit == 5)
        #expect(service.readCoverage().unregistered.map(\.name) == [LimitKey.name])
        try service.setOverride(6, for: LimitKey.self)
        _ = service.unlistedLimit
        #expect(log.all.count == 1)
    }

    @Test("without a catalog nothing is unregistered; a catalog registered later reports what was read before")
    func registeredLater() throws {
        let log = WarningLog()
        let service = LiveConfigurationService(options: .init(onWarning: log.hook))
        _ = service.flag
        _ = service.unlistedLimit
        #expect(service.readCoverage().unregistered.isEmpty)
        #expect(log.all.isEmpty)
        service.register(try fixtureCatalog())
        #expect(service.readCoverage().unregistered.map(\.name) == [LimitKey.name])
        #expect(log.all.count == 1)
        // Registering the missing scope clears it (the warning already given stays given).
        service.register(try ConfigurationCatalog(scopes: [ConfigurationScopes.Unlisted.self]))
        #expect(service.readCoverage().unregistered.isEmpty)
        _ = service.unlistedLimit
        try service.setOverride(1, for: LimitKey.self)
        _ = service.unlistedLimit
        #expect(service.readCoverage().unregistered.isEmpty)
        #expect(log.all.count == 1)
    }

    @Test(
        "the scope type is the enclosing type without the module",
        arguments: [
            ("App.ConfigurationScopes.Checkout.MaxItemsKey", "ConfigurationScopes.Checkout"),
            (
                "(extension in Checkout):ServiceConfiguration.ConfigurationScopes.Checkout.MaxItemsKey",
                "ConfigurationScopes.Checkout"
            ),
            ("App.TopLevelKey", ""),
            ("App.Outer<Swift.Int>.Inner.Key", "Outer<Swift.Int>.Inner"),
            ("App.(unknown context at $10b2c4).Scope.Key", "(unknown context at $10b2c4).Scope"),
            ("Key", ""),
        ])
    func scopeTypeNames(reflected: String, expected: String) {
        let key = UnregisteredConfigurationKey(name: "k", scopeTypeName: "", keyTypeName: reflected, firstRead: Date())
        #expect(key.keyTypeName == reflected)
        #expect(UnregisteredConfigurationKey.scopeTypeName(ofKeyType: reflected) == expected)
    }

    @Test("a key declared outside any scope is reported with the fix for that case")
    func topLevel() throws {
        let log = WarningLog()
        let service = LiveConfigurationService(catalog: try fixtureCatalog(), options: .init(onWarning: log.hook))
        _ = service[TopLevelKey.self]
        let key = try #require(service.readCoverage().unregistered.first)
        #expect(key.scopeTypeName == "")
        #expect(key.description.contains("declared outside any scope"))
    }

    @Test("an override the key's decode refuses is reported once and listed until it goes")
    func rejectedOverride() throws {
        let log = WarningLog()
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "Y"], overrides: [Fixture.FlagKey.name: "yes"],
            catalog: try fixtureCatalog(), options: .init(onWarning: log.hook))
        #expect(service.flag == true)
        _ = service.values().flag
        try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name)
        try service.updateOverrides([Fixture.FlagKey.name: "yes"], validate: false)
        _ = service.flag
        let expected = ConfigurationRejectedOverride(
            name: Fixture.FlagKey.name, value: "yes", reason: "expected Y or N, got \"yes\"")
        #expect(log.all == [.rejectedOverride(expected)])
        #expect(log.all.first?.description.contains("rejected by this program") == true)
        #expect(service.rejectedOverrides() == [expected])
        // Overrides of keys the program never read are checked too; unknown keys are not this program's.
        try service.updateOverrides(
            [Fixture.CountKey.name: "many", Fixture.RatioKey.name: "0.25", "not.a.key": "x"], validate: false)
        #expect(service.rejectedOverrides().map(\.name) == [Fixture.FlagKey.name, Fixture.CountKey.name].sorted())
        try service.removeAllOverrides()
        #expect(service.rejectedOverrides().isEmpty)
    }

    @Test("the mock records reads through the same engine, so it behaves like production")
    func mockRecords() {
        let mock = MockConfigurationService()
        mock.count = 4
        #expect(mock.count == 4)
        // The mock has no coverage API of its own; its engine is the one the live service uses.
        let engine = ConfigurationEngine()
        _ = engine.value(of: Fixture.CountKey.self)
        #expect(engine.readCoverage().reads.map(\.name) == [Fixture.CountKey.name])
    }
}
