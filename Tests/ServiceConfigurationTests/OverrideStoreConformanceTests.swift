import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import SharedTestSupport
import Testing
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

@Suite("OverrideStoreConformance: every store of this package passes; each check fails a store that breaks it")
struct OverrideStoreConformanceTests {
    typealias Check = OverrideStoreConformance.Check

    @Test("InMemoryOverrideStore passes; checks needing shared storage or raw entries are skipped, saying why")
    func inMemory() async {
        let report = await OverrideStoreConformance.run(
            OverrideStoreConformance.Backend(name: "InMemoryOverrideStore", makeStore: { InMemoryOverrideStore() }))
        #expect(report.failures.isEmpty)
        #expect(Set(report.skipped.map(\.check)) == [.conflicts, .quarantine, .watchElsewhere, .totalSize])
        #expect(report.passed.count == Check.allCases.count - 4)
    }

    @Test("FileOverrideStore passes every check")
    func file() async {
        let folder = TemporaryFolder()
        let backend = OverrideStoreConformance.Backend(
            name: "FileOverrideStore",
            makeStore: {
                FileOverrideStore(
                    url: folder.url.appendingPathComponent(UUID().uuidString).appendingPathComponent("overrides.json"))
            },
            makeSecondInstance: { store in FileOverrideStore(url: (store as! FileOverrideStore).url) },
            writeRawEntry: { store, key, json in
                try Self.writeRaw(json, forKey: key, into: (store as! FileOverrideStore).url)
            },
            limitsTotalSize: true)
        let report = await OverrideStoreConformance.run(backend)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.isEmpty, "the file store keeps history and has every capability")
        #expect(report.passed == Check.allCases)
    }

    @Test(
        "EtcdOverrideStore passes every check, against a real etcd",
        .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
    func etcd() async throws {
        let etcd = try EtcdFixture.shared()
        let backend = OverrideStoreConformance.Backend(
            name: "EtcdOverrideStore",
            makeStore: { try EtcdFixture.store(etcd, prefix: EtcdFixture.prefix("conformance")) },
            makeSecondInstance: { store in
                try EtcdFixture.store(etcd, prefix: (store as! EtcdOverrideStore).url.path)
            },
            writeRawEntry: { store, key, json in
                try EtcdFixture.put(Array(json.utf8), at: "\((store as! EtcdOverrideStore).url.path)/\(key)", in: etcd)
            })
        let report = await OverrideStoreConformance.run(backend)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.check) == [.totalSize] + (EtcdFixture.keepsHistory ? [] : [.history]))
        #expect(report.passed.count + report.skipped.count == Check.allCases.count)
    }

    @Test("a correct faulty store passes, so what fails below is each fault")
    func faultless() async {
        let report = await OverrideStoreConformance.run(FaultyOverrideStore.backend(.none))
        #expect(report.failures.isEmpty)
        #expect(report.skipped.isEmpty)
    }

    @Test(
        "each check reports, by name, the store that breaks its guarantee",
        arguments: [
            (FaultyOverrideStore.Fault.reordersNotifications, Check.ordering),
            (.savesThrowingChange, .atomicModify),
            (.keyedModifyChangesOtherKeys, .keyedModify),
            (.losesConcurrentUpdates, .concurrentModify),
            (.overwritesBlindly, .conflicts),
            (.dropsPreservedFields, .unknownFields),
            (.losesQuarantinedEntries, .quarantine),
            (.announcesEveryKey, .watchHere),
            (.deaf, .watchElsewhere),
            (.ignoresLimits, .limits),
            (.ignoresTotalSize, .totalSize),
            (.removeValueDoesNothing, .removeValue),
            (.removeAllKeepsQuarantined, .removeAll),
            (.historyNewestFirst, .history),
        ])
    func catches(fault: FaultyOverrideStore.Fault, check: Check) async {
        let report = await OverrideStoreConformance.run(
            FaultyOverrideStore.backend(fault), checks: [check], recordsFailures: false)
        #expect(report.failedChecks == [check], "\(report)")
        #expect(report.description.contains("failed \(check.rawValue): "))
    }

    @Test("a check whose capability is missing is skipped with the reason, never passed")
    func skipsVisibly() async {
        let report = await OverrideStoreConformance.run(
            OverrideStoreConformance.Backend(name: "bare", makeStore: { FaultyOverrideStore(fault: .none) }),
            checks: [.conflicts, .quarantine], recordsFailures: false)
        #expect(report.passed.isEmpty && report.failures.isEmpty)
        #expect(report.skipped.map(\.check) == [.conflicts, .quarantine])
        #expect(report.description.contains("skipped conflicts: the backend gives no second instance"))
    }

    /// Puts `json` as the entry of `key` into the store file at `url`, as a hand edit would.
    static func writeRaw(_ json: String, forKey key: String, into url: URL) throws {
        let data = FileManager.default.contents(atPath: url.path)
        var document =
            try data.flatMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            ?? ["format": "service-configuration-overrides", "version": 1]
        var overrides = document["overrides"] as? [String: Any] ?? [:]
        overrides[key] = try JSONSerialization.jsonObject(with: Data(json.utf8))
        document["overrides"] = overrides
        try writeStore(
            String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self), at: url)
    }
}

extension EtcdFixture {
    /// Whether the etcd store keeps a history (it does: the records beside its prefix, so the check runs).
    static let keepsHistory = true
}

/// The suite under XCTest: failures would be `XCTFail`s of the running test case.
final class OverrideStoreConformanceXCTests: XCTestCase {
    func testInMemoryStorePasses() async {
        let report = await OverrideStoreConformance.run(
            OverrideStoreConformance.Backend(name: "InMemoryOverrideStore", makeStore: { InMemoryOverrideStore() }))
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.passed.count, OverrideStoreConformance.Check.allCases.count - 4)
    }
}
