import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

@Suite("One way to name a key: the key path reads use, for every operation")
struct KeyPathAPITests {
    typealias Fixture = ConfigurationScopes.Fixture

    /// The same operations through key paths, on any service.
    func exercise(_ service: some ConfigurationService) async throws {
        let changes = service.changes(of: \.count)
        try service.setOverride(30, for: \.count)
        #expect(service.count == 30)
        #expect(service.resolution(of: \.count).source == .overridden)
        #expect(service.resolution(of: \.count).rawValue == "30")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == 30)
        try service.removeOverride(for: \.count)
        #expect(await iterator.next() == 3)
        #expect(service.resolution(of: \.count).source == .default)
        #expect(service.name(of: \.count) == Fixture.CountKey.name)
        service.updateServerValues([Fixture.ExperimentKey.name: "on"])
        #expect(service.isEnabled(\.experiment))
    }

    @Test("live service")
    func live() async throws {
        try await exercise(LiveConfigurationService(catalog: try fixtureCatalog()))
    }

    @Test("mock, including setting server values by key path")
    func mock() async throws {
        let mock = MockConfigurationService(scopes: [Fixture.self])
        try await exercise(mock)
        mock.setServerValue(.manual, for: \.mode)
        #expect(mock.serverValues[Fixture.ModeKey.name] == "manual")
        mock.setServerValue(rawValue: "bogus", for: \.mode)
        #expect(mock.resolution(of: \.mode).rejections.map(\.rawValue) == ["bogus"])
    }

    @Test("snapshots answer resolution(of:) by key path too")
    func snapshot() {
        let service = LiveConfigurationService(serverValues: [Fixture.CountKey.name: "x"])
        let values = service.values()
        #expect(values.resolution(of: \.count).rejections.count == 1)
    }
}

@Suite("A live view of one scope, for a module to keep as its dependency")
struct ScopedConfigurationTests {
    typealias Fixture = ConfigurationScopes.Fixture

    /// What a feature module holds: only its own scope's keys.
    struct FeatureModel {
        let configuration: ScopedConfiguration<ConfigurationScopes.Fixture>
        var summary: String { "\(configuration.flag ? "on" : "off") x\(configuration.count)" }
    }

    @Test("the view reads the latest value every time, from the live service and from the mock")
    func live() async throws {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: "Y"])
        let model = FeatureModel(configuration: service.scoped(to: Fixture.self))
        #expect(model.summary == "on x3")
        service.updateServerValues([Fixture.FlagKey.name: "N", Fixture.CountKey.name: "5"])
        #expect(model.summary == "off x5", "a snapshot would still say on x3")

        let mock = MockConfigurationService(scopes: [Fixture.self])
        let tested = FeatureModel(configuration: mock.scoped(to: Fixture.self))
        mock.flag = true
        mock.count = 9
        #expect(tested.summary == "on x9")
        #expect(tested.configuration.resolution(of: \.count).source == .server)
        #expect(tested.configuration.values().count == 9)
        let changes = tested.configuration.changes(of: \.count)
        var iterator = changes.makeAsyncIterator()
        mock.count = 10
        #expect(await iterator.next() == 10)
    }
}

@Suite("The mock knows the keys of the scopes it is created with")
struct MockScopesTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("created from scopes, a key can be overridden by name before it is ever read")
    func byName() throws {
        let mock = MockConfigurationService(scopes: [Fixture.self])
        try mock.setOverride(rawValue: "7", forKeyNamed: Fixture.CountKey.name)
        #expect(mock.count == 7)
        #expect(
            throws: ConfigurationError.unknownKey("test.feature.retry_cont", suggestions: ["test.feature.retry_count"])
        ) {
            try mock.setOverride(rawValue: "7", forKeyNamed: "test.feature.retry_cont")
        }
    }

    @Test("without scopes, the error says how to make the key known")
    func unregistered() {
        let mock = MockConfigurationService()
        let error = #expect(throws: ConfigurationError.self) {
            try mock.setOverride(rawValue: "7", forKeyNamed: Fixture.CountKey.name)
        }
        #expect(error == .unregisteredKey(Fixture.CountKey.name))
        #expect(error?.description.contains("MockConfigurationService(scopes:") == true)
    }
}

/// A service of another kind than this package's: every call forwarded, reads counted.
final class ForwardingService: ConfigurationService {
    let base = LiveConfigurationService()
    let reads = Locked(0)

    subscript<K: ConfigurationKey>(key: K.Type) -> K.Value {
        reads.withLock { $0 += 1 }
        return base[K.self]
    }
    func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value> {
        base.resolution(of: K.self)
    }
    func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>? {
        base.resolution(forKeyNamed: name)
    }
    func values() -> ConfigurationValues { base.values() }
    var serverValues: [String: String] { base.serverValues }
    var overrides: [String: String] { base.overrides }
    func updateServerValues(_ values: [String: String]) { base.updateServerValues(values) }
    func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws {
        try base.setOverride(value, for: K.self)
    }
    func setOverride(rawValue: String, forKeyNamed name: String, note: String?) throws {
        try base.setOverride(rawValue: rawValue, forKeyNamed: name, note: note)
    }
    func restoreOverrides(_ entries: [String: OverrideEntry?]) throws { try base.restoreOverrides(entries) }
    var overrideStore: any OverrideStore { base.overrideStore }
    var overridesApply: Bool { base.overridesApply }
    func removeOverride(forKeyNamed name: String) throws { try base.removeOverride(forKeyNamed: name) }
    func removeAllOverrides() throws { try base.removeAllOverrides() }
    func updateOverrides(_ changes: [String: String?], validate: Bool) throws {
        try base.updateOverrides(changes, validate: validate)
    }
    func register(_ catalog: ConfigurationCatalog) { base.register(catalog) }
    func observe(_ handler: @escaping @Sendable (Set<String>) -> Void, finish: (@Sendable () -> Void)?)
        -> ConfigurationObservation
    {
        base.observe(handler, finish: finish)
    }
}

@Suite("A scoped view over a service of another kind")
struct ForeignServiceScopedTests {
    @Test("reads go through the service itself")
    func forwarding() {
        let service = ForwardingService()
        let view = service.scoped(to: ConfigurationScopes.Fixture.self)
        service.updateServerValues([ConfigurationScopes.Fixture.CountKey.name: "4"])
        #expect(view.count == 4)
        #expect(service.reads.withLock { $0 } == 1)
    }
}
