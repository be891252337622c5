/// What a conditional request sends back to the server: the validators of the last version received.
///
/// An HTTP source sends `If-None-Match` with ``etag`` and `If-Modified-Since` with ``lastModified``; a source
/// without HTTP validators may keep any opaque version token in ``etag`` (an etcd source would keep the revision).
///
/// ```swift
/// let validators = ServerValuesValidators(etag: "\"v42\"", lastModified: "Sat, 29 Nov 2026 14:05:00 GMT")
/// ```
public struct ServerValuesValidators: Sendable, Hashable {
    /// The entity tag of the last version received (`ETag`), quotes included.
    public var etag: String?
    /// The `Last-Modified` date of the last version received, exactly as the server wrote it.
    public var lastModified: String?

    /// Creates validators; both are optional.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is nothing to send (the first request, or a server that sends neither).
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// These validators, with any missing one taken from `older` (a 304 may leave a validator out).
    func filling(from older: ServerValuesValidators) -> ServerValuesValidators {
        ServerValuesValidators(etag: etag ?? older.etag, lastModified: lastModified ?? older.lastModified)
    }
}
