import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A change of a few keys costs what those keys cost: `modify(keys:)` on the file store, and a service seen through
/// `KeyLimitedOverrideStore` (what `config-menu get`, `list SCOPE` and `set` build), against the whole-store paths.
@Suite("Keyed changes and key-limited services: the same results as the whole-store paths")
struct KeyedModifyTests {
    static let names = (0..<12).map { "function.keyed.k\($0).enabled" }

    static func entry(_ value: String, note: String? = nil, expiry: OverrideExpiry = .never) -> OverrideEntry {
        OverrideEntry(
            value: value, setAt: Date(timeIntervalSince1970: 1_800_000_000), serverValueWhenSet: "N", note: note,
            expiry: expiry)
    }

    static func descriptor(_ name: String) -> ConfigurationKeyDescriptor {
        ConfigurationKeyDescriptor(
            name: name, scopeName: "keyed", title: name, valueTypeName: "String", control: .text,
            defaultValueString: "N", validate: { $0 })
    }

    @Test("seeded fuzz: keyed changes on a file store leave what whole-store changes leave, in memory and on disk")
    func keyedMatchesWhole() throws {
        var random = SeededGenerator(seed: 0x6B65_7965_64)
        let folder = TemporaryFolder()
        for round in 0..<fuzzIterations(default: 40) {
            let keyed = FileOverrideStore(url: folder.url.appendingPathComponent("keyed-\(round)/overrides.json"))
            let whole = InMemoryOverrideStore()
            // The keyed store's entries are read (and so cached) before the changes, as a service does at start.
            _ = keyed.entries
            for _ in 0..<8 {
                let keys = Set(
                    (0..<Int.random(in: 1...4, using: &random)).map { _ in
                        Self.names.randomElement(using: &random)!
                    })
                let writes: [(String, OverrideEntry?)] = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    let name = Self.names.randomElement(using: &random)!
                    let value =
                        Bool.random(using: &random) ? nil : Self.entry(String(Int.random(in: 0..<3, using: &random)))
                    return (name, value)
                }
                let body: (inout [String: OverrideEntry]) -> Void = { entries in
                    for (name, entry) in writes { entries[name] = entry }
                }
                try keyed.modify(keys: keys, OverrideChangeReason(.set), body)
                // The whole-store reference applies the same writes, then keeps only those of the keys named.
                try whole.modify { entries in
                    var changed = entries
                    body(&changed)
                    for key in keys { entries[key] = changed[key] }
                }
                let expected = whole.entries
                #expect(keyed.entries == expected, "round \(round): in memory")
                let fresh = FileOverrideStore(url: keyed.url)
                #expect(fresh.reload() == nil)
                #expect(fresh.entries == expected, "round \(round): on disk")
            }
        }
    }

    @Test("a keyed change keeps a quarantined entry unless it sets that key, and refuses an entry past the limits")
    func quarantinedAndLimits() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("overrides.json")
        try writeStore(storeText(#""bad": {"value": 1}, "good": {"value": "Y"}"#), at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.problems.map(\.key) == ["bad"])
        try store.modify(keys: ["bad", "good"], OverrideChangeReason(.set)) { entries in
            #expect(entries.keys.sorted() == ["good"])
            entries["bad"] = nil
            entries["good"] = Self.entry("N")
        }
        #expect(store.problems.map(\.key) == ["bad"], "removing a key the body never saw removed its quarantined entry")
        try store.modify(keys: ["bad"], OverrideChangeReason(.set)) { $0["bad"] = Self.entry("fixed") }
        #expect(store.problems.isEmpty)
        #expect(store.entries.mapValues(\.value) == ["bad": "fixed", "good": "N"])
        let huge = String(repeating: "x", count: OverrideStoreLimits.maximumValueSize + 1)
        #expect(throws: OverrideStoreError.self) {
            try store.modify(keys: ["good"], OverrideChangeReason(.set)) { $0["good"] = Self.entry(huge) }
        }
        let fresh = FileOverrideStore(url: url)
        #expect(fresh.reload() == nil)
        #expect(fresh.entries.mapValues(\.value) == ["bad": "fixed", "good": "N"])
    }

    @Test("removing several overrides at once removes an entry kept without being applied, as removing one does")
    func removalsTakeQuarantinedEntries() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("overrides.json")
        for limited in [false, true] {
            try writeStore(
                storeText(#""bad": {"value": 1}, "good": {"value": "Y"}, "other": {"value": "Z"}"#), at: url)
            let file = FileOverrideStore(url: url)
            let store: any OverrideStore = limited ? KeyLimitedOverrideStore(file, keys: ["bad", "good"]) : file
            let service = LiveConfigurationService(
                overrideStore: store, watchMode: nil, overridePolicy: .allBuilds, programVersion: nil,
                clock: ManualClock())
            #expect(file.problems.map(\.key) == ["bad"])
            try service.updateOverrides(["bad": nil, "good": nil], validate: false)
            let fresh = FileOverrideStore(url: url)
            #expect(fresh.reload() == nil)
            #expect(fresh.problems.isEmpty, "limited: \(limited): the kept entry is still in the file")
            #expect(fresh.entries.mapValues(\.value) == ["other": "Z"], "limited: \(limited)")
        }
    }

    @Test("a service seen through a few keys reads and sets them as the whole service does, and touches no other key")
    func limitedService() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("overrides.json")
        let clock = ManualClock()
        let seed = FileOverrideStore(url: url)
        try seed.modify { entries in
            for (index, name) in Self.names.enumerated() {
                let expiry: OverrideExpiry =
                    switch index % 3 {
                    case 0: .never
                    case 1: OverrideExpiry(expiresAt: clock.now.addingTimeInterval(index.isMultiple(of: 2) ? -60 : 60))
                    default: OverrideExpiry(untilServerChanges: true)
                    }
                entries[name] = Self.entry("v\(index)", note: index == 4 ? "note" : nil, expiry: expiry)
            }
        }
        let before = try [UInt8](Data(contentsOf: url))
        let server = Dictionary(uniqueKeysWithValues: Self.names.enumerated().map { ($1, $0 == 2 ? "Y" : "N") })
        let catalog = try ConfigurationCatalog(scopes: [
            ConfigurationCatalog.Scope(name: "keyed", keys: Self.names.map(Self.descriptor))
        ])
        func service(_ store: any OverrideStore) -> LiveConfigurationService {
            LiveConfigurationService(
                serverValues: server, catalog: catalog, overrideStore: store, watchMode: nil,
                overridePolicy: .allBuilds,
                programVersion: nil, clock: clock)
        }
        let whole = service(FileOverrideStore(url: url))
        let seen = Set(Self.names[1...5])
        let limited = service(KeyLimitedOverrideStore(FileOverrideStore(url: url), keys: seen))
        let wholeReading = ConfigurationLayersReading(service: whole)
        let limitedReading = ConfigurationLayersReading(service: limited)
        for name in seen.sorted() {
            let descriptor = Self.descriptor(name)
            #expect(limitedReading.status(of: descriptor) == wholeReading.status(of: descriptor), "\(name)")
            #expect(limited.resolution(forKeyNamed: name) == whole.resolution(forKeyNamed: name), "\(name)")
        }
        #expect(limited.expiredOverrides == whole.expiredOverrides.filter { seen.contains($0.key) })
        #expect(!limited.expiredOverrides.isEmpty, "the fixture has an expired override among the keys seen")
        try limited.setOverride(rawValue: "changed", forKeyNamed: Self.names[3])
        #expect(limited.resolution(forKeyNamed: Self.names[3])?.value == "changed")
        whole.overrideStore.reload()
        #expect(
            whole.overrideStore.entries.mapValues(\.value)
                == seed.entries.mapValues(\.value).merging([Self.names[3]: "changed"]) { $1 })
        // Every other line of the file is as it was: only the key set was rewritten.
        let after = try String(decoding: Data(contentsOf: url), as: UTF8.self).split(separator: "\n")
        let previous = String(decoding: before, as: UTF8.self).split(separator: "\n")
        #expect(after.count == previous.count)
        #expect(zip(after, previous).filter { $0 != $1 }.count == 1)
        #expect(zip(after, previous).first { $0 != $1 }.map { $0.0.contains(Self.names[3]) } == true)
    }
}
