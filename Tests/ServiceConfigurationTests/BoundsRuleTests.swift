import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import SharedTestSupport
import Synchronization
import Testing

extension ConfigurationScopes {
    /// Number keys with declared bounds (and one with its type's), as the issue found them.
    struct Bounds: ConfigurationScope {
        let boundsLimit: LimitKey
        enum LimitKey: ConfigurationKey {
            static let name = "test.bounds.limit"
            static let defaultValue = 20
            static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 5...100) }
        }

        let boundsOffset: OffsetKey
        enum OffsetKey: ConfigurationKey {
            static let name = "test.bounds.offset"
            static let defaultValue = -20
            static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: -50...(-10), step: 5) }
        }

        let boundsShare: ShareKey
        enum ShareKey: ConfigurationKey {
            static let name = "test.bounds.share"
            static let defaultValue = 0.5
            static var debugControlType: ConfigurationDebugControlType<Double> { .number(range: 0...1, step: 0.1) }
        }

        let boundsGain: GainKey
        enum GainKey: ConfigurationKey {
            static let name = "test.bounds.gain"
            static let defaultValue: Float = 1
            static var debugControlType: ConfigurationDebugControlType<Float> { .number(range: 0.5...2, step: 0.25) }
        }

        let boundsHuge: HugeKey
        enum HugeKey: ConfigurationKey {
            static let name = "test.bounds.huge"
            static let defaultValue: UInt64 = 1 << 62
            static var debugControlType: ConfigurationDebugControlType<UInt64> { .number(range: 1...(1 << 63)) }
        }

        let boundsTiny: TinyKey
        enum TinyKey: ConfigurationKey {
            static let name = "test.bounds.tiny"
            static let defaultValue: Int8 = 1
        }
    }

    /// A default outside the key's own bounds.
    struct DefaultOutOfBounds: ConfigurationScope {
        let outOfBounds: OutKey
        enum OutKey: ConfigurationKey {
            static let name = "test.bounds.default_out"
            static let defaultValue = 200
            static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 5...100) }
        }
    }
}

/// Bounds are a value rule: the typed read, the string-level resolution, the status the menu and `config-menu`
/// show, snapshots and change notifications all apply them, in the live service and in the mock.
@Suite("Number bounds are one rule: every reader agrees on value and source")
struct BoundsRuleTests {
    typealias Limit = ConfigurationScopes.Bounds.LimitKey
    static let catalog = try! ConfigurationCatalog(scopes: [ConfigurationScopes.Bounds.self])

    static func services(server: [String: String] = [:]) -> [(String, any ConfigurationService)] {
        [
            ("live", LiveConfigurationService(serverValues: server, catalog: catalog, overridePolicy: .allBuilds)),
            ("mock", MockConfigurationService(serverValues: server, catalog: catalog)),
        ]
    }

    /// What each reader says about `K`: (canonical value, source) for the typed read, the string resolution, the
    /// status (menu and CLI), and a snapshot.
    static func readings<K: ConfigurationKey>(_ key: K.Type, in service: any ConfigurationService) -> [String: String] {
        let typed = service.resolution(of: K.self)
        let descriptor = catalog.descriptor(named: K.name)!
        let named = service.resolution(forKeyNamed: K.name)!
        let status = ConfigurationLayersReading(service: service).status(of: descriptor)
        let snapshot = service.values().resolution(of: K.self)
        func show(_ value: String?, _ source: ValueOrigin) -> String { "\(value ?? "nil") \(source)" }
        return [
            "typed": show((try? K.encode(typed.value)) ?? nil, typed.source),
            "string": show(named.value, named.source),
            "status": show(status.value, status.source),
            "snapshot": show((try? K.encode(snapshot.value)) ?? nil, snapshot.source),
        ]
    }

    @Test("a server value out of bounds is rejected with the reason and the key falls back, for every reader")
    func serverOutOfBounds() throws {
        for (label, service) in Self.services(server: [Limit.name: "500"]) {
            let readings = Self.readings(Limit.self, in: service)
            #expect(Set(readings.values) == ["20 DEFAULT"], "\(label): \(readings)")
            let resolution = service.resolution(of: Limit.self)
            #expect(resolution.value == 20, "\(label)")
            #expect(
                resolution.rejections == [
                    ConfigurationRejection(
                        source: .server, rawValue: "500", reason: "expected an integer from 5 to 100, got \"500\"")
                ], "\(label)")
            service.updateServerValues([Limit.name: "100"])
            #expect(Set(Self.readings(Limit.self, in: service).values) == ["100 SERVER"], "\(label): the bound is in")
        }
    }

    @Test("an override out of bounds is refused at set time (typed and by name); one already stored does not apply")
    func overrideOutOfBounds() throws {
        for (label, service) in Self.services(server: [Limit.name: "50"]) {
            #expect(
                throws: ConfigurationError.invalidValue(
                    key: Limit.name, value: "101", reason: "expected an integer from 5 to 100, got \"101\""), "\(label)"
            ) {
                try service.setOverride(101, for: Limit.self)
            }
            #expect(throws: ConfigurationError.self, "\(label)") {
                try service.setOverride(rawValue: "4", forKeyNamed: Limit.name, note: nil)
            }
            #expect(service.overrides.isEmpty, "\(label): nothing was stored")
            try service.updateOverrides([Limit.name: "1000"], validate: false)  // as a hand edit would leave it
            let readings = Self.readings(Limit.self, in: service)
            #expect(Set(readings.values) == ["50 SERVER"], "\(label): \(readings)")
            #expect(service.resolution(of: Limit.self).rejections.map(\.source) == [.overridden], "\(label)")
            try service.setOverride(5, for: Limit.self)
            #expect(Set(Self.readings(Limit.self, in: service).values) == ["5 OVERRIDDEN"], "\(label)")
        }
    }

    @Test(
        "the mock reports a typed server value out of bounds as a test failure at the caller, and reads as production")
    func mockSetterOutOfBounds() {
        let mock = MockConfigurationService(scopes: [ConfigurationScopes.Bounds.self])
        withKnownIssue {
            mock.setServerValue(500, for: Limit.self)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "test.bounds.limit expects an integer from 5 to 100, got \"500\"")
                && issue.sourceLocation?.fileID == #fileID
        }
        #expect(mock[Limit.self] == 20)
        #expect(mock.resolution(of: Limit.self).rejections.map(\.rawValue) == ["500"])
    }

    @Test("observers and changes(of:) fire exactly when the typed value changes: 20→500→501→600→50→50→0500→5")
    func observers() async throws {
        for (label, service) in Self.services() {
            let fired = Mutex<[Set<String>]>([])
            let observation = service.observe { names in fired.withLock { $0.append(names) } }
            let stream = service.changes(of: Limit.self)
            var values: [Int] = []
            var expected: [Int] = []
            var last = service[Limit.self]
            for server in ["500", "501", "600", "50", "50", "0500", "05", "5"] {
                let before = fired.withLock { $0.count }
                service.updateServerValues([Limit.name: server])
                let now = service[Limit.self]
                let notified = fired.withLock { $0.count } > before
                #expect(
                    notified == (now != last), "\(label): server \(server): \(last) -> \(now), notified \(notified)")
                if now != last { expected.append(now) }
                last = now
            }
            #expect(expected == [50, 20, 5], "\(label)")
            for await value in stream {
                values.append(value)
                if values.count == expected.count { break }
            }
            #expect(values == expected, "\(label)")
            observation.cancel()
        }
    }

    @Test("a default outside the key's bounds is refused when the catalog is built, naming the key")
    func defaultOutOfBounds() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationCatalog(scopes: [ConfigurationScopes.DefaultOutOfBounds.self])
        }
        #expect(
            error?.description
                == "key test.bounds.default_out: the default value does not round-trip: it encodes to \"200\", which "
                + "the key refuses (expected an integer from 5 to 100, got \"200\")")
    }

    @Test("bounds compare numbers exactly: 64-bit integers, exponents, NaN and infinity")
    func exactComparison() {
        let whole = ConfigurationNumberRange(minimum: "1", maximum: String(UInt64(1) << 63), step: "1")
        #expect(whole.problem(with: String(UInt64(1) << 63)) == nil)
        #expect(whole.problem(with: String((UInt64(1) << 63) + 1)) != nil)
        #expect(whole.problem(with: "0") != nil)
        let share = ConfigurationNumberRange(minimum: "0.0", maximum: "1.0", step: "0.1")
        #expect(share.problem(with: "1e-300") == nil, "a tiny number is inside")
        #expect(share.problem(with: "1e+300") != nil, "a huge one is not")
        #expect(
            share.problem(with: "nan") != nil && share.problem(with: "inf") != nil && share.problem(with: "-inf") != nil
        )
        #expect(share.problem(with: "12abc") != nil, "a string that is not a number is not inside")
        let negative = ConfigurationNumberRange(minimum: "-50", maximum: "-10", step: "5")
        #expect(negative.problem(with: "-10") == nil && negative.problem(with: "-9") != nil)
        #expect(negative.problem(with: "-51") != nil && negative.problem(with: "-050") == nil)
    }

    // MARK: The seeded fuzz test

    /// Wire strings around and outside each key's bounds, and strings that are not numbers at all.
    static func candidate(_ generator: inout SeededGenerator) -> String? {
        let choices: [String?] = [
            nil, "", "4", "5", "6", "20", "99", "100", "101", "500", "-10", "-9", "-50", "-51", "-20", "0", "-0",
            "007", "+5", " 5", "5 ", "5.0", "1e2", "0.5", "1", "1.0", "0.0", "1.5", "-0.1", "2", "2.25", "0.25",
            "nan", "inf", "-inf", "1e-300", "1e300", "127", "128", "-128", "-129", String(Int64.max),
            String(UInt64.max), "9223372036854775808", "9223372036854775809", "4611686018427387904", "abc", "٣",
        ]
        if Int.random(in: 0..<8, using: &generator) == 0 {
            return String(Int.random(in: -200...200, using: &generator))
        }
        return choices.randomElement(using: &generator)!
    }

    @Test("seeded fuzz: typed read, string resolution, menu/CLI status and snapshot agree; observers fire exactly")
    func fuzz() throws {
        let keys: [any ConfigurationKey.Type] = [
            ConfigurationScopes.Bounds.LimitKey.self, ConfigurationScopes.Bounds.OffsetKey.self,
            ConfigurationScopes.Bounds.ShareKey.self, ConfigurationScopes.Bounds.GainKey.self,
            ConfigurationScopes.Bounds.HugeKey.self, ConfigurationScopes.Bounds.TinyKey.self,
        ]
        var generator = SeededGenerator(seed: 0x5EED_B0DD)
        for (label, service) in Self.services() {
            let fired = Mutex<Set<String>>([])
            let observation = service.observe { names in fired.withLock { $0.formUnion(names) } }
            var last: [String: String] = [:]
            for key in keys { last[key.name] = Self.typed(key, in: service) }
            for step in 0..<fuzzIterations(default: 400) {
                var server = service.serverValues
                var overrides: [String: String?] = [:]
                for key in keys where Bool.random(using: &generator) {
                    server[key.name] = Self.candidate(&generator)
                    if Int.random(in: 0..<3, using: &generator) == 0 {
                        overrides[key.name] = Self.candidate(&generator)
                    }
                }
                fired.withLock { $0.removeAll() }
                if Bool.random(using: &generator) {
                    service.updateServerValues(server)
                } else {
                    try service.updateOverrides(overrides, validate: false)
                }
                let notified = fired.withLock { $0 }
                for key in keys {
                    let readings = Self.agreement(key, in: service)
                    #expect(Set(readings.values).count == 1, "\(label) step \(step) \(key.name): \(readings)")
                    let now = Self.typed(key, in: service)
                    #expect(
                        notified.contains(key.name) == (now != last[key.name]),
                        "\(label) step \(step) \(key.name): \(last[key.name]!) -> \(now); notified \(notified.contains(key.name))"
                    )
                    last[key.name] = now
                }
            }
            observation.cancel()
        }
    }

    /// The typed value's wire form (what observers compare: a change of source alone is no change).
    private static func typed<K: ConfigurationKey>(_ key: K.Type, in service: any ConfigurationService) -> String {
        (try? K.encode(service[K.self])).flatMap { $0 } ?? "nil"
    }

    private static func agreement<K: ConfigurationKey>(_ key: K.Type, in service: any ConfigurationService)
        -> [String: String]
    {
        readings(K.self, in: service)
    }
}
