import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@Suite(
    "etcd override store: the file store's promises on a prefix of a real etcd",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdOverrideStoreTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("an override is one key holding the entry's JSON exactly as a line of the file store holds it")
    func layout() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("layout")
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let setAt = Date(timeIntervalSince1970: 1_796_047_500.123)
        let entry = OverrideEntry(
            value: "Y", setAt: setAt, serverValueWhenSet: "N", note: "QA 12",
            preservedFields: ["reviewedBy": "\"QA team\""])
        try store.modify { $0[Fixture.FlagKey.name] = entry }

        let stored = try EtcdFixture.keys(under: prefix, in: etcd)
        #expect(Array(stored.keys) == ["\(prefix)/\(Fixture.FlagKey.name)"])
        // The file store's line for the same entry, without the key and indentation.
        let folder = TemporaryFolder()
        let file = FileOverrideStore(url: folder.storeURL())
        try file.modify { $0[Fixture.FlagKey.name] = entry }
        let text = try String(contentsOf: folder.storeURL(), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains(Fixture.FlagKey.name) })
        let fileEntry = line.drop { $0 != "{" }
        #expect(String(decoding: stored.values.first!, as: UTF8.self) == String(fileEntry))

        // Read back by another store: every field, the unknown one included.
        let reader = try EtcdFixture.store(etcd, prefix: prefix)
        #expect(reader.reload() == nil)
        #expect(reader.entry(forKey: Fixture.FlagKey.name) == store.entry(forKey: Fixture.FlagKey.name))
        #expect(reader.entry(forKey: Fixture.FlagKey.name)?.preservedFields["reviewedBy"] == "\"QA team\"")
        #expect(reader.location == "etcd://127.0.0.1:\(etcd.port)\(prefix)")
    }

    @Test("a service writes through the store; metadata and unknown fields survive a change of the note")
    func serviceRoundTrip() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("service")
        let key = "\(prefix)/\(Fixture.FlagKey.name)"
        try EtcdFixture.put(
            Array(#"{"future": [1, 2], "setAt": "2026-11-30T10:00:00.000Z", "value": "Y"}"#.utf8), at: key, in: etcd)
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "7"], catalog: try fixtureCatalog(), overrideStore: store,
            watchMode: nil, overridePolicy: .allBuilds)
        #expect(service.flag)
        try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: "kept")
        try service.setOverride(rawValue: "9", forKeyNamed: Fixture.CountKey.name, note: nil)
        let stored = try EtcdFixture.keys(under: prefix, in: etcd)
        let flag = String(decoding: try #require(stored[key]), as: UTF8.self)
        #expect(flag == #"{"future": [1, 2], "note": "kept", "setAt": "2026-11-30T10:00:00.000Z", "value": "Y"}"#)
        let count = try #require(store.entry(forKey: Fixture.CountKey.name))
        #expect(count.value == "9" && count.serverValueWhenSet == "7" && count.setAt != nil)
        #expect(service.count == 9)

        try service.removeOverride(forKeyNamed: Fixture.CountKey.name)
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == [key])
        #expect(service.count == 7)
        try service.removeAllOverrides()
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).isEmpty)
        #expect(!service.flag && store.entries.isEmpty)
    }

    @Test("changes made elsewhere reach a watching service through etcd's watch")
    func live() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("live")
        let writer = try EtcdFixture.store(etcd, prefix: prefix)
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        let seen = Locked<Set<String>>([])
        let observation = service.observe { names in seen.withLock { $0.formUnion(names) } }
        defer { observation.cancel() }

        try writer.modify { $0[Fixture.FlagKey.name] = OverrideEntry(value: "Y") }
        #expect(await pollUntil(within: 10) { service.flag })
        // Observers are told after the value is in place: on a loaded machine a moment later.
        #expect(await pollUntil(within: 10) { seen.withLock { $0 } == [Fixture.FlagKey.name] })
        #expect(seen.withLock { $0 } == [Fixture.FlagKey.name])
        try EtcdFixture.put(Array(#"{"value": "42"}"#.utf8), at: "\(prefix)/\(Fixture.CountKey.name)", in: etcd)
        #expect(await pollUntil(within: 10) { service.count == 42 })
        try writer.removeValue(forKey: Fixture.FlagKey.name)
        #expect(await pollUntil(within: 10) { !service.flag })
        #expect(store.liveReloadProblem == nil)
    }

    @Test("a writer with an old view retries on conflict and starts from what the other wrote")
    func conflict() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("conflict")
        let first = try EtcdFixture.store(etcd, prefix: prefix)
        let second = try EtcdFixture.store(etcd, prefix: prefix)
        try first.modify { $0["shared"] = OverrideEntry(value: "0", note: "") }
        #expect(second.reload() == nil)
        // The first writer changes the entry; the second, which does not watch, still has the old one.
        try first.modify { $0["shared"]?.note = "first" }
        var runs = 0
        try second.modify { entries in
            runs += 1
            entries["shared"]?.value = "1"
        }
        #expect(runs == 2, "the transaction failed its comparison once, and the change ran again")
        let reader = try EtcdFixture.store(etcd, prefix: prefix)
        reader.reload()
        #expect(reader.entry(forKey: "shared")?.value == "1")
        #expect(reader.entry(forKey: "shared")?.note == "first")
    }

    @Test("threads sharing one store each change from what the last committed: no increment is lost")
    func concurrentIncrements() throws {
        let etcd = try EtcdFixture.shared()
        let store = try EtcdFixture.store(etcd, prefix: EtcdFixture.prefix("increments"))
        let threads = 3
        let increments = 5
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                for _ in 0..<increments {
                    try? store.modify { entries in
                        let count = Int(entries["counter"]?.value ?? "0") ?? 0
                        // A body that takes a moment: another thread's change lands meanwhile, and this one must
                        // then be compared with what it started from (the conformance suite found it was not).
                        usleep(3000)
                        entries["counter"] = OverrideEntry(value: "\(count + 1)")
                    }
                }
            }.start()
        }
        group.wait()
        let reader = try EtcdFixture.store(etcd, prefix: store.url.path)
        reader.reload()
        #expect(reader.entry(forKey: "counter")?.value == "\(threads * increments)")
    }
}

@Suite(
    "etcd override store: hostile entries are kept, reported and not applied",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdOverrideToleranceTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test(
        "binary bytes, 1 MB, text that is not JSON, a JSON that is no entry, a key that is not UTF-8 (put with etcdctl)"
    )
    func hostileEntries() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("hostile")
        let hostile: [(String, [UInt8])] = [
            ("binary", [0x00, 0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0x80]),
            ("huge", [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000)),
            ("text", Array("Y".utf8)),
            ("number", Array("42".utf8)),
            ("novalue", Array(#"{"note": "no value"}"#.utf8)),
            ("bigvalue", Array((#"{"value": ""# + String(repeating: "v", count: (1 << 20) + 1) + #""}"#).utf8)),
            ("trailing", Array(#"{"value": "Y"} {"value": "N"}"#.utf8)),
            ("empty", []),
        ]
        for (name, bytes) in hostile { try EtcdFixture.put(bytes, at: "\(prefix)/\(name)", in: etcd) }
        // A key that is not UTF-8 cannot be typed to etcdctl: through the gateway, base64.
        let invalidName: [UInt8] = Array("\(prefix)/bad-".utf8) + [0xC3, 0x28]
        let put = try etcd.gateway(
            "/v3/kv/put", body: #"{"key": "\#(Data(invalidName).base64EncodedString())", "value": "eA=="}"#)
        #expect(put.contains("revision"))
        try EtcdFixture.put(Array(#"{"value": "Y"}"#.utf8), at: "\(prefix)/\(Fixture.FlagKey.name)", in: etcd)
        try EtcdFixture.put(
            Array(#"{"setAt": "2026-13-01", "value": "7"}"#.utf8), at: "\(prefix)/\(Fixture.CountKey.name)", in: etcd)

        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
        #expect(store.lastError == nil)
        #expect(service.flag && service.count == 7, "the valid entries apply")
        #expect(Set(store.entries.keys) == [Fixture.FlagKey.name, Fixture.CountKey.name])
        let quarantined = store.problems.filter { !$0.isApplied }
        #expect(Set(quarantined.map(\.key)).isSuperset(of: hostile.map(\.0)))
        #expect(quarantined.count == hostile.count + 1, "the key that is not UTF-8 too")
        let reasons = Dictionary(quarantined.map { ($0.key, $0.reason) }, uniquingKeysWith: { $1 })
        #expect(reasons["text"]?.hasPrefix("not valid JSON") == true)
        #expect(reasons["number"] == #"an override must be an object like {"value": "Y"}, found a number"#)
        #expect(reasons["novalue"] == #"the entry has no "value""#)
        #expect(reasons["bigvalue"]?.contains("the limit is 1 MiB") == true)
        #expect(reasons["empty"] == "the entry is empty")
        #expect(reasons["huge"]?.hasPrefix("not valid JSON") == true)
        #expect(quarantined.first { $0.key == "huge" }!.storedJSON.hasSuffix("(1000000 bytes (976.5 KiB) in all)"))
        #expect(quarantined.contains { $0.reason == "the key name is not valid UTF-8" })
        let unreadable = store.problems.filter(\.isApplied)
        #expect(unreadable.map(\.key) == [Fixture.CountKey.name] && unreadable.first?.field == "setAt")

        // Another change leaves them exactly as they were; a reset of one removes it; removeAll removes the rest.
        try service.setOverride(rawValue: "N", forKeyNamed: Fixture.FlagKey.name, note: nil)
        let after = try EtcdFixture.keys(under: prefix, in: etcd)
        for (name, bytes) in hostile { #expect(after["\(prefix)/\(name)"] == bytes, "\(name) is kept as found") }
        try service.removeOverride(forKeyNamed: "binary")
        #expect(try EtcdFixture.keys(under: prefix, in: etcd)["\(prefix)/binary"] == nil)
        #expect(!store.problems.contains { $0.key == "binary" })
        try service.removeAllOverrides()
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).isEmpty)
        #expect(store.problems.isEmpty && store.entries.isEmpty)
    }

    @Test("an entry for a key the catalog does not know is kept and reported as an orphan")
    func orphans() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("orphan")
        try EtcdFixture.put(Array(#"{"value": "Y", "note": "old key"}"#.utf8), at: "\(prefix)/gone.key", in: etcd)
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
        try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: nil)
        let catalog = try fixtureCatalog()
        let orphans = ConfigurationLayersReading(service: service).orphans { catalog.descriptor(named: $0) != nil }
        #expect(orphans.map(\.name) == ["gone.key"])
        #expect(try EtcdFixture.keys(under: prefix, in: etcd)["\(prefix)/gone.key"] != nil)
    }
}
