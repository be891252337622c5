import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

@Suite("MockConfigurationService behaves like the live service")
struct MockParityTests {
    typealias Fixture = ConfigurationScopes.Fixture

    /// One step of a script run against both services.
    enum Step {
        case sync([String: String])
        case override(String, String)
        case remove(String)
        case removeAll
    }

    static let script: [Step] = [
        .sync([Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "12", Fixture.ModeKey.name: "bogus"]),
        .override(Fixture.CountKey.name, "13"),
        .sync([
            Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "14", Fixture.PolicyKey.name: #"{"limit":2,"tags":[]}"#,
        ]),
        .override(Fixture.FlagKey.name, "Y"),
        .override(Fixture.ModeKey.name, "manual"),
        .remove(Fixture.CountKey.name),
        .sync([Fixture.FlagKey.name: "nope", Fixture.SizeKey.name: "2x2"]),
        .removeAll,
    ]

    static let names = [
        Fixture.FlagKey.name, Fixture.CountKey.name, Fixture.ModeKey.name, Fixture.PolicyKey.name,
        Fixture.SizeKey.name,
    ]

    /// Runs the script; returns the notifications and every key's erased resolution after each step.
    func run(_ service: some ConfigurationService) throws -> (notifications: [Set<String>], states: [String]) {
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        var states: [String] = []
        for step in Self.script {
            switch step {
            case .sync(let values): service.updateServerValues(values)
            case .override(let name, let raw): try service.setOverride(rawValue: raw, forKeyNamed: name)
            case .remove(let name): try service.removeOverride(forKeyNamed: name)
            case .removeAll: try service.removeAllOverrides()
            }
            states.append(
                Self.names.map { name in "\(name)=\(String(describing: service.resolution(forKeyNamed: name)))" }
                    .joined(separator: "\n")
            )
            states.append("typed flag=\(service.resolution(of: Fixture.FlagKey.self))")
            states.append("typed mode=\(service.resolution(of: Fixture.ModeKey.self))")
        }
        withExtendedLifetime(observation) {}
        return (log.all, states)
    }

    @Test("same script, same resolutions and the same notification sequence")
    func parity() throws {
        let live = try run(LiveConfigurationService(catalog: try fixtureCatalog()))
        let mock = try run(MockConfigurationService(catalog: try fixtureCatalog()))
        #expect(live.notifications == mock.notifications)
        #expect(live.states == mock.states)
        // The script is not trivial: it produces notifications and rejections.
        #expect(live.notifications.count >= 5)
        #expect(live.states.contains { $0.contains("server value rejected: expected Y or N") })
    }

    @Test("the mock's setter goes through encode and decode, as if the server had sent the value")
    func setter() {
        let service = MockConfigurationService()
        service.flag = true
        service.size = FixtureSize(width: 7, height: 1)
        service.policy = FixturePolicy(limit: 9, tags: [])
        #expect(service.serverValues[Fixture.FlagKey.name] == "Y")
        #expect(service.serverValues[Fixture.SizeKey.name] == "7x1")
        #expect(service.serverValues[Fixture.PolicyKey.name] == #"{"limit":9,"tags":[]}"#)
        #expect(service.flag)
        #expect(service.resolution(of: Fixture.FlagKey.self).source == .server)
    }

    @Test("the mock reports undecodable raw server values like production")
    func rawServerValue() {
        let service = MockConfigurationService()
        service.setServerValue(rawValue: "TRUE", forKeyNamed: Fixture.FlagKey.name)
        #expect(service.flag == false)
        #expect(
            service.resolution(of: Fixture.FlagKey.self).rejections.first?.reason == "expected Y or N, got \"TRUE\"")
    }

    @Test("code written against the protocol runs unchanged on the mock")
    func protocolUse() throws {
        func likeButtonVisible(_ service: some ConfigurationService) -> Bool {
            service.flag && service.experiment.isEnabled
        }
        let service = MockConfigurationService()
        #expect(!likeButtonVisible(service))
        service.flag = true
        service.experiment = .on
        #expect(likeButtonVisible(service))
        try service.setOverride(.off, for: Fixture.ExperimentKey.self)
        #expect(!likeButtonVisible(service))
    }
}
