import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

/// One sync at a time: fetch from the source, apply to the service in one update, persist the snapshot, publish
/// the status. Its callers serialise ``perform()`` (the ``ServerValuesSync`` loop runs one at a time).
///
/// Created, it loads the snapshot and applies it to the service before anything touches the network.
final class ServerSyncEngine: Sendable {
    private struct State: Sendable {
        var status: ServerSyncStatus
        var values: [String: String] = [:]
        /// Whether ``values`` came from a sync (now or in the snapshot), as opposed to nothing yet.
        var hasValues = false
        /// ``values`` as the snapshot writes them, until they change.
        var encodedValues: [UInt8]?
        /// The status's evaluations as the snapshot writes them, until they change.
        var encodedEvaluations: [UInt8]?
        /// The state name and reason last written after a failure, so a repeated failure is not written again.
        var writtenFailure: String?
        /// Whether this engine has offered its values to the history once (after that, only changes are offered).
        var offeredHistory = false
        var observers: [UInt64: @Sendable (ServerSyncStatus) -> Void] = [:]
        var nextObserverID: UInt64 = 1
    }

    let source: any ServerValuesSource
    let service: (any ConfigurationService)?
    let snapshot: ServerSnapshotFile?
    /// The bounded history of applied values beside the snapshot (see ``ServerSnapshotHistory``).
    let history: ServerSnapshotHistory?
    let environment: ServerSyncEnvironment
    /// Who the snapshot says wrote it: this process.
    let writer = ServerSnapshotWriter.current()
    private let state: Locked<State>
    private let io = DispatchQueue(label: "ServerValuesSync.snapshot")

    init(
        source: any ServerValuesSource,
        service: (any ConfigurationService)?,
        snapshotURL: URL?,
        environment: ServerSyncEnvironment,
        faults: StoreFaultInjector? = nil,
        snapshotConfinement: URL? = nil
    ) {
        self.source = source
        self.service = service
        self.environment = environment
        let snapshot = snapshotURL.map { ServerSnapshotFile(url: $0, faults: faults, confinedTo: snapshotConfinement) }
        self.snapshot = snapshot
        history = snapshotURL.map { ServerSnapshotHistory(snapshotURL: $0, confinedTo: snapshotConfinement) }
        var initial = State(status: ServerSyncStatus(source: source.location))
        switch snapshot?.load() {
        case .success(let loaded?) where loaded.status.source != source.location:
            initial.status.snapshotProblem =
                "\(snapshot!.url.path) holds values from \(loaded.status.source), not \(source.location); not used"
        case .success(let loaded?):
            initial.status.lastError = loaded.status.lastError
            initial.status.lastErrorAt = loaded.status.lastErrorAt
            if loaded.hasValues, let lastSync = loaded.status.lastSync {
                initial.values = loaded.values
                initial.hasValues = true
                initial.status.state = .cached(since: lastSync)
                initial.status.lastSync = lastSync
                initial.status.validators = loaded.status.validators
                initial.status.lastChange = loaded.status.lastChange
                initial.status.keyCount = loaded.values.count
                initial.status.evaluations = loaded.status.evaluations
            }
        case .failure(let problem):
            initial.status.snapshotProblem = problem.description
        case .success(nil), nil:
            break
        }
        state = Locked(initial)
        if initial.hasValues { service?.updateServerValues(initial.values) }
    }

    /// The status now.
    var status: ServerSyncStatus { state.withLock { $0.status } }

    /// The values of the last good sync (or of the snapshot).
    var values: [String: String] { state.withLock { $0.values } }

    /// Calls `handler` with each new status.
    func observe(_ handler: @escaping @Sendable (ServerSyncStatus) -> Void) -> ConfigurationObservation {
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers[state.nextObserverID] = handler
            return state.nextObserverID
        }
        return ConfigurationObservation { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Fetches once and applies what came. Never throws: a failure keeps the last good values and is recorded in
    /// the status (unless the sync was stopped meanwhile).
    func perform() async -> ServerSyncOutcome {
        let validators = state.withLock { $0.status.validators }
        let fetched: ServerValuesFetch
        do {
            fetched = try await source.fetch(ifChangedSince: validators)
        } catch {
            return await fail(error)
        }
        if Task.isCancelled { return .failed(.stopped) }
        let now = now()
        let outcome: ServerSyncOutcome
        var applied: [String: String]?
        switch fetched {
        case .values(let values, let received), .evaluated(let values, _, let received):
            let evaluations: [String: ServerValueEvaluation]
            if case .evaluated(_, let given, _) = fetched { evaluations = given } else { evaluations = [:] }
            let changes = ServerValuesChange.difference(from: state.withLock { $0.values }, to: values)
            service?.updateServerValues(values)
            let encoded = ServerValuesSnapshot.encodeValues(values)
            let encodedEvaluations = ServerValuesSnapshot.encodeEvaluations(evaluations)
            applied = state.withLock { state in
                defer { state.offeredHistory = true }
                return changes.isEmpty && state.offeredHistory ? nil : values
            }
            state.withLock { state in
                state.values = values
                state.hasValues = true
                state.encodedValues = encoded
                state.encodedEvaluations = encodedEvaluations
                state.status.validators = received
                state.status.keyCount = values.count
                state.status.evaluations = evaluations
                if !changes.isEmpty { state.status.lastChange = ServerValuesChange(at: now, previousValues: changes) }
                state.status.state = .fresh(at: now)
                state.status.lastSync = now
                state.status.lastAttempt = now
            }
            outcome = .updated(previousValues: changes)
        case .notModified(let received):
            state.withLock { state in
                state.status.validators = received.filling(from: state.status.validators)
                state.status.state = .fresh(at: now)
                state.status.lastSync = now
                state.status.lastAttempt = now
            }
            outcome = .notModified
        }
        await save(always: true)
        if let applied { await recordHistory(applied, at: now) }
        notify()
        return outcome
    }

    /// Adds applied values to the history beside the snapshot, off the concurrency pool. A history that cannot be
    /// written does not fail the sync: `config-menu at` says what it cannot know.
    private func recordHistory(_ values: [String: String], at time: Date) async {
        guard let history else { return }
        let source = source.location
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            io.async {
                _ = history.record(values, source: source, at: time)
                continuation.resume()
            }
        }
    }

    /// Records a failure (a fetch, or a source's change watch): the values stay, the state turns stale (or error
    /// without values), and the snapshot records it when the reason is new.
    func fail(_ error: ServerSyncError) async -> ServerSyncOutcome {
        if error.kind == .cancelled || Task.isCancelled { return .failed(error) }
        let now = now()
        state.withLock { state in
            if state.status.lastError?.reason != error.reason || state.status.state.reason == nil {
                state.status.lastErrorAt = now
            }
            state.status.lastError = error
            state.status.lastAttempt = now
            if state.hasValues, let since = state.status.lastSync {
                state.status.state = .stale(since: since, reason: error.reason)
            } else {
                state.status.state = .error(reason: error.reason)
            }
        }
        await save(always: false)
        notify()
        return .failed(error)
    }

    /// The time now, to the millisecond as the snapshot keeps it, so a status read back equals the one written.
    private func now() -> Date {
        let date = environment.now()
        return Timestamp.parse(Timestamp.format(date)) ?? date
    }

    /// Writes the snapshot (after a failure only when its state or reason is new), off the concurrency pool.
    private func save(always: Bool) async {
        guard let snapshot else { return }
        let bytes = state.withLock { state -> [UInt8]? in
            let failure = state.status.state.reason.map { state.status.state.name + "\u{0}" + $0 }
            if !always, failure == state.writtenFailure { return nil }
            state.writtenFailure = failure
            if state.encodedValues == nil { state.encodedValues = ServerValuesSnapshot.encodeValues(state.values) }
            if state.encodedEvaluations == nil {
                state.encodedEvaluations = ServerValuesSnapshot.encodeEvaluations(state.status.evaluations)
            }
            var persisted = state.status
            persisted.lastAttempt = nil
            return ServerValuesSnapshot(status: persisted, values: state.values, writer: writer).encoded(
                values: state.encodedValues!, evaluations: state.encodedEvaluations)
        }
        guard let bytes else { return }
        let problem = await withCheckedContinuation { continuation in
            io.async { continuation.resume(returning: snapshot.save(bytes)) }
        }
        state.withLock { $0.status.snapshotProblem = problem?.description }
    }

    private func notify() {
        let (observers, status) = state.withLock { ($0.observers.sorted { $0.key < $1.key }.map(\.value), $0.status) }
        for observer in observers { observer(status) }
    }
}
