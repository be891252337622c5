import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@Suite(
    "etcd as a server-values source: a range, then a watch; the sync's status as for HTTP",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdServerValuesSourceTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("a fetch reads the prefix; the same values again are not modified; a change brings the new values")
    func fetch() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("values")
        try EtcdFixture.put(Array("Y".utf8), at: "\(prefix)/\(SyncFixture.flag)", in: etcd)
        try EtcdFixture.put(Array("5".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        try EtcdFixture.put(Array("outside".utf8), at: "\(prefix)-other/\(SyncFixture.count)", in: etcd)
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: prefix))
        #expect(source.location == "etcd://127.0.0.1:\(etcd.port)\(prefix)" && source.pushesChanges)
        guard case .values(let values, let validators) = try await source.fetch(ifChangedSince: .init()) else {
            Issue.record("a first fetch brings values")
            return
        }
        #expect(values == [SyncFixture.flag: "Y", SyncFixture.count: "5"])
        #expect(validators.etag?.contains(":") == true && validators.lastModified == nil)
        // An unrelated write moves etcd's revision, not the values.
        try EtcdFixture.put(Array("x".utf8), at: "/test/unrelated", in: etcd)
        guard case .notModified(let same) = try await source.fetch(ifChangedSince: validators) else {
            Issue.record("the same values are not modified")
            return
        }
        #expect(same.etag != validators.etag, "the revision moved")
        try EtcdFixture.put(Array("6".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        #expect(
            try await source.fetch(ifChangedSince: same).values == [SyncFixture.flag: "Y", SyncFixture.count: "6"])
    }

    @Test("a value that is not UTF-8, or a key that is the prefix itself, refuses the whole read with the key named")
    func refusedWhole() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("refused")
        try EtcdFixture.put(Array("Y".utf8), at: "\(prefix)/\(SyncFixture.flag)", in: etcd)
        try EtcdFixture.put([0x4E, 0xFF, 0x00], at: "\(prefix)/binary.key", in: etcd)
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: prefix))
        let binary = await #expect(throws: ServerSyncError.self) { try await source.fetch(ifChangedSince: .init()) }
        #expect(binary?.kind == .invalidResponse)
        #expect(binary?.reason == "the value of binary.key is not UTF-8 text (3 bytes); refused whole")
        try etcd.etcdctl(["del", "\(prefix)/binary.key"])
        try EtcdFixture.put(Array("bare".utf8), at: "\(prefix)/", in: etcd)
        let bare = await #expect(throws: ServerSyncError.self) { try await source.fetch(ifChangedSince: .init()) }
        #expect(bare?.reason.contains("is the prefix itself") == true)
    }

    @Test("a sync applies each change the watch reports, marks what changed, and goes stale on a refused value")
    func watchedSync() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("sync")
        try EtcdFixture.put(Array("Y".utf8), at: "\(prefix)/\(SyncFixture.flag)", in: etcd)
        try EtcdFixture.put(Array("5".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = ServerValuesSync(
            source: try EtcdServerValuesSource(url: etcd.url(prefix: prefix)), service: service,
            snapshotURL: SyncFixture.snapshotURL(in: folder), environment: .live)
        sync.start()
        // The first read can meet a slow answer and wait out a backoff step when the tests run under ThreadSanitizer
        // on a loaded machine, and the sync waits for a thread of the cooperative pool (two on a 2-CPU machine),
        // which the command-line tests most likely hold while they block in `waitpid` (inferred, not traced). Alone
        // this test takes 2 s (also beside three CPU-bound processes), beside those tests 46 s, and in CI's
        // rehearsals 88-349 s in whole; it once missed a 120-s wait here. Give it room (a hang would still fail).
        #expect(await pollUntil(within: 600) { sync.status.state.name == "fresh" && service.count == 5 })
        #expect(service.flag)

        try EtcdFixture.put(Array("6".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        #expect(await pollUntil { service.count == 6 }, "the watch brought the change without an interval")
        #expect(sync.status.previousValue(of: SyncFixture.count) == .some("5"))
        #expect(sync.status.previousValue(of: SyncFixture.flag) == nil)
        try etcd.etcdctl(["del", "\(prefix)/\(SyncFixture.flag)"])
        #expect(await pollUntil { !service.flag && sync.values[SyncFixture.flag] == nil })
        #expect(
            await pollUntil {
                (try? SyncFixture.snapshot(at: SyncFixture.snapshotURL(in: folder)))??.values == [
                    SyncFixture.count: "6"
                ]
            }, "the snapshot follows")

        // A hostile value refuses the read whole: the last good values stay, the status says why.
        try EtcdFixture.put([0xFF, 0xFE], at: "\(prefix)/\(SyncFixture.greeting)", in: etcd)
        #expect(await pollUntil { sync.status.state.name == "stale" })
        #expect(sync.status.state.reason?.contains("the value of \(SyncFixture.greeting) is not UTF-8") == true)
        #expect(service.count == 6)
        try etcd.etcdctl(["del", "\(prefix)/\(SyncFixture.greeting)"])
        #expect(await pollUntil { sync.status.state.name == "fresh" }, "the backoff's next read finds it gone")
        sync.stop()
    }

    @Test("a watch from a compacted revision returns at once; the next read brings what changed meanwhile")
    func compaction() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("compaction")
        try EtcdFixture.put(Array("1".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        try EtcdFixture.put(Array("Y".utf8), at: "\(prefix)/\(SyncFixture.flag)", in: etcd)
        let source = try EtcdServerValuesSource(url: etcd.url(prefix: prefix))
        guard case .values(_, let validators) = try await source.fetch(ifChangedSince: .init()) else {
            Issue.record("a first fetch brings values")
            return
        }
        // Changes while nobody watched, then a compaction past them: the events are gone.
        try EtcdFixture.put(Array("2".utf8), at: "\(prefix)/\(SyncFixture.count)", in: etcd)
        try etcd.etcdctl(["del", "\(prefix)/\(SyncFixture.flag)"])
        let revision = try #require(Int64(try EtcdFixture.revision(etcd)))
        try etcd.etcdctl(["compaction", String(revision)])
        #expect(try await completes(within: 10) { try await source.waitForChange(after: validators) })
        #expect(try await source.fetch(ifChangedSince: validators).values == [SyncFixture.count: "2"])
    }

    @Test("the scheme picks the source; an etcd URL without a prefix is refused")
    func scheme() throws {
        #expect(
            try ServerValuesSources.source(for: URL(string: "etcd://127.0.0.1:2379/a/b")!) is EtcdServerValuesSource)
        #expect(throws: ServerSyncError.self) { try ServerValuesSources.source(for: URL(string: "etcd://h:1")!) }
        #expect(try ServerValuesSources.source(for: URL(string: "http://h/v.json")!) is HTTPServerValuesSource)
    }
}

extension EtcdFixture {
    /// etcd's current revision.
    static func revision(_ etcd: EtcdTestServer) throws -> String {
        let answer = try etcd.gateway("/v3/kv/range", body: #"{"key": "AA==", "count_only": true}"#)
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
            let header = object["header"] as? [String: Any], let revision = header["revision"] as? String
        else { throw FixtureError("no revision in \(answer.prefix(200))") }
        return revision
    }
}
