package import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
package import ServiceConfigurationSync

/// Follows the snapshot another program persists (``ServerValuesSync`` writes it beside the override store): its
/// values go into a service and its status is this object's, live as the file changes. The debug tools use it so
/// QA sees the server values a running program really has.
///
/// ``sync()`` fetches once from the source the snapshot names and writes the snapshot, as the program would; the
/// program itself picks the new values up at its own next sync.
package final class ServerSnapshotFollower: ServerSyncMonitor {
    private struct State: Sendable {
        var status: ServerSyncStatus
        var values: [String: String]?
        var writer: ServerSnapshotWriter?
        var program: ServerSnapshotWriter?
        var fingerprint: FileFingerprint?
        var observers: [UInt64: @Sendable (ServerSyncStatus) -> Void] = [:]
        var nextObserverID: UInt64 = 1
        var watcher: FileWatcher?
    }

    /// The snapshot file.
    package let url: URL
    private let file: ServerSnapshotFile
    private let confinement: URL?
    private let service: (any ConfigurationService)?
    /// Where a source for ``sync()`` reads its settings (etcd credentials and CA file).
    private let environment: [String: String]
    /// Makes the source ``sync()`` fetches from.
    private let sources: ServerValuesSourceFactory
    private let state: Locked<State>
    /// Held for a whole reload (read, record, apply), so the watcher's reload and a caller's never interleave: the
    /// one that records new values is the one that applies them, before the other returns.
    private let reloading = Locked(())

    /// Reads the snapshot at `snapshotURL` now and applies its values to `service` (one update), if there is one;
    /// ``sync()`` makes its source with `environment`'s settings (`CONFIG_ETCD_CA_FILE`, credentials). `confinedTo` a
    /// folder another program owns (a simulator app's container), no symbolic link inside it is followed, reading or
    /// syncing. `sources` makes the source: by default HTTP only; the tools pass the umbrella's
    /// `ServerValuesSources.source`, which knows etcd too.
    package init(
        snapshotURL: URL, service: (any ConfigurationService)?, confinedTo confinement: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        sources: @escaping ServerValuesSourceFactory = HTTPServerValuesSource.source
    ) {
        self.sources = sources
        self.confinement = confinement
        file = ServerSnapshotFile(url: snapshotURL, confinedTo: confinement)
        url = file.url
        self.service = service
        self.environment = environment
        state = Locked(State(status: ServerSyncStatus(source: "")))
        reload()
    }

    deinit {
        stopWatching()
    }

    /// The status the snapshot records; an empty ``ServerSyncStatus/source`` while there is no snapshot.
    package var status: ServerSyncStatus { state.withLock { $0.status } }

    /// The snapshot's values, or `nil` while there is none with values.
    package var values: [String: String]? { state.withLock { $0.values } }

    /// The program whose sync wrote the snapshot last read, or `nil` when the snapshot does not say (or there is
    /// none).
    package var writer: ServerSnapshotWriter? { state.withLock { $0.writer } }

    /// The last program other than this process whose sync wrote the snapshot (when ``sync()`` here wrote it last,
    /// the program that applies those values at its own next sync), or `nil` when none was seen.
    package var program: ServerSnapshotWriter? { state.withLock { $0.program } }

    /// Reads the file if it changed: new values go to the service in one update, a new status to the observers.
    /// A file that cannot be read keeps the last values and reports the problem in the status.
    @discardableResult
    package func reload() -> Bool {
        guard let status = reloading.withLock({ _ in readAndApply() }) else { return false }
        let observers = state.withLock { $0.observers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in observers { observer(status) }
        return true
    }

    /// Reads the file if it changed and applies new values; returns the new status, if it changed.
    private func readAndApply() -> ServerSyncStatus? {
        let fingerprint = file.file.fingerprint()
        if fingerprint != nil, fingerprint == state.withLock({ $0.fingerprint }) { return nil }
        let loaded = file.load()
        let (status, newValues) = state.withLock { state -> (ServerSyncStatus?, [String: String]?) in
            let before = (state.status, state.writer)
            var applied: [String: String]?
            switch loaded {
            case .success(nil):
                if !state.status.source.isEmpty {
                    state.status.snapshotProblem = "\(url.path) was removed; showing its last values"
                }
            case .success(let snapshot?):
                state.status = snapshot.status
                state.writer = snapshot.writer
                if let writer = snapshot.writer, !writer.isCurrentProcess { state.program = writer }
                if snapshot.hasValues, snapshot.values != state.values {
                    state.values = snapshot.values
                    applied = snapshot.values
                }
            case .failure(let problem):
                state.status.snapshotProblem = problem.description
                if state.status.source.isEmpty { state.status.source = url.path }
            }
            state.fingerprint = fingerprint
            return (state.status == before.0 && state.writer == before.1 ? nil : state.status, applied)
        }
        if let newValues { service?.updateServerValues(newValues) }
        return status
    }

    /// Reloads whenever the file changes (inotify on Linux, polling elsewhere).
    package func startWatching() {
        stopWatching()
        let watcher = FileWatcher(file: file.file, mode: .automatic) { [weak self] in self?.reload() }
        state.withLock { $0.watcher = watcher }
        reload()
    }

    /// Stops watching the file.
    package func stopWatching() {
        state.withLock { state -> FileWatcher? in
            defer { state.watcher = nil }
            return state.watcher
        }?.stop()
    }

    package func observeStatus(_ handler: @escaping @Sendable (ServerSyncStatus) -> Void) -> ConfigurationObservation {
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers[state.nextObserverID] = handler
            return state.nextObserverID
        }
        return ConfigurationObservation { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Fetches once from the source the snapshot names, writes the snapshot, and applies it here.
    package func sync() async -> ServerSyncOutcome {
        let location = status.source
        guard !location.isEmpty, let serverURL = URL(string: location), serverURL.scheme != nil else {
            return .failed(
                ServerSyncError(
                    kind: .notConfigured,
                    reason: "no server known: \(url.path) names none yet; start the program, or pass --server-url"))
        }
        let source: any ServerValuesSource
        do {
            source = try sources(serverURL, .seconds(15), environment)
        } catch {
            return .failed(error)
        }
        let once = ServerValuesSync(
            source: source, service: nil, snapshotURL: url, environment: .live, snapshotConfinement: confinement)
        let outcome = await once.sync()
        once.stop()
        reload()
        return outcome
    }
}
