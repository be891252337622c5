import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Keys used across the suites: one per codec and control, plus keys with custom behaviour.
extension ConfigurationScopes {
    struct Fixture: ConfigurationScope {
        let flag: FlagKey
        enum FlagKey: ConfigurationKey {
            static let name = "test.feature.flag.enabled"
            static let defaultValue = false
        }

        let count: CountKey
        enum CountKey: ConfigurationKey {
            static let name = "test.feature.retry_count"
            static let defaultValue = 3
        }

        let ratio: RatioKey
        enum RatioKey: ConfigurationKey {
            static let name = "test.feature.ratio"
            static let defaultValue = 0.5
        }

        let greeting: GreetingKey
        enum GreetingKey: ConfigurationKey {
            static let name = "test.feature.greeting"
            static let defaultValue = "hello"
        }

        let mode: ModeKey
        enum ModeKey: ConfigurationKey {
            static let name = "test.feature.mode"
            static let defaultValue = FixtureMode.automatic
        }

        let level: LevelKey
        enum LevelKey: ConfigurationKey {
            static let name = "test.feature.level"
            static let defaultValue = FixtureLevel.low
        }

        let policy: PolicyKey
        enum PolicyKey: ConfigurationKey {
            static let name = "test.feature.policy"
            static let defaultValue = FixturePolicy(limit: 10, tags: ["a"])
        }

        let experiment: ExperimentKey
        enum ExperimentKey: ConfigurationKey {
            static let name = "ab.test.experiment"
            static let defaultValue = ConfigurationABTest.none
        }

        let size: SizeKey
        enum SizeKey: ConfigurationKey {
            static let name = "test.feature.size"
            static let defaultValue = FixtureSize(width: 4, height: 3)
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Fixture, K>) -> K {
        self[K.self]
    }
}

enum FixtureMode: String, CaseIterable, ConfigurationValueStringRepresentable {
    case automatic, manual, off
}

enum FixtureLevel: Int, CaseIterable, ConfigurationValueStringRepresentable {
    case low = 1
    case high = 2
}

struct FixturePolicy: Codable, Hashable, ConfigurationValueJSONRepresentable {
    var limit: Int
    var tags: [String]
}

struct FixtureSize: Hashable, ConfigurationValueStringRepresentable {
    var width: Int
    var height: Int
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    init?(configurationValueString string: String) {
        let parts = string.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }
    var configurationValueString: String { "\(width)x\(height)" }
    static var configurationValueFormat: String { "WIDTHxHEIGHT such as 4x3" }
}

/// Collects notification batches from `observe` for assertions.
final class NotificationLog: Sendable {
    private let batches = Locked<[Set<String>]>([])
    var all: [Set<String>] { batches.withLock { $0 } }
    func append(_ names: Set<String>) { batches.withLock { $0.append(names) } }
}

func fixtureCatalog() throws -> ConfigurationCatalog {
    try ConfigurationCatalog(scopes: [ConfigurationScopes.Fixture.self])
}

/// The descriptor of a fixture key.
func fixtureDescriptor<K: ConfigurationKey>(_ key: K.Type) -> ConfigurationKeyDescriptor {
    ConfigurationKeyDescriptor(K.self, scopeName: "Fixture")
}
