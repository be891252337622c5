import Foundation

/// One key of etcd with its value and the revision that last changed it.
package struct EtcdKeyValue: Sendable, Hashable {
    /// The key's bytes.
    package var key: [UInt8]
    /// The value's bytes (empty for an empty value).
    package var value: [UInt8]
    /// The revision of the key's last change (0 for a key that does not exist).
    package var modRevision: Int64

    package init(key: [UInt8], value: [UInt8], modRevision: Int64) {
        self.key = key
        self.value = value
        self.modRevision = modRevision
    }
}

/// The keys of a prefix at one revision of the store.
package struct EtcdRange: Sendable, Hashable {
    /// The store's revision the range was read at.
    package var revision: Int64
    /// The keys, in key order.
    package var keyValues: [EtcdKeyValue]
    /// The cluster that answered (etcd's `cluster_id`), when it said.
    package var clusterID: String?

    package init(revision: Int64, keyValues: [EtcdKeyValue], clusterID: String? = nil) {
        self.revision = revision
        self.keyValues = keyValues
        self.clusterID = clusterID
    }
}

/// One change a watch reported.
package struct EtcdEvent: Sendable, Hashable {
    /// The key (and, for a put, its new value) and the revision of the change.
    package var keyValue: EtcdKeyValue
    /// Whether the key was deleted.
    package var isDelete: Bool
}

/// What a watch stream says.
package enum EtcdWatchMessage: Sendable, Hashable {
    /// The watch is set up; etcd (the cluster `clusterID`, when it said) is at `revision` (events from the start
    /// revision on follow).
    case created(revision: Int64, clusterID: String?)
    /// Every change up to `revision` has been sent.
    case progress(revision: Int64)
    /// Changes, in revision order; etcd is at `revision`.
    case events([EtcdEvent], revision: Int64)
    /// The revision to start from was compacted: events before `compactRevision` are gone; read the keys again.
    case compacted(compactRevision: Int64)
    /// etcd ended the watch (for example: permission denied).
    case cancelled(reason: String)
}

/// The JSON etcd's gateway speaks: snake_case names, int64 numbers as strings, bytes as base64 (decoded by
/// `JSONDecoder` into `Data`), and fields with zero values left out.
enum EtcdWire {
    struct Header: Decodable {
        var revision: String?
        var clusterId: String?
    }

    struct KeyValue: Decodable {
        var key: Data?
        var value: Data?
        var modRevision: String?
    }

    struct RangeResponse: Decodable {
        var header: Header?
        var kvs: [KeyValue]?
        var count: String?
    }

    struct PutResponse: Decodable {
        var header: Header?
    }

    struct ResponseOp: Decodable {
        var responseRange: RangeResponse?
    }

    struct TxnResponse: Decodable {
        var header: Header?
        var succeeded: Bool?
        var responses: [ResponseOp]?
    }

    struct AuthResponse: Decodable {
        var token: String?
    }

    struct ErrorBody: Decodable {
        var error: String?
        var message: String?
        var code: Int?
    }

    struct Event: Decodable {
        var type: String?
        var kv: KeyValue?
    }

    struct WatchResponse: Decodable {
        var header: Header?
        var created: Bool?
        var canceled: Bool?
        var compactRevision: String?
        var cancelReason: String?
        var events: [Event]?
    }

    struct WatchEnvelope: Decodable {
        var result: WatchResponse?
        var error: ErrorBody?
    }

    /// Decodes `body` as `T`, or says why it is not etcd's answer.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(EtcdError) -> T {
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(T.self, from: body)
        } catch {
            throw EtcdError(.invalidResponse, "etcd's answer is not what its gateway sends: \(Self.summary(error))")
        }
    }

    /// A decoding error in one line.
    private static func summary(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        default:
            return "\(error)"
        }
    }

    /// An int64 field; absent means 0.
    static func number(_ text: String?) throws(EtcdError) -> Int64 {
        guard let text else { return 0 }
        guard let value = Int64(text) else {
            throw EtcdError(.invalidResponse, "etcd sent \"\(text.prefix(40))\" where a revision belongs")
        }
        return value
    }

    static func keyValue(_ wire: KeyValue) throws(EtcdError) -> EtcdKeyValue {
        EtcdKeyValue(
            key: [UInt8](wire.key ?? Data()), value: [UInt8](wire.value ?? Data()),
            modRevision: try number(wire.modRevision))
    }

    /// A range answer; `fallback` and `cluster` stand in for a header it lacks (a range inside a transaction's
    /// answer has the transaction's).
    static func range(
        _ wire: RangeResponse, revision fallback: Int64 = 0, cluster: String? = nil
    ) throws(EtcdError) -> EtcdRange {
        var keyValues: [EtcdKeyValue] = []
        keyValues.reserveCapacity(wire.kvs?.count ?? 0)
        for kv in wire.kvs ?? [] { keyValues.append(try keyValue(kv)) }
        let revision = try number(wire.header?.revision)
        return EtcdRange(
            revision: revision == 0 ? fallback : revision, keyValues: keyValues,
            clusterID: wire.header?.clusterId ?? cluster)
    }

    /// One line of a watch stream.
    static func watchMessage(_ line: Data) throws(EtcdError) -> EtcdWatchMessage {
        let envelope = try decode(WatchEnvelope.self, from: line)
        if let error = envelope.error {
            return .cancelled(reason: error.message ?? error.error ?? "the watch failed")
        }
        guard let result = envelope.result else {
            throw EtcdError(.invalidResponse, "etcd's watch sent a message without a result")
        }
        let revision = try number(result.header?.revision)
        let compacted = try number(result.compactRevision)
        if compacted > 0 { return .compacted(compactRevision: compacted) }
        if result.canceled == true {
            return .cancelled(reason: Self.reason(result.cancelReason ?? "etcd cancelled the watch"))
        }
        if let events = result.events, !events.isEmpty {
            var converted: [EtcdEvent] = []
            converted.reserveCapacity(events.count)
            for event in events {
                guard let kv = event.kv else { continue }
                converted.append(EtcdEvent(keyValue: try keyValue(kv), isDelete: event.type == "DELETE"))
            }
            return .events(converted, revision: revision)
        }
        return result.created == true
            ? .created(revision: revision, clusterID: result.header?.clusterId) : .progress(revision: revision)
    }

    /// etcd's message without the gRPC wrapping (`rpc error: code = ... desc = etcdserver: permission denied`
    /// becomes `permission denied`).
    static func reason(_ message: String) -> String {
        var text = message
        if let range = text.range(of: "desc = ") { text = String(text[range.upperBound...]) }
        if text.hasPrefix("etcdserver: ") { text = String(text.dropFirst("etcdserver: ".count)) }
        return text
    }

    /// An error answer (HTTP status other than 200) as an ``EtcdError``.
    static func error(status: Int, body: Data) -> EtcdError {
        let parsed = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let message = reason(parsed?.message ?? parsed?.error ?? "HTTP \(status)")
        let code = parsed?.code
        switch code {
        case 16:
            return EtcdError(.unauthenticated, message, code: code)
        case 3 where message.contains("user name is empty"):
            return EtcdError(
                .unauthenticated,
                "etcd has authentication on: give a user (etcd://USER:PASSWORD@HOST:PORT/PREFIX, or "
                    + "\(EtcdEndpoint.userVariable)=USER:PASSWORD)", code: code)
        case 3 where message.contains("authentication failed"):
            return EtcdError(.unauthenticated, message, code: code)
        case 11 where message.contains("compacted"):
            return EtcdError(.compacted, message, code: code)
        default:
            return EtcdError(.refused, message, code: code)
        }
    }
}
