/// A place server values come from. ``HTTPServerValuesSource`` is one; a source on etcd (a prefix read with a
/// range, kept current by a watch) is another.
///
/// A ``ServerValuesSync`` drives a source: it calls ``fetch(ifChangedSince:)`` at start, on demand, every interval
/// and after failures (with backoff); it keeps the validators, applies new values to the service in one update,
/// persists the snapshot and publishes the status. A source only fetches.
///
/// A source that learns about changes itself (a watch) says so with ``pushesChanges`` and returns from
/// ``waitForChange(after:)`` when they happen; the sync then fetches at once instead of at the next interval. If
/// waiting fails (the watch broke), the sync marks the values stale with the reason and retries with backoff.
public protocol ServerValuesSource: Sendable {
    /// Where the values come from, for status lines: a URL without credentials.
    var location: String { get }

    /// Fetches the values once. `validators` are those of the last good fetch (empty the first time); return
    /// ``ServerValuesFetch/notModified(validators:)`` when nothing changed since. Throw a ``ServerSyncError``
    /// naming the reason for every failure; a response that is not entirely valid must be refused whole.
    func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError) -> ServerValuesFetch

    /// Whether ``waitForChange(after:)`` reports changes (default: no; the sync polls every interval).
    var pushesChanges: Bool { get }

    /// Returns when the values may have changed since the version `validators` describe; throws when the source
    /// can no longer tell (the sync retries with backoff). Called only when ``pushesChanges`` is true; it must
    /// return promptly when the calling task is cancelled.
    func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError)
}

extension ServerValuesSource {
    /// No change notifications.
    public var pushesChanges: Bool { false }

    /// Waits until cancelled: a source without change notifications never reports one.
    public func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError) {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        throw ServerSyncError.stopped
    }
}
