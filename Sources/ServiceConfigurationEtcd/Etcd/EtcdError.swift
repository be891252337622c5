/// Why a call to etcd failed, in words for a status line (`connection refused`, `permission denied`).
package struct EtcdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package enum Kind: String, Sendable, Hashable {
        /// etcd could not be reached: connection refused or reset, unknown host, TLS failure, the stream ended.
        case unreachable
        /// etcd did not answer in time.
        case timedOut
        /// A change was sent and etcd did not answer in time: it may or may not have been made, and may still arrive
        /// (``EtcdClient`` reports this for its calls that change etcd, in place of ``timedOut``).
        case outcomeUnknown
        /// etcd answered with an error (permission denied, a request too large, ...).
        case refused
        /// etcd has authentication on and the credentials are missing or wrong.
        case unauthenticated
        /// The answer is not what etcd's gateway sends (not JSON, bad base64, ...).
        case invalidResponse
        /// The answer is larger than the client's limit.
        case tooLarge
        /// The revision asked for was compacted away.
        case compacted
        /// The call was cancelled.
        case cancelled
        /// The URL does not name an etcd prefix.
        case notConfigured
    }

    /// The kind of failure.
    package var kind: Kind
    /// What went wrong, in a few words.
    package var reason: String
    /// etcd's gRPC status code, when etcd answered with an error.
    package var code: Int?

    package init(_ kind: Kind, _ reason: String, code: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.code = code
    }

    package var description: String { reason }

    /// The call was cancelled.
    static let cancelled = EtcdError(.cancelled, "cancelled")

    /// Whether etcd refused the call because the request is larger than its `--max-request-bytes`.
    package var isRequestTooLarge: Bool { kind == .refused && reason.contains("request is too large") }

    /// Whether the auth token is no longer valid (etcd restarted, or it expired): authenticate again.
    var isInvalidToken: Bool { code == 16 }
}
