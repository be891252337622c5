import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

@Suite("Change notifications: only effective changes, after the state is updated")
struct ObservationTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("observers hear exactly the keys whose effective value changed")
    func effectiveChangesOnly() throws {
        let service = LiveConfigurationService(serverValues: [Fixture.FlagKey.name: "Y"], catalog: try fixtureCatalog())
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        // Same flag; a count equal to the default.
        service.updateServerValues([Fixture.FlagKey.name: "Y", Fixture.CountKey.name: "3"])
        service.updateServerValues([Fixture.FlagKey.name: "N", Fixture.CountKey.name: "03"])  // flag changes; 03 == 3
        try service.setOverride(false, for: Fixture.FlagKey.self)  // equal to server: no change
        try service.setOverride(rawValue: "4", forKeyNamed: Fixture.CountKey.name)
        try service.removeOverride(for: Fixture.FlagKey.self)  // still N
        service.updateServerValues([Fixture.FlagKey.name: "garbage", Fixture.CountKey.name: "3"])  // falls back to N
        try service.removeAllOverrides()  // count back to 3 from the server
        #expect(log.all == [[Fixture.FlagKey.name], [Fixture.CountKey.name], [Fixture.CountKey.name]])
        observation.cancel()
        service.updateServerValues([Fixture.FlagKey.name: "Y"])
        #expect(log.all.count == 3)
    }

    @Test("the state is updated before observers run")
    func orderAfterUpdate() {
        let service = LiveConfigurationService()
        let seen = NotificationLog()
        let observation = service.observe { _ in seen.append([service.flag ? "Y" : "N"]) }
        service.updateServerValues([Fixture.FlagKey.name: "Y"])
        #expect(seen.all == [["Y"]])
        withExtendedLifetime(observation) {}
    }

    @Test("a typed change stream yields each new effective value once")
    func typedStream() async throws {
        let service = LiveConfigurationService()
        var iterator = service.changes(of: Fixture.CountKey.self).makeAsyncIterator()
        service.updateServerValues([Fixture.CountKey.name: "3"])  // equals the default: nothing
        service.updateServerValues([Fixture.CountKey.name: "5"])
        try service.setOverride(5, for: Fixture.CountKey.self)  // same value: nothing
        try service.setOverride(8, for: Fixture.CountKey.self)
        service.updateServerValues([:])
        try service.removeAllOverrides()
        #expect(await iterator.next() == 5)
        #expect(await iterator.next() == 8)
        #expect(await iterator.next() == 3)
    }

    @Test("changes(of:) does not yield the current value first: its first element is the first change")
    func noCurrentValueFirst() async throws {
        var service: LiveConfigurationService? = LiveConfigurationService(serverValues: [Fixture.CountKey.name: "7"])
        let stream = service!.changes(of: Fixture.CountKey.self)
        service!.updateServerValues([Fixture.CountKey.name: "9"])
        service = nil  // the stream finishes
        var values: [Int] = []
        for await value in stream { values.append(value) }
        #expect(values == [9], "the current 7 is not yielded")
        let idle = LiveConfigurationService(serverValues: [Fixture.CountKey.name: "7"])
        var iterator = idle.changes(of: Fixture.CountKey.self).makeAsyncIterator()
        idle.updateServerValues([Fixture.CountKey.name: "07"])  // the same value: nothing
        idle.updateServerValues([Fixture.CountKey.name: "8"])
        #expect(await iterator.next() == 8)
    }

    @Test("changed key names stream and finishing when the service goes away")
    func namesStream() async {
        var service: LiveConfigurationService? = LiveConfigurationService()
        let stream = service!.changedKeyNames()
        service!.updateServerValues([Fixture.FlagKey.name: "Y", Fixture.GreetingKey.name: "x"])
        service = nil
        var batches: [Set<String>] = []
        for await names in stream { batches.append(names) }
        #expect(batches == [[Fixture.FlagKey.name, Fixture.GreetingKey.name]])
    }

    @Test("unknown keys are compared by raw string")
    func unknownKeys() {
        let service = LiveConfigurationService()
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        service.updateServerValues(["some.unknown.key": "1"])
        service.updateServerValues(["some.unknown.key": "1"])
        service.updateServerValues(["some.unknown.key": "01"])
        #expect(log.all == [["some.unknown.key"], ["some.unknown.key"]])
        withExtendedLifetime(observation) {}
    }
}
