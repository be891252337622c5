import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@Suite("Resolution: overridden > server > default, with reasons")
struct ResolutionTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("default when nothing is set")
    func defaults() {
        let service = LiveConfigurationService()
        let resolution = service.resolution(of: Fixture.FlagKey.self)
        #expect(resolution.value == false)
        #expect(resolution.source == .default)
        #expect(resolution.rawValue == nil)
        #expect(resolution.rejections.isEmpty)
        #expect(service.count == 3)
    }

    @Test("valid server value wins over the default")
    func server() {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "9"])
        #expect(service.flag == true)
        #expect(service.count == 9)
        #expect(service.resolution(of: Fixture.FlagKey.self).source == .server)
    }

    @Test("invalid server value falls back to the default and says why", arguments: ["y", "true", ""])
    func invalidServer(raw: String) {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: raw])
        let resolution = service.resolution(of: Fixture.FlagKey.self)
        #expect(resolution.value == false)
        #expect(resolution.source == .default)
        #expect(
            resolution.rejections == [
                ConfigurationRejection(source: .server, rawValue: raw, reason: "expected Y or N, got \"\(raw)\"")
            ]
        )
        #expect(resolution.rejections[0].description == "server value rejected: expected Y or N, got \"\(raw)\"")
    }

    @Test("override beats server")
    func overrideWins() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: "N"])
        try service.setOverride(true, for: Fixture.FlagKey.self)
        let resolution = service.resolution(of: Fixture.FlagKey.self)
        #expect(resolution.value == true)
        #expect(resolution.source == .overridden)
        #expect(resolution.rawValue == "Y")
        #expect(service.overrides == [Fixture.FlagKey.name: "Y"])
    }

    @Test("server sync replaces server values and keeps overrides")
    func syncKeepsOverrides() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.CountKey.name: "5", Fixture.FlagKey.name: "Y"])
        try service.setOverride(11, for: Fixture.CountKey.self)
        service.updateServerValues([Fixture.CountKey.name: "6"])
        #expect(service.count == 11)
        #expect(service.flag == false)
        #expect(service.serverValues == [Fixture.CountKey.name: "6"])
        try service.removeOverride(for: Fixture.CountKey.self)
        #expect(service.count == 6)
        #expect(service.resolution(of: Fixture.CountKey.self).source == .server)
    }

    @Test("an undecodable override (set behind the validator's back) falls through to the server and is reported")
    func invalidOverrideFallsThrough() {
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "5"],
            overrides: [Fixture.CountKey.name: "five"]
        )
        let resolution = service.resolution(of: Fixture.CountKey.self)
        #expect(resolution.value == 5)
        #expect(resolution.source == .server)
        #expect(resolution.rejections.map(\.source) == [.overridden])
        #expect(resolution.rejections.first?.rawValue == "five")
    }

    @Test("string-level override is validated by the key and refused with the key's name")
    func rawOverrideRefused() throws {
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let error = #expect(throws: ConfigurationError.self) {
            try service.setOverride(rawValue: "yes", forKeyNamed: Fixture.FlagKey.name)
        }
        #expect(error?.description == "test.feature.flag.enabled expects Y or N, got \"yes\"")
        #expect(service.overrides.isEmpty)
        try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name)
        #expect(service.flag == true)
    }

    @Test("string-level override of an unknown key suggests near names")
    func unknownKey() throws {
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let error = #expect(throws: ConfigurationError.self) {
            try service.setOverride(rawValue: "Y", forKeyNamed: "test.feature.flag.enable")
        }
        #expect(error == .unknownKey("test.feature.flag.enable", suggestions: ["test.feature.flag.enabled"]))
        #expect(error?.description.contains("did you mean test.feature.flag.enabled?") == true)
    }

    @Test("keys become known to string-level operations once read")
    func learnsKeysByReading() throws {
        let service = LiveConfigurationService()
        #expect(service.resolution(forKeyNamed: Fixture.ModeKey.name) == nil)
        _ = service.mode
        #expect(throws: ConfigurationError.self) {
            try service.setOverride(rawValue: "sideways", forKeyNamed: Fixture.ModeKey.name)
        }
        try service.setOverride(rawValue: "manual", forKeyNamed: Fixture.ModeKey.name)
        #expect(service.mode == .manual)
    }

    @Test("type-erased resolution matches the typed one, in canonical strings")
    func erasedResolution() throws {
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "007", Fixture.FlagKey.name: "maybe"],
            catalog: try fixtureCatalog()
        )
        let count = try #require(service.resolution(forKeyNamed: Fixture.CountKey.name))
        #expect(count.value == "7")
        #expect(count.source == .server)
        #expect(count.rawValue == "007")
        let flag = try #require(service.resolution(forKeyNamed: Fixture.FlagKey.name))
        #expect(flag.value == "N")
        #expect(flag.source == .default)
        #expect(flag.rejections == service.resolution(of: Fixture.FlagKey.self).rejections)
    }

    @Test("typed override of a value whose encoding does not decode back is refused")
    func brokenCodecRefused() {
        enum BrokenKey: ConfigurationKey {
            static let name = "test.broken"
            static let defaultValue = 1
            static func encode(_ value: Int) throws -> String? { "#\(value)" }
        }
        let service = LiveConfigurationService()
        let error = #expect(throws: ConfigurationError.self) { try service.setOverride(2, for: BrokenKey.self) }
        #expect(error?.description.hasPrefix("test.broken expects an integer") == true)
        #expect(service.overrides.isEmpty)
    }

    @Test("A/B key: picker value and isEnabled")
    func experiment() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.ExperimentKey.name: "off"])
        #expect(service.experiment == .off)
        #expect(!service.isEnabled(Fixture.ExperimentKey.self))
        try service.setOverride(.on, for: Fixture.ExperimentKey.self)
        #expect(service.isEnabled(Fixture.ExperimentKey.self))
    }

    @Test("cached values are invalidated exactly when the wire string changes")
    func cacheInvalidation() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.PolicyKey.name: #"{"limit":1,"tags":[]}"#])
        #expect(service.policy.limit == 1)
        service.updateServerValues([Fixture.PolicyKey.name: #"{"limit":2,"tags":[]}"#])
        #expect(service.policy.limit == 2)
        try service.setOverride(FixturePolicy(limit: 3, tags: ["q"]), for: Fixture.PolicyKey.self)
        #expect(service.policy == FixturePolicy(limit: 3, tags: ["q"]))
        try service.removeAllOverrides()
        #expect(service.policy.limit == 2)
        service.updateServerValues([:])
        #expect(service.policy == Fixture.PolicyKey.defaultValue)
    }
}
