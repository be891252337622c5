import ServiceConfigurationCore
/// Why an exchange failed, in words for a status line (`connection refused`, `the server's certificate has
/// expired`). Callers (the sync, the etcd client) turn it into their own error.
package struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package enum Kind: String, Sendable, Hashable {
        /// The server could not be reached: refused, reset, unknown host, no route.
        case unreachable
        /// The server's certificate was refused (expired, not for this host, not from a trusted authority), or the
        /// TLS handshake failed.
        case insecure
        /// The whole exchange did not finish within the request's timeout.
        case timedOut
        /// A stream sent nothing for its silence limit.
        case silent
        /// The body is larger than the request's limit (as announced, or as it arrived, decompressed).
        case tooLarge
        /// The answer is not valid HTTP: a malformed or unrepresentable `Content-Length`, headers too large, a
        /// body cut short or that does not decompress, a 3xx without a usable `Location`.
        case invalidResponse
        /// A redirect the policy does not allow (another host or scheme, too many).
        case redirectRefused
        /// The request cannot be sent as it is (a scheme other than http/https, a header with a line break).
        case invalidRequest
        /// The receiver asked to stop, or the exchange was cancelled.
        case cancelled
    }

    /// The kind of failure.
    package var kind: Kind
    /// What went wrong, in a few words.
    package var reason: String
    /// The status of the answer the failure is about (a refused redirect), if any.
    package var status: Int?
    /// For ``Kind/tooLarge``: the limit, in bytes.
    package var limit: Int?
    /// For ``Kind/tooLarge``: the size the answer announced (`Content-Length`), when it did.
    package var announcedSize: Int64?

    package init(_ kind: Kind, _ reason: String, status: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.status = status
    }

    /// A body over `limit` bytes, announced as `announced` bytes or found so as it arrived.
    static func tooLarge(limit: Int, announced: Int64?) -> HTTPTransportError {
        var error = HTTPTransportError(
            .tooLarge,
            "the body is larger than the \(ByteCount.describe(limit)) limit"
                + (announced.map { " (\(describe(announced: $0)) announced)" } ?? ""))
        error.limit = limit
        error.announcedSize = announced
        return error
    }

    package var description: String { reason }

    /// An announced size in whole MiB (`50 MiB`), or bytes under one MiB.
    package static func describe(announced size: Int64) -> String {
        size >= 1 << 20 ? "\(size >> 20) MiB" : ByteCount.describe(Int(size))
    }

    static let cancelled = HTTPTransportError(.cancelled, "cancelled")
}
