import Foundation
import ServiceConfigurationCore

/// Leases (`/v3/lease/grant`, `/v3/lease/keepalive`, `/v3/lease/revoke`), a put attached to one, and range reads of
/// any key range: what program reports in etcd need (see ``EtcdProgramReports``).
extension EtcdClient {
    /// A key of a keys-only range read: its name, the revision of its last change and the lease it is attached to
    /// (0: none).
    package struct KeyVersion: Sendable, Hashable {
        /// The key's bytes.
        package var key: [UInt8]
        /// The revision of the key's last change.
        package var modRevision: Int64
        /// The lease the key is attached to, 0 for none.
        package var lease: Int64
    }

    /// Grants a lease of `ttl` seconds; returns its ID.
    package func grantLease(ttl: Int) throws(EtcdError) -> Int64 {
        let body = try call("/v3/lease/grant", ["TTL": String(max(1, ttl))], nil)
        let answer = try EtcdWire.decode(LeaseAnswer.self, from: body)
        let id = try EtcdWire.number(answer.id)
        guard id != 0 else { throw EtcdError(.invalidResponse, "etcd granted no lease") }
        return id
    }

    /// Keeps the lease alive once; returns the seconds it now has to live, 0 when it expired or never existed.
    package func keepAlive(lease: Int64) throws(EtcdError) -> Int {
        let body = try call("/v3/lease/keepalive", ["ID": String(lease)], nil)
        let answer = try EtcdWire.decode(KeepAliveAnswer.self, from: body)
        if let error = answer.error {
            throw EtcdError(.refused, EtcdWire.reason(error.message ?? error.error ?? "the keep-alive failed"))
        }
        return Int(try EtcdWire.number(answer.result?.ttl))
    }

    /// Revokes the lease: etcd deletes every key attached to it. A lease that is gone already is no error.
    package func revoke(lease: Int64) throws(EtcdError) {
        do {
            _ = try call("/v3/lease/revoke", ["ID": String(lease)], nil, changes: true)
        } catch  where error.isLeaseNotFound {
            return
        }
    }

    /// Puts `value` at `key` attached to `lease` (0: none); returns the revision of the change.
    package func put(_ value: [UInt8], at key: [UInt8], lease: Int64) throws(EtcdError) -> Int64 {
        var request: [String: Any] = [
            "key": Data(key).base64EncodedString(), "value": Data(value).base64EncodedString(),
        ]
        if lease != 0 { request["lease"] = String(lease) }
        let body = try call("/v3/kv/put", request, nil, changes: true)
        return try EtcdWire.number(EtcdWire.decode(EtcdWire.PutResponse.self, from: body).header?.revision)
    }

    /// The keys in `[key, rangeEnd)`, without their values, in key order: at most `limit`, and whether there are
    /// more.
    package func keyVersions(from key: [UInt8], to rangeEnd: [UInt8], limit: Int) throws(EtcdError) -> (
        keys: [KeyVersion], more: Bool
    ) {
        let body = try call(
            "/v3/kv/range",
            [
                "key": Data(key).base64EncodedString(), "range_end": Data(rangeEnd).base64EncodedString(),
                "keys_only": true, "limit": String(limit),
            ], nil)
        let answer = try EtcdWire.decode(KeysAnswer.self, from: body)
        var keys: [KeyVersion] = []
        for kv in answer.kvs ?? [] {
            keys.append(
                KeyVersion(
                    key: [UInt8](kv.key ?? Data()), modRevision: try EtcdWire.number(kv.modRevision),
                    lease: try EtcdWire.number(kv.lease)))
        }
        return (keys, answer.more == true)
    }

    /// The value of `key` and the revision of its last change, or `nil` when it does not exist.
    package func value(at key: [UInt8]) throws(EtcdError) -> (value: [UInt8], modRevision: Int64, lease: Int64)? {
        let body = try call("/v3/kv/range", ["key": Data(key).base64EncodedString()], nil)
        let answer = try EtcdWire.decode(KeysAnswer.self, from: body)
        guard let kv = answer.kvs?.first else { return nil }
        return (
            [UInt8](kv.value ?? Data()), try EtcdWire.number(kv.modRevision), try EtcdWire.number(kv.lease)
        )
    }

    // The gateway's answers (decoded with snake_case converted: `mod_revision` is `modRevision`; `ID` and `TTL`
    // have no underscore and stay as they are).

    private struct LeaseAnswer: Decodable {
        var id: String?
        var ttl: String?

        enum CodingKeys: String, CodingKey {
            case id = "ID"
            case ttl = "TTL"
        }
    }

    private struct KeepAliveAnswer: Decodable {
        var result: LeaseAnswer?
        var error: EtcdWire.ErrorBody?
    }

    private struct KeyValueAnswer: Decodable {
        var key: Data?
        var value: Data?
        var modRevision: String?
        var lease: String?
    }

    private struct KeysAnswer: Decodable {
        var kvs: [KeyValueAnswer]?
        var more: Bool?
    }
}

extension EtcdError {
    /// Whether etcd says the lease does not exist (it expired, was revoked, or etcd's data is new).
    package var isLeaseNotFound: Bool { reason.contains("requested lease not found") }
}
