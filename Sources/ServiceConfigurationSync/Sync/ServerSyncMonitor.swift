public import ServiceConfigurationCore

/// Something that keeps a program's server values current and reports how current they are: a running
/// ``ServerValuesSync``, or (in the debug tools) a view of the snapshot another program persisted.
///
/// The debug menu takes one to show where server values come from, their status and age, which keys the last
/// sync changed, and to sync on demand.
public protocol ServerSyncMonitor: AnyObject, Sendable {
    /// The status now.
    var status: ServerSyncStatus { get }

    /// Calls `handler` with the new status after each change (a sync finished, a failure, a snapshot read).
    /// Keep the returned observation alive as long as you want the calls.
    func observeStatus(_ handler: @escaping @Sendable (ServerSyncStatus) -> Void) -> ConfigurationObservation

    /// Syncs now, whatever the schedule, and returns what happened. Never throws: a failure is an outcome.
    func sync() async -> ServerSyncOutcome
}

extension ServerSyncMonitor {
    /// The status as an `AsyncStream`: the current status first, then each change. The stream finishes when the
    /// consuming task is cancelled.
    ///
    /// ```swift
    /// for await status in sync.statusUpdates() { print(status.state.name) }
    /// ```
    public func statusUpdates() -> AsyncStream<ServerSyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ServerSyncStatus.self, bufferingPolicy: .bufferingNewest(64))
        let observation = observeStatus { continuation.yield($0) }
        continuation.yield(status)
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}

/// The former name of ``ServerSyncMonitor``, renamed so it is not confused with ``ServerValuesSync``, the one that syncs.
@available(*, deprecated, renamed: "ServerSyncMonitor")
public typealias ServerValuesSyncing = ServerSyncMonitor
