import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Testing

extension ConfigurationScopes {
    /// Keys whose decoding reads other keys of the same service.
    struct Reentrant: ConfigurationScope {
        let derived: DerivedKey
        enum DerivedKey: ConfigurationKey {
            static let name = "test.reentrant.derived"
            static let defaultValue = 0
            /// Set by each test before reading: the service this key's decode consults.
            static let service = Locked<LiveConfigurationService?>(nil)
            static func decode(from string: String) throws -> Int {
                let base = service.withLock { $0 }?[ConfigurationScopes.Fixture.CountKey.self] ?? 0
                return try Int.decodeConfigurationValue(string) + base
            }
        }
    }
}

@Suite("Thread safety and re-entrancy", .serialized)
struct ConcurrencyTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("a custom decode that reads the same service does not deadlock")
    func reentrantDecode() throws {
        let service = LiveConfigurationService(serverValues: [
            Fixture.CountKey.name: "10", ConfigurationScopes.Reentrant.DerivedKey.name: "5",
        ])
        ConfigurationScopes.Reentrant.DerivedKey.service.withLock { $0 = service }
        defer { ConfigurationScopes.Reentrant.DerivedKey.service.withLock { $0 = nil } }
        #expect(service[ConfigurationScopes.Reentrant.DerivedKey.self] == 15)
        try service.setOverride(rawValue: "7", forKeyNamed: ConfigurationScopes.Reentrant.DerivedKey.name)
        #expect(service[ConfigurationScopes.Reentrant.DerivedKey.self] == 17)
        _ = service.values()[ConfigurationScopes.Reentrant.DerivedKey.self]
    }

    @Test("readers always see a value some write produced while syncs and overrides race")
    func readersDuringWrites() async throws {
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        let rounds = 400
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<rounds {
                    service.updateServerValues([
                        Fixture.CountKey.name: String(round * 2),
                        Fixture.FlagKey.name: round.isMultiple(of: 2) ? "Y" : "N",
                    ])
                }
            }
            group.addTask {
                for round in 0..<rounds {
                    try? service.setOverride(round * 2 + 1, for: Fixture.CountKey.self)
                    if round.isMultiple(of: 3) { try? service.removeOverride(for: Fixture.CountKey.self) }
                }
            }
            for _ in 0..<6 {
                group.addTask {
                    for _ in 0..<rounds * 5 {
                        let count = service.count
                        // Every value written is 0..<2*rounds, or the default 3.
                        precondition(count == 3 || (0..<(2 * rounds)).contains(count), "torn read: \(count)")
                        let snapshot = service.values()
                        _ = snapshot.flag
                        _ = service.resolution(of: Fixture.PolicyKey.self)
                    }
                }
            }
        }
        try service.removeAllOverrides()
        service.updateServerValues([Fixture.CountKey.name: "42"])
        #expect(service.count == 42)
        #expect(service.resolution(of: Fixture.CountKey.self).source == .server)
        #expect(!log.all.isEmpty)
        withExtendedLifetime(observation) {}
    }

    @Test("many services and threads: each thread's cache stripe stays consistent")
    func manyServices() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let service = MockConfigurationService()
                    service.count = index
                    var ok = true
                    for step in 0..<200 {
                        service.count = index + step
                        ok = ok && service.count == index + step
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
    }

    /// With one stripe every thread shares one `Mutex` and one cache table, so ThreadSanitizer (the `.ci/run` step)
    /// checks the stripes' locking across threads; with 64 stripes two threads rarely meet and it would see nothing.
    @Test("threads sharing one read-cache stripe: reads and writes race safely")
    func sharedStripe() throws {
        let engine = ConfigurationEngine(catalog: try fixtureCatalog(), readCacheStripes: 1)
        let rounds = 2_000
        let done = DispatchGroup()
        let failures = Locked<[String]>([])
        for reader in 0..<3 {
            done.enter()
            Thread {
                defer { done.leave() }
                for _ in 0..<rounds * 5 {
                    let count = engine.value(of: Fixture.CountKey.self)
                    if count != 3 && !(0..<rounds).contains(count) {
                        failures.withLock { $0.append("reader \(reader) saw \(count)") }
                    }
                    _ = engine.value(of: Fixture.FlagKey.self)
                }
            }.start()
        }
        done.enter()
        Thread {
            defer { done.leave() }
            for round in 0..<rounds {
                engine.setServerValue(String(round), forKeyNamed: Fixture.CountKey.name)
            }
        }.start()
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(engine.value(of: Fixture.CountKey.self) == rounds - 1)
    }
}
