/// The result of one sync, as ``ServerSyncMonitor/sync()`` returns it.
public enum ServerSyncOutcome: Sendable, Hashable {
    /// New values were applied. `previousValues` holds each key whose server value changed, with its value
    /// before (`nil`: the key is new); it is empty when the server sent the same values again.
    case updated(previousValues: [String: String?])
    /// The server said nothing changed (HTTP 304); the values stay.
    case notModified
    /// The sync failed and changed nothing: the last good values stay. The error says why.
    case failed(ServerSyncError)

    /// The error, for a failed sync.
    public var error: ServerSyncError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
