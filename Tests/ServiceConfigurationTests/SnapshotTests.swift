import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@Suite("Snapshots: many keys read at one instant")
struct SnapshotTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("a snapshot does not see later syncs or overrides")
    func isolation() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "1"])
        _ = service.flag
        let before = service.values()
        service.updateServerValues([Fixture.FlagKey.name: "N", Fixture.CountKey.name: "2"])
        try service.setOverride("hi", for: Fixture.GreetingKey.self)
        #expect(before.flag == true)
        #expect(before.count == 1)
        #expect(before.greeting == "hello")
        let after = service.values()
        #expect(after.flag == false)
        #expect(after.count == 2)
        #expect(after.greeting == "hi")
        #expect(after.resolution(of: Fixture.GreetingKey.self).source == .overridden)
    }

    @Test("scoped snapshot reads the scope's keys by name")
    func scoped() {
        let service = LiveConfigurationService(serverValues: [Fixture.ModeKey.name: "off"])
        let fixture = service.values(in: ConfigurationScopes.Fixture.self)
        #expect(fixture.mode == .off)
        #expect(fixture.resolution(of: \.mode).source == .server)
    }

    @Test("snapshots built from explicit layers resolve like a service")
    func explicitLayers() {
        let values = ConfigurationValues(
            serverValues: [Fixture.CountKey.name: "x"], overrides: [Fixture.RatioKey.name: "0.1"])
        #expect(values.count == 3)
        #expect(values.resolution(of: Fixture.CountKey.self).rejections.count == 1)
        #expect(values.ratio == 0.1)
    }
}
