public import Foundation
public import ServiceConfigurationCore
package import ServiceConfigurationFiles

/// Keeps a service's server values in step with a server: the last-known snapshot first, then a sync at start,
/// on demand and every interval, with backoff after failures. Start it with one call:
///
/// ```swift
/// let store = FileOverrideStore(url: FileOverrideStore.defaultURL(appName: "my-app"))
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store)
/// let sync = ServerValuesSync.start(url: URL(string: "https://config.example.com/values.json")!,
///                                   service: service, interval: .seconds(300))
/// ```
///
/// - **Cache first.** Creating it reads the snapshot persisted by the last run (`server-snapshot.json` beside the
///   override store, see ``ServerSnapshotLocation``) and applies it in one ``ConfigurationService/updateServerValues(_:)``
///   before any network call, so the first read after launch sees the last server values; the status says
///   ``ServerSyncState/cached(since:)``.
/// - **One update per change.** A new set of values replaces the server layer in one `updateServerValues`:
///   observers fire once, for the keys whose effective value changed. Overrides are untouched.
/// - **Refused whole.** A bad response (see ``HTTPServerValuesSource``) changes nothing; the last good values
///   stay, the status turns ``ServerSyncState/stale(since:reason:)`` with the reason.
/// - **Never fatal, never a tight loop.** After a failure the next attempt waits per ``ServerSyncBackoff`` (about
///   1 s doubling to a minute, with jitter); after a success, the interval (or nothing, without one).
/// - **Persisted.** Each good sync writes the snapshot atomically (mode 0600), with its validators, times, and the
///   previous value of each key the last change changed.
///
/// The sync runs while this object lives: keep it (release it, or call ``stop()``, to stop syncing).
public final class ServerValuesSync: ServerSyncMonitor {
    private let engine: ServerSyncEngine
    private let loop: ServerSyncLoop

    /// Creates a sync for `source` that updates `service`, reading the snapshot now (and applying it); nothing is
    /// fetched until ``start()`` or ``sync()``.
    ///
    /// - Parameters:
    ///   - source: where the values come from, for example an ``HTTPServerValuesSource``.
    ///   - service: the service whose server values each good sync replaces.
    ///   - interval: how often to sync after a success; `nil` syncs only at start and on demand.
    ///   - snapshot: where the last-known values are persisted.
    ///   - backoff: the waits between attempts after failures.
    public convenience init(
        source: any ServerValuesSource,
        service: any ConfigurationService,
        snapshot: ServerSnapshotLocation = .besideStore,
        interval: Duration? = nil,
        backoff: ServerSyncBackoff = ServerSyncBackoff()
    ) {
        self.init(
            source: source, service: service, snapshotURL: snapshot.resolve(for: service), interval: interval,
            backoff: backoff, environment: .live)
    }

    /// Creates a sync with a replaceable clock, sleep and randomness (for tests), and optionally no service (the
    /// tools sync a snapshot file for another program; with `snapshotConfinement`, a file in a folder that program
    /// owns, where no symbolic link is followed).
    package init(
        source: any ServerValuesSource,
        service: (any ConfigurationService)?,
        snapshotURL: URL?,
        interval: Duration? = nil,
        backoff: ServerSyncBackoff = ServerSyncBackoff(),
        environment: ServerSyncEnvironment,
        faults: StoreFaultInjector? = nil,
        snapshotConfinement: URL? = nil
    ) {
        engine = ServerSyncEngine(
            source: source, service: service, snapshotURL: snapshotURL, environment: environment, faults: faults,
            snapshotConfinement: snapshotConfinement)
        loop = ServerSyncLoop(engine: engine, interval: interval, backoff: backoff, environment: environment)
    }

    deinit {
        loop.stop()
    }

    /// Creates a sync of `url` (a JSON object of strings, see ``HTTPServerValuesSource``) into `service` and
    /// starts it: the snapshot is applied before this returns, the first fetch starts at once.
    ///
    /// ```swift
    /// let sync = ServerValuesSync.start(url: url, service: service, interval: .seconds(300))
    /// ```
    public static func start(
        url: URL,
        service: any ConfigurationService,
        snapshot: ServerSnapshotLocation = .besideStore,
        interval: Duration? = nil
    ) -> ServerValuesSync {
        let sync = ServerValuesSync(
            source: HTTPServerValuesSource(url: url), service: service, snapshot: snapshot, interval: interval)
        sync.start()
        return sync
    }

    /// Starts syncing: at once, then every interval (and with backoff after failures). Calling it again does
    /// nothing.
    public func start() {
        loop.start()
    }

    /// Stops syncing: the fetch under way is cancelled, nothing more is fetched, applied or written. The values
    /// stay as they are.
    public func stop() {
        loop.stop()
    }

    /// Syncs now and returns what happened; when the sync is started, the interval counts again from here.
    public func sync() async -> ServerSyncOutcome {
        await loop.syncNow()
    }

    /// The status now.
    public var status: ServerSyncStatus { engine.status }

    /// The server values of the last good sync (or of the snapshot).
    public var values: [String: String] { engine.values }

    /// The file the snapshot is persisted in, if any.
    public var snapshotURL: URL? { engine.snapshot?.url }

    /// Calls `handler` with the new status after each change.
    public func observeStatus(_ handler: @escaping @Sendable (ServerSyncStatus) -> Void) -> ConfigurationObservation {
        engine.observe(handler)
    }
}
