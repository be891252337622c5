import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@Suite("Overrides that expire: a time, a server change, a program version (a clock moved by hand, no sleeps)")
struct ExpiryTests {
    typealias Fixture = ConfigurationScopes.Fixture
    let count = Fixture.CountKey.name

    func service(
        _ store: any OverrideStore, clock: ManualClock, server: [String: String] = [:], version: ProgramVersion? = nil
    ) throws -> LiveConfigurationService {
        LiveConfigurationService(
            serverValues: server, catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil,
            overridePolicy: .allBuilds, programVersion: version, clock: clock)
    }

    @Test("a timed override stops applying at its time in a running program: its observer fires, no restart")
    func timedExpiryFiresObserver() throws {
        let folder = TemporaryFolder()
        let clock = ManualClock()
        let store = FileOverrideStore(url: folder.storeURL())
        let service = try service(store, clock: clock)
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }
        try service.setOverride(
            rawValue: "9", forKeyNamed: count, note: nil,
            expiry: OverrideExpiry(expiresAt: clock.now.addingTimeInterval(2 * 3600)))
        #expect(service.count == 9)
        #expect(log.all == [[count]])
        #expect(clock.pending == 1, "a timer waits for the expiry time")
        clock.advance(by: 2 * 3600 - 1)
        #expect(service.count == 9, "one second early: still applied")
        #expect(log.all.count == 1)
        clock.advance(by: 1)
        #expect(service.count == 3, "the default again")
        #expect(log.all == [[count], [count]], "the observer heard of the expiry")
        #expect(service.overrides.isEmpty)
        // It stays in the store, reported as expired, until pruned.
        #expect(store.entry(forKey: count)?.value == "9")
        let status = ConfigurationLayersReading(service: service).status(of: fixtureDescriptor(Fixture.CountKey.self))
        #expect(status.isExpired)
        #expect(status.source == .default)
        #expect(status.override?.value == "9")
        #expect(status.expiration == .time(clock.now))
        #expect(status.hasProblem)
        #expect(clock.pending == 0)
        let removed = try service.pruneExpiredOverrides()
        #expect(removed.keys.sorted() == [count])
        #expect(store.entries.isEmpty)
        #expect(store.history().records.last?.reason.action == .prune)
        #expect(log.all.count == 2, "pruning an expired override changes no value")
    }

    @Test("the nearest of several times is waited for; a later one after it; a removed one is not")
    func severalTimers() throws {
        let clock = ManualClock()
        let store = InMemoryOverrideStore()
        let service = try service(store, clock: clock)
        try service.setOverride(
            rawValue: "7", forKeyNamed: count, note: nil,
            expiry: OverrideExpiry(expiresAt: clock.now.addingTimeInterval(60)))
        try service.setOverride(
            rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: nil,
            expiry: OverrideExpiry(expiresAt: clock.now.addingTimeInterval(30)))
        try service.setOverride(
            rawValue: "hi", forKeyNamed: Fixture.GreetingKey.name, note: nil,
            expiry: OverrideExpiry(expiresAt: clock.now.addingTimeInterval(10)))
        try service.removeOverride(forKeyNamed: Fixture.GreetingKey.name)
        #expect(clock.pending == 1)
        clock.advance(by: 10)
        #expect(service.overrides.keys.sorted() == [Fixture.FlagKey.name, count])
        clock.advance(by: 20)
        #expect(service.overrides.keys.sorted() == [count])
        clock.advance(by: 30)
        #expect(service.overrides.isEmpty)
        #expect(service.expiredOverrides.keys.sorted() == [Fixture.FlagKey.name, count])
    }

    @Test("an override until the server changes expires in the same step as the change: one notification")
    func untilServerChanges() throws {
        let clock = ManualClock()
        let service = try service(InMemoryOverrideStore(), clock: clock, server: [count: "4"])
        try service.setOverride(
            rawValue: "9", forKeyNamed: count, note: nil, expiry: OverrideExpiry(untilServerChanges: true))
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }
        service.updateServerValues([count: "4", Fixture.FlagKey.name: "Y"])
        #expect(service.count == 9, "the same server value: still applied")
        #expect(log.all == [[Fixture.FlagKey.name]])
        service.updateServerValues([count: "5", Fixture.FlagKey.name: "Y"])
        #expect(service.count == 5, "the server's new value")
        #expect(log.all == [[Fixture.FlagKey.name], [count]])
        #expect(service.expiredOverrides[count] == .serverValueChanged(from: "4", to: "5"))
    }

    @Test("no server value is not a change: a tool without the program's server values never expires the override")
    func unknownServerValue() throws {
        let entry = OverrideEntry(
            value: "9", setAt: Date(timeIntervalSince1970: 1_800_000_000), serverValueWhenSet: "4",
            expiry: OverrideExpiry(untilServerChanges: true))
        let now = Date(timeIntervalSince1970: 1_800_000_100)
        #expect(entry.expiration(now: now, serverValue: nil, programVersion: nil) == nil)
        #expect(entry.expiration(now: now, serverValue: "4", programVersion: nil) == nil)
        #expect(
            entry.expiration(now: now, serverValue: "5", programVersion: nil) == .serverValueChanged(from: "4", to: "5")
        )
        let service = try service(InMemoryOverrideStore(entries: [count: entry]), clock: ManualClock(), server: [:])
        #expect(service.count == 9)
        #expect(service.expiredOverrides.isEmpty)
    }

    @Test("until a version: applies below it, expires at and after it, compared by numbers (14.10 > 14.9)")
    func untilVersion() throws {
        let entry = OverrideEntry(value: "9", expiry: OverrideExpiry(untilVersion: ProgramVersion("14.10")))
        for (version, applies) in [
            ("14.9", true), ("14.9.9", true), ("14.10", false), ("14.10.0", false), ("15", false),
        ] {
            let store = InMemoryOverrideStore(entries: [count: entry])
            let service = try service(store, clock: ManualClock(), version: ProgramVersion(version)!)
            #expect((service.count == 9) == applies, "version \(version)")
            #expect((service.expiredOverrides[count] != nil) == !applies)
        }
        let unknown = try service(InMemoryOverrideStore(entries: [count: entry]), clock: ManualClock())
        #expect(unknown.count == 9, "a program that does not say its version never meets the rule")
    }

    @Test("program versions: numbers, dots, an optional v; anything else is refused")
    func programVersions() {
        #expect(ProgramVersion("14.10")! > ProgramVersion("14.9")!)
        #expect(ProgramVersion("14.2") == ProgramVersion("14.2.0"))
        #expect(ProgramVersion("v3")!.description == "3")
        #expect(Set([ProgramVersion("1.0")!, ProgramVersion("1")!]).count == 1)
        for bad in ["", "v", "14.2-beta", "14..2", ".1", "1.", "1 2", "１２", "1234567890", "1.2.3.4.5.6.7.8.9"] {
            #expect(ProgramVersion(bad) == nil, "\(bad)")
        }
    }

    @Test("a program started after the time does not apply it; a server change and a prune in one view")
    func expiredAtStart() throws {
        let folder = TemporaryFolder()
        let clock = ManualClock()
        let past = clock.now.addingTimeInterval(-1)
        try writeStore(
            storeText(
                #""\#(count)": {"expiresAt": "\#(Timestamp.format(past))", "setAt": "2025-01-01T00:00:00.000Z", "value": "9"}"#
            ), at: folder.storeURL())
        let store = FileOverrideStore(url: folder.storeURL())
        let service = try service(store, clock: clock)
        #expect(service.count == 3)
        #expect(service.expiredOverrides[count] == .time(past))
        #expect(clock.pending == 0)
    }

    @Test("a new expiry on an unchanged value restarts it from now (a redundant override made to follow the server)")
    func expiryRestarts() throws {
        let clock = ManualClock()
        let store = InMemoryOverrideStore()
        let service = try service(store, clock: clock, server: [count: "4"])
        try service.setOverride(rawValue: "9", forKeyNamed: count, note: "kept")
        service.updateServerValues([count: "9"])
        let descriptor = fixtureDescriptor(Fixture.CountKey.self)
        var status = ConfigurationLayersReading(service: service).status(of: descriptor)
        #expect(status.isRedundant, "equal to the server value")
        #expect(status.isStale)
        clock.advance(by: 5)
        try service.setOverride(
            rawValue: "9", forKeyNamed: count, note: nil, expiry: OverrideExpiry(untilServerChanges: true))
        let entry = try #require(store.entry(forKey: count))
        #expect(entry.serverValueWhenSet == "9", "the rule starts from the server value now")
        #expect(entry.setAt == clock.now)
        #expect(entry.note == "kept")
        status = ConfigurationLayersReading(service: service).status(of: descriptor)
        #expect(!status.isRedundant, "it will follow the server again")
        #expect(service.count == 9)
        service.updateServerValues([count: "12"])
        #expect(service.count == 12)
    }

    @Test("a timer armed by a change from elsewhere (the store's own notification) fires too")
    func timerFromStoreChange() throws {
        let clock = ManualClock()
        let store = InMemoryOverrideStore()
        let service = try service(store, clock: clock)
        try store.modify { $0[count] = OverrideEntry(value: "8", expiry: OverrideExpiry(expiresAt: clock.now + 5)) }
        #expect(service.count == 8)
        clock.advance(by: 5)
        #expect(service.count == 3)
    }

    @Test("the system clock wakes the layer at the deadline (polled, no fixed sleep)")
    func systemClock() async throws {
        let fired = Locked(false)
        let observation = SystemOverrideClock().schedule(at: Date().addingTimeInterval(0.05)) {
            fired.withLock { $0 = true }
        }
        #expect(await eventually { fired.withLock { $0 } })
        let cancelled = Locked(false)
        SystemOverrideClock().schedule(at: Date().addingTimeInterval(0.05)) { cancelled.withLock { $0 = true } }
            .cancel()
        let later = Locked(false)
        let marker = SystemOverrideClock().schedule(at: Date().addingTimeInterval(0.1)) { later.withLock { $0 = true } }
        #expect(await eventually { later.withLock { $0 } })
        #expect(!cancelled.withLock { $0 }, "a cancelled wait does nothing")
        _ = (observation, marker)
    }
}
