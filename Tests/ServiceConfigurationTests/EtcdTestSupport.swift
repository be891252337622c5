import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import SharedTestSupport

/// Shortcuts for the etcd suites: the shared etcd, a prefix of one's own on it, and etcdctl's view of a prefix.
enum EtcdFixture {
    /// Whether the etcd suites can run (the binaries are installed).
    static let available = EtcdTestServer.unavailableReason == nil

    /// The etcd every suite shares (each test on its own prefix).
    static func shared() throws -> EtcdTestServer { try EtcdTestServer.shared.get() }

    /// A prefix no other test uses: `/test/LABEL-UUID`.
    static func prefix(_ label: String) -> String { "/test/\(label)-\(UUID().uuidString.prefix(8))" }

    /// Every key under `prefix` with its value, as etcdctl reads them (independently of the store).
    static func keys(under prefix: String, in etcd: EtcdTestServer) throws -> [String: [UInt8]] {
        let result = try etcd.etcdctl(["get", "--prefix", prefix + "/", "-w", "json"])
        guard result.status == 0 else { throw FixtureError("etcdctl get failed: \(result.error)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw FixtureError("etcdctl printed no JSON: \(result.output.prefix(200))")
        }
        var keys: [String: [UInt8]] = [:]
        for kv in object["kvs"] as? [[String: Any]] ?? [] {
            let key = Data(base64Encoded: kv["key"] as? String ?? "") ?? Data()
            let value = Data(base64Encoded: kv["value"] as? String ?? "") ?? Data()
            keys[String(decoding: key, as: UTF8.self)] = [UInt8](value)
        }
        return keys
    }

    /// Puts `value` (any bytes) at `key` with etcdctl, reading the value from standard input.
    static func put(_ value: [UInt8], at key: String, in etcd: EtcdTestServer) throws {
        // etcdctl reads a value from standard input, but an empty one only as an argument.
        let result = try etcd.etcdctl(value.isEmpty ? ["put", key, ""] : ["put", key], input: Data(value))
        guard result.status == 0 else { throw FixtureError("etcdctl put \(key) failed: \(result.error)") }
    }

    /// A store on `prefix` of `etcd` with a short watch backoff, so a test of recovery does not wait long.
    static func store(_ etcd: EtcdTestServer, prefix: String, user: String? = nil) throws -> EtcdOverrideStore {
        try EtcdOverrideStore(
            endpoint: EtcdEndpoint(url: etcd.url(prefix: prefix, user: user), environment: [:]),
            timeout: .seconds(5), backoff: ServerSyncBackoff(initial: .milliseconds(100), maximum: .milliseconds(500)))
    }
}

/// Whether `body` returns within `seconds` (it is cancelled when it does not).
func completes(within seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            try await body()
            return true
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
    }
}
