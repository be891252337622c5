import ServiceConfiguration
import ServiceConfigurationTesting
import Testing

/// What a module that only reads looks like: it takes the narrow protocol, never the overriding one.
private enum ReadOnlyFeature {
    typealias Fixture = ConfigurationScopes.Fixture

    /// Reads typed values by key path, by key type, by variant, and from a snapshot and a scope's view.
    static func summary(_ configuration: some ConfigurationReader) -> String {
        let count: Int = configuration.count
        let flag = configuration[Fixture.FlagKey.self]
        let mode = configuration.resolution(of: \.mode).value
        let scoped = configuration.scoped(to: Fixture.self)
        let snapshot = configuration.values(in: Fixture.self)
        #expect(scoped.count == count && snapshot.count == count)
        return "\(flag ? "on" : "off") x\(count) \(mode.rawValue) ab:\(configuration.isEnabled(\.experiment))"
    }

    /// The same through the existential, as a module that stores its dependency would hold it.
    static func summary(existential configuration: any ConfigurationReader) -> String {
        summary(configuration)
    }
}

/// A reader and nothing else: fixed server values, no override layer, none of `ConfigurationService`'s override,
/// feeding or registering methods. That it conforms proves the split is real.
private final class FixedValuesReader: ConfigurationReader {
    let serverValues: [String: String]

    init(_ serverValues: [String: String]) { self.serverValues = serverValues }

    subscript<K: ConfigurationKey>(key: K.Type) -> K.Value { values()[K.self] }
    func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value> {
        values().resolution(of: K.self)
    }
    func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>? { nil }
    func values() -> ConfigurationValues { ConfigurationValues(serverValues: serverValues) }
    var overrides: [String: String] { [:] }
    var overridesApply: Bool { false }
    func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void, finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation {
        ConfigurationObservation {}
    }
}

@Suite("ConfigurationReader: a module that only reads takes the narrow protocol")
struct ConfigurationReaderTests {
    typealias Fixture = ConfigurationScopes.Fixture

    let serverValues = [
        Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "7", Fixture.ModeKey.name: "manual",
        Fixture.ExperimentKey.name: "on",
    ]

    @Test("the live service is a reader: typed values and key paths, overrides included")
    func live() throws {
        let service = LiveConfigurationService(
            serverValues: serverValues, catalog: try fixtureCatalog(), overridePolicy: .allBuilds)
        #expect(ReadOnlyFeature.summary(service) == "on x7 manual ab:true")
        try service.setOverride(9, for: \.count)
        #expect(ReadOnlyFeature.summary(existential: service) == "on x9 manual ab:true")
        let reader: any ConfigurationReader = service
        #expect(reader.resolution(of: \.count).source == .overridden)
        #expect(reader.overrides == [Fixture.CountKey.name: "9"] && reader.overridesApply)
    }

    @Test("the mock is a reader: the same function reads what a test sets")
    func mock() throws {
        let mock = MockConfigurationService(scopes: [Fixture.self], serverValues: serverValues)
        #expect(ReadOnlyFeature.summary(mock) == "on x7 manual ab:true")
        mock.count = 8
        try mock.setOverride(.automatic, for: \.mode)
        #expect(ReadOnlyFeature.summary(existential: mock) == "on x8 automatic ab:true")
    }

    @Test("a conformer without any override method reads through every reading API")
    func minimalReader() async {
        let reader = FixedValuesReader([Fixture.CountKey.name: "4", Fixture.ModeKey.name: "manual"])
        #expect(ReadOnlyFeature.summary(reader) == "off x4 manual ab:false")
        #expect(ReadOnlyFeature.summary(existential: reader) == "off x4 manual ab:false")
        #expect(reader.resolution(of: \.count).source == .server)
        #expect(reader.name(of: \.count) == Fixture.CountKey.name)
        let view = ScopedConfiguration(reader, scope: Fixture.self)
        #expect(view.count == 4 && view.resolution(of: \.mode).value == .manual)
        #expect(!(reader is any ConfigurationService))
    }

    @Test("an existential service converts to a reader, and a reader that is a service can be asked back")
    func upcast() {
        let service: any ConfigurationService = MockConfigurationService(scopes: [Fixture.self])
        let reader: any ConfigurationReader = service
        #expect(reader.count == 3)
        #expect(reader is any ConfigurationService)
        #expect(service.scoped(to: Fixture.self).count == 3)
    }
}
