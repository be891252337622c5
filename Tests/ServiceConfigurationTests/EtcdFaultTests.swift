import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(
    "etcd faults: etcd killed and restarted, writers racing and killed, compaction under a watch",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdFaultTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("etcd killed mid-session: stale, values and overrides stay, writes fail; restarted: both recover, live")
    func killedAndRestarted() async throws {
        let etcd = try EtcdTestServer.start()
        try EtcdFixture.put(Array("5".utf8), at: "/fault/values/\(SyncFixture.count)", in: etcd)
        let store = try EtcdFixture.store(etcd, prefix: "/fault/overrides")
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        let folder = TemporaryFolder()
        let quick = ServerSyncBackoff(initial: .milliseconds(200), maximum: .milliseconds(500))
        // A generous timeout: a killed etcd refuses connections at once, so it only matters when a loaded machine
        // (CI under ThreadSanitizer, 2 cores) answers slowly; a 2-s timeout once failed every read there for a minute.
        let sync = ServerValuesSync(
            source: try EtcdServerValuesSource(url: etcd.url(prefix: "/fault/values"), timeout: .seconds(10)),
            service: service, snapshotURL: SyncFixture.snapshotURL(in: folder), backoff: quick, environment: .live)
        sync.start()
        #expect(
            await pollUntil { sync.status.state.name == "fresh" && service.count == 5 },
            "state \(sync.status.state.name) (\(sync.status.state.reason ?? "no reason")), count \(service.count)")
        try service.setOverride(rawValue: "Y", forKeyNamed: Fixture.FlagKey.name, note: "before the outage")

        etcd.kill()
        #expect(await pollUntil { sync.status.state.name == "stale" }, "the watch broke: stale")
        #expect(sync.status.state.reason != nil)
        #expect(await pollUntil { store.liveReloadProblem != nil })
        #expect(store.liveReloadProblem?.contains("the overrides last read keep applying") == true)
        #expect(service.flag && service.count == 5, "the last values and overrides keep applying")
        #expect(throws: OverrideStoreError.self) {
            try service.setOverride(rawValue: "9", forKeyNamed: Fixture.CountKey.name, note: nil)
        }
        #expect(service.count == 5, "a write that failed changes nothing")

        try etcd.restart()
        #expect(await pollUntil { sync.status.state.name == "fresh" }, "the sync recovers without a restart")
        #expect(await pollUntil { store.liveReloadProblem == nil }, "so does the store's watch")
        let writer = try EtcdFixture.store(etcd, prefix: "/fault/overrides")
        try writer.modify { $0[Fixture.GreetingKey.name] = OverrideEntry(value: "after") }
        #expect(await pollUntil { service.greeting == "after" }, "live again")
        try EtcdFixture.put(Array("7".utf8), at: "/fault/values/\(SyncFixture.count)", in: etcd)
        #expect(await pollUntil { service.count == 7 })
        #expect(Set(store.entries.keys) == [Fixture.FlagKey.name, Fixture.GreetingKey.name], "no override lost")
        #expect(store.entry(forKey: Fixture.FlagKey.name)?.note == "before the outage")
        sync.stop()
        store.stopWatching()
    }

    @Test(
        "etcd comes back empty (killed, data wiped, restarted on the same ports): a running store catches up",
        .timeLimit(.minutes(3)))
    func newClusterAtTheSameAddress() async throws {
        let etcd = try EtcdTestServer.start()
        let prefix = "/wiped/overrides"
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, overridePolicy: .allBuilds)
        let writer = try EtcdFixture.store(etcd, prefix: prefix)
        // Revisions well past those the new cluster will have: its events and reads are all "older".
        for round in 0..<30 { try writer.modify { $0["padding"] = OverrideEntry(value: "\(round)") } }
        try writer.modify {
            $0[Fixture.FlagKey.name] = OverrideEntry(value: "Y", note: "set before etcd was wiped")
            $0["padding"] = nil
        }
        #expect(await pollUntil { service.flag }, "the running store follows the old cluster")

        etcd.kill()
        try etcd.wipeData()
        try etcd.restart()
        let newWriter = try EtcdFixture.store(etcd, prefix: prefix)
        try newWriter.modify { $0[Fixture.CountKey.name] = OverrideEntry(value: "9") }

        #expect(await pollUntil { service.count == 9 }, "an override made on the new cluster arrives")
        #expect(await pollUntil { !service.flag }, "an override the new cluster does not hold stops applying")
        #expect(Set(store.entries.keys) == [Fixture.CountKey.name])
        try newWriter.modify { $0[Fixture.GreetingKey.name] = OverrideEntry(value: "later") }
        #expect(await pollUntil { service.greeting == "later" }, "later events arrive too")
        // The running store's own change goes in (its revisions of the old cluster compare with nothing now).
        try service.setOverride(rawValue: "N", forKeyNamed: Fixture.FlagKey.name, note: "after")
        let keys = try EtcdFixture.keys(under: prefix, in: etcd)
        #expect(
            Set(keys.keys) == [
                "\(prefix)/\(Fixture.FlagKey.name)", "\(prefix)/\(Fixture.CountKey.name)",
                "\(prefix)/\(Fixture.GreetingKey.name)",
            ])
        #expect(await pollUntil { store.liveReloadProblem == nil })
        store.stopWatching()
    }

    @Test(
        "etcd comes back empty and passes its old revision before the store reconnects: the store reads again",
        .timeLimit(.minutes(3)))
    func newClusterAheadOfTheOld() async throws {
        let etcd = try EtcdTestServer.start()
        let prefix = "/wiped/ahead"
        // A watch that, once broken, waits 8 s before it connects again: time for the new cluster to get ahead.
        let store = EtcdOverrideStore(
            endpoint: try EtcdEndpoint(url: etcd.url(prefix: prefix), environment: [:]),
            backoff: ServerSyncBackoff(initial: .seconds(8), maximum: .seconds(8)))
        store.startWatching()
        let writer = try EtcdFixture.store(etcd, prefix: prefix)
        try writer.modify { $0[Fixture.FlagKey.name] = OverrideEntry(value: "Y") }
        #expect(await pollUntil { store.entry(forKey: Fixture.FlagKey.name) != nil })
        let before = try writer.client.range().revision

        etcd.kill()
        try etcd.wipeData()
        try etcd.restart()
        let newWriter = try EtcdFixture.store(etcd, prefix: prefix)
        for round in 0...before + 5 { try newWriter.modify { $0["padding"] = OverrideEntry(value: "\(round)") } }
        try newWriter.modify { $0["padding"] = nil }

        #expect(await pollUntil { store.entry(forKey: Fixture.FlagKey.name) == nil }, "the old override stops applying")
        #expect(store.entries.isEmpty, "\(store.entries.keys.sorted())")
        try newWriter.modify { $0[Fixture.CountKey.name] = OverrideEntry(value: "3") }
        #expect(await pollUntil { store.entry(forKey: Fixture.CountKey.name)?.value == "3" }, "and it follows on")
        store.stopWatching()
    }

    @Test("4 processes × 50 changes of one prefix at once, all conflicting on one key: nothing lost")
    func racingWriters() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("race")
        let writers = try (0..<4).map {
            try HelperProcess(["etcd-hammer", etcd.url(prefix: prefix).absoluteString, "w\($0)", "50"])
        }
        for writer in writers { #expect(writer.wait() == 0, "\(writer.errors)") }
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        #expect(store.reload() == nil && store.problems.isEmpty)
        var expected: Set<String> = []
        for writer in 0..<4 {
            for index in 0..<50 {
                #expect(store.entry(forKey: "w\(writer).\(index)")?.value == String(index))
                expected.insert("w\(writer).\(index)")
            }
        }
        let tokens = (store.entry(forKey: "shared")?.note ?? "").split(separator: " ").map(String.init)
        #expect(tokens.count == 200 && Set(tokens) == expected, "every change of the shared key survived")
    }

    @Test("writers killed with SIGKILL mid-change: no broken entry, every change they reported is there")
    func killedWriters() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("killed")
        let writers = try (0..<4).map {
            try HelperProcess(["etcd-hammer", etcd.url(prefix: prefix).absoluteString, "k\($0)", "100000"])
        }
        // Four writers racing on one key: each round one of them wins, so progress is certain but not evenly shared
        // on a loaded machine; what matters is that every writer is mid-change when it is killed.
        #expect(
            await pollUntil(within: 60) {
                writers.allSatisfy { !$0.reported.isEmpty } && writers.reduce(0) { $0 + $1.reported.count } >= 20
            })
        for writer in writers { writer.kill() }
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        #expect(store.reload() == nil)
        #expect(store.problems.isEmpty, "0 broken entries")
        let tokens = Set((store.entry(forKey: "shared")?.note ?? "").split(separator: " ").map(String.init))
        for (number, writer) in writers.enumerated() {
            for index in writer.reported {
                #expect(store.entry(forKey: "k\(number).\(index)")?.value == String(index))
                #expect(tokens.contains("k\(number).\(index)"))
            }
        }
    }

    @Test("changes, deletions and a compaction while the watch was down: the store reads the prefix again")
    func compactedWhileAway() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("compacted")
        let writer = try EtcdFixture.store(etcd, prefix: prefix)
        try writer.modify { entries in
            entries["kept"] = OverrideEntry(value: "1")
            entries["deleted"] = OverrideEntry(value: "1")
        }
        let store = try EtcdFixture.store(etcd, prefix: prefix)
        let seen = Locked<Set<String>>([])
        let observation = store.observe { change in seen.withLock { $0.formUnion(change.changedKeys) } }
        defer { observation.cancel() }
        store.reload()
        store.startWatching()
        try writer.modify { $0["kept"]?.value = "2" }
        #expect(await pollUntil { store.entry(forKey: "kept")?.value == "2" })
        store.stopWatching()

        try writer.modify { entries in
            entries["kept"]?.value = "3"
            entries["deleted"] = nil
            entries["added"] = OverrideEntry(value: "1")
        }
        try etcd.etcdctl(["compaction", try EtcdFixture.revision(etcd)])
        seen.withLock { $0.removeAll() }
        store.startWatching()
        #expect(await pollUntil { store.entry(forKey: "kept")?.value == "3" && store.entry(forKey: "deleted") == nil })
        #expect(store.entry(forKey: "added")?.value == "1")
        #expect(seen.withLock { $0 } == ["kept", "deleted", "added"], "observers heard of each change")
        #expect(store.liveReloadProblem == nil)
        try writer.modify { $0["after"] = OverrideEntry(value: "1") }
        #expect(await pollUntil { store.entry(forKey: "after") != nil }, "and it watches again")
        store.stopWatching()
    }
}

/// A `store-test-helper` process whose output goes to a file, to read while it runs.
final class HelperProcess {
    private let child: ChildProcess
    private let output: URL
    private let errorOutput: URL

    init(_ arguments: [String]) throws {
        let folder = FileManager.default.temporaryDirectory
        output = folder.appendingPathComponent("helper-\(UUID().uuidString).out")
        errorOutput = folder.appendingPathComponent("helper-\(UUID().uuidString).err")
        child = try ChildProcess(
            storeTestHelperPath(), arguments, standardOutput: .file(output.path), standardError: .file(errorOutput.path)
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errorOutput)
    }

    /// The indices the helper reported done ("ok i").
    var reported: [Int] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.hasPrefix("ok ") ? Int($0.dropFirst(3)) : nil }
    }

    /// What it wrote to standard error.
    var errors: String { (try? String(contentsOf: errorOutput, encoding: .utf8)) ?? "" }

    /// Waits for the end; returns the exit status.
    func wait() -> Int32 { child.waitUntilExit() }

    /// SIGKILL, and waits for it.
    func kill() {
        child.signal(SIGKILL)
        _ = child.waitUntilExit()
    }
}
