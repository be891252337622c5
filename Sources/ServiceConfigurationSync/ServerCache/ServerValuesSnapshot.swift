import Foundation

/// The last-known server values and sync status, persisted beside the override store so a program starts with
/// them before any network call, and so the debug tools can show what a running program has.
///
/// Format (version 1), one value per line, keys sorted:
///
/// ```json
/// {
///   "format": "service-configuration-server-snapshot",
///   "version": 1,
///   "source": "https://config.example.com/values.json",
///   "status": "fresh",
///   "lastSync": "2026-11-29T14:05:00.000Z",
///   "etag": "\"5d41402a\"",
///   "lastModified": "Sat, 29 Nov 2026 14:04:12 GMT",
///   "lastError": {"at": "2026-11-29T13:59:00.000Z", "kind": "unreachable", "reason": "connection refused"},
///   "lastChange": {"at": "2026-11-29T14:05:00.000Z", "previousValues": {"function.album.like.enabled": "N", "new.key": null}},
///   "evaluations": {"function.album.like.enabled": {"variant": "on", "reason": "TARGETING_MATCH"}},
///   "writer": {"pid": 4242, "processStart": "6c1c…/123456", "program": "MyApp"},
///   "values": {
///     "function.album.like.enabled": "Y"
///   }
/// }
/// ```
///
/// Readers ignore fields they do not know (a later version may add some); a file of a newer version is refused.
/// `evaluations` (only from an OFREP source: each key's variant and reason, or its error code) and `writer` (see
/// ``ServerSnapshotWriter``) were added without a new version: a snapshot without them is read with none, and no
/// writer known.
package struct ServerValuesSnapshot: Sendable, Hashable {
    package static let formatName = "service-configuration-server-snapshot"
    package static let version = 1
    /// The largest snapshot file read or written (values and previous values of a 10 MB response, escaped, fit).
    package static let maximumFileSize = 128 << 20

    /// The status as persisted (``ServerSyncStatus/lastAttempt`` is not: it changes on every failed attempt).
    package var status: ServerSyncStatus
    /// The values of the last good sync.
    package var values: [String: String]
    /// The program whose sync wrote the snapshot; `nil` in a snapshot that does not say.
    package var writer: ServerSnapshotWriter?

    package init(status: ServerSyncStatus, values: [String: String], writer: ServerSnapshotWriter? = nil) {
        self.status = status
        self.values = values
        self.writer = writer
    }

    /// Whether the snapshot holds values from a sync (as opposed to a record of failures only).
    package var hasValues: Bool { status.lastSync != nil }
}
