/// Why a sync failed. The ``reason`` is short enough for a status line (`connection refused`,
/// `HTTP 500 (internal server error)`, `not JSON: expected a value at line 1, column 1`).
///
/// A failed sync never changes the values a program uses: the last good snapshot stays.
public struct ServerSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The server could not be reached: connection refused or reset, unknown host, TLS failure.
        case unreachable
        /// The server did not answer (or finish answering) in time.
        case timedOut
        /// The server answered with a status other than 200 or 304.
        case httpStatus
        /// The response is not a valid set of values: not JSON, not an object of strings, truncated, the wrong
        /// content type.
        case invalidResponse
        /// The response is larger than the source's limit.
        case tooLarge
        /// The sync was stopped or cancelled.
        case cancelled
        /// There is nothing to sync from (no source configured).
        case notConfigured
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, in a few words a person can act on.
    public var reason: String
    /// The HTTP status, for ``Kind/httpStatus``.
    public var statusCode: Int?
    /// How long the server asked to be left alone (`Retry-After` on a 429 or 503): the next attempt waits at least
    /// this long (at most ``longestRetryAfter``), whatever the backoff says.
    public var retryAfter: Duration?

    /// The longest `Retry-After` honoured: one hour, so a server cannot stop a program's syncing for good.
    public static let longestRetryAfter: Duration = .seconds(3600)

    /// Creates an error.
    public init(kind: Kind, reason: String, statusCode: Int? = nil, retryAfter: Duration? = nil) {
        self.kind = kind
        self.reason = reason
        self.statusCode = statusCode
        self.retryAfter = retryAfter.map { min(max($0, .zero), Self.longestRetryAfter) }
    }

    /// The reason.
    public var description: String { reason }

    /// The sync was stopped before it finished.
    package static let stopped = ServerSyncError(kind: .cancelled, reason: "the sync was stopped")
}
