import ServiceConfiguration

extension MenuReducer {
    /// `s`: asks the runtime to sync, when there is a source of server values.
    static func syncNow(_ state: inout MenuState) -> [MenuEffect] {
        guard let server = state.data.server, server.isShown else {
            state.inform("No server values source: start the menu with --server-url URL, or run the program that syncs")
            return []
        }
        state.inform("Syncing with \(server.status.source)…")
        return [.syncServerValues]
    }

    /// The outcome of a sync asked for with `s`, in the footer.
    static func finishSync(_ state: inout MenuState, _ outcome: ServerSyncOutcome) {
        switch outcome {
        case .updated(let previous) where previous.isEmpty:
            state.inform("Synced: the server sent the same values")
        case .updated(let previous):
            let keys = previous.count == 1 ? "1 key" : "\(previous.count) keys"
            state.inform("Synced: \(keys) changed (↻; c shows only them)")
        case .notModified:
            state.inform("Synced: not modified since the last sync")
        case .failed(let error):
            state.fail("sync failed: \(error.reason); the last good values stay")
        }
    }
}
