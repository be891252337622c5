import DemoConfiguration
import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

@testable import ConfigurationDebugMenu

@Suite("Every key's status, kept compactly")
struct KeyStatusesTests {
    /// A status of `descriptor` chosen at random: its default, or one with a server value, an override (applied,
    /// rejected or expired), a launch value or a store problem.
    static func randomStatus(
        of descriptor: ConfigurationKeyDescriptor, using generator: inout SeededGenerator
    ) -> ConfigurationKeyStatus {
        let values = [descriptor.defaultValueString ?? "x", "Y", "N", "7", "not valid \u{1}", ""]
        func value() -> String { values.randomElement(using: &generator)! }
        switch Int.random(in: 0..<8, using: &generator) {
        case 0, 1, 2: return ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil)
        case 3: return ConfigurationKeyStatus(descriptor, serverValue: value(), override: nil)
        case 4:
            return ConfigurationKeyStatus(
                descriptor, serverValue: Bool.random(using: &generator) ? value() : nil,
                override: OverrideEntry(value: value(), setAt: nil, note: "note \(value())"))
        case 5:
            return ConfigurationKeyStatus(
                descriptor, serverValue: nil, override: OverrideEntry(value: value(), setAt: nil),
                expiration: .time(Date(timeIntervalSince1970: 1_000)))
        case 6: return ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil, launchValue: value())
        default:
            return ConfigurationKeyStatus(
                descriptor, serverValue: nil, override: nil,
                storeProblems: [OverrideStoreProblem(key: descriptor.name, field: nil, reason: "bad", storedJSON: "1")])
        }
    }

    @Test("seeded fuzz: reads, writes and comparisons agree with an array of the statuses")
    func agreesWithAnArray() throws {
        var generator = SeededGenerator(seed: 0x4B45_5953)
        let catalogs = [
            try DemoConfiguration.synthetic(keys: 400, scopes: 7).catalog, try DemoConfiguration.makeCatalog(),
        ]
        var defaultsSeen = 0
        var othersSeen = 0
        for catalog in catalogs {
            let table = KeyTable(catalog: catalog)
            var array = table.keys.map { Self.randomStatus(of: $0.descriptor, using: &generator) }
            var statuses = KeyStatuses(table: table, statuses: array)
            func check(_ context: String) {
                #expect(statuses.count == array.count, "\(context)")
                #expect(Array(statuses) == array, "\(context)")
                for index in array.indices {
                    #expect(statuses.value(at: index) == array[index].value, "\(context), key \(index)")
                    #expect(statuses.serverValue(at: index) == array[index].serverValue, "\(context), key \(index)")
                    #expect(statuses.override(at: index) == array[index].override, "\(context), key \(index)")
                    let isDefault = array[index] == ConfigurationKeyStatus(defaultOf: table.keys[index].descriptor)
                    #expect(statuses.isDefault(at: index) == isDefault, "\(context), key \(index)")
                    if isDefault { defaultsSeen += 1 } else { othersSeen += 1 }
                }
                var visited: [Int] = []
                statuses.forEachNotDefault { index, status in
                    visited.append(index)
                    #expect(status == array[index], "\(context), key \(index)")
                }
                #expect(visited == array.indices.filter { !statuses.isDefault(at: $0) }, "\(context)")
                // Equal to the same statuses kept afresh, whatever slots the changes left behind.
                #expect(statuses == KeyStatuses(table: table, statuses: array), "\(context)")
            }
            check("as built")
            for round in 0..<600 {
                let index = Int.random(in: array.indices, using: &generator)
                let status = Self.randomStatus(of: table.keys[index].descriptor, using: &generator)
                array[index] = status
                statuses.set(status, at: index)
                if round % 97 == 0 { check("after \(round + 1) changes") }
            }
            check("after every change")
            // One status that differs makes them unequal, whether it is kept or a default.
            let changed = try #require(array.indices.first { !statuses.isDefault(at: $0) })
            var other = statuses
            other.set(ConfigurationKeyStatus(defaultOf: table.keys[changed].descriptor), at: changed)
            #expect(other != statuses)
            #expect(other[changed] == ConfigurationKeyStatus(defaultOf: table.keys[changed].descriptor))
            let plain = try #require(array.indices.first { statuses.isDefault(at: $0) })
            other = statuses
            other.set(
                ConfigurationKeyStatus(table.keys[plain].descriptor, serverValue: "server", override: nil), at: plain)
            #expect(other != statuses)
            #expect(other[plain].serverValue == "server")
        }
        #expect(defaultsSeen > 0 && othersSeen > 0)
    }

    @Test("a key's default status is the one its layers make when there are none, for keys of every kind")
    func defaultStatus() throws {
        let catalogs = [
            try DemoConfiguration.synthetic(keys: 200, scopes: 3).catalog, try DemoConfiguration.makeCatalog(),
        ]
        for catalog in catalogs {
            for scope in catalog.scopes {
                for descriptor in scope.keys {
                    let resolved = ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil)
                    #expect(ConfigurationKeyStatus(defaultOf: descriptor) == resolved, "\(descriptor.name)")
                    #expect(resolved.isDefault(of: descriptor), "\(descriptor.name)")
                    let served = ConfigurationKeyStatus(descriptor, serverValue: "Y", override: nil)
                    #expect(!served.isDefault(of: descriptor), "\(descriptor.name)")
                    let launched = ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil, launchValue: "")
                    #expect(!launched.isDefault(of: descriptor), "\(descriptor.name)")
                }
            }
            // Another key's default is not this key's.
            let first = catalog.scopes[0].keys[0]
            let second = catalog.scopes[0].keys[1]
            #expect(!ConfigurationKeyStatus(defaultOf: first).isDefault(of: second))
        }
    }
}
