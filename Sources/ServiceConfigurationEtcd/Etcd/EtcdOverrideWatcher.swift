import Foundation
import ServiceConfigurationCore
import ServiceConfigurationSync

/// Keeps an ``EtcdOverrideStore`` current while it runs: a watch of the prefix from the revision after the last
/// read. When the stream ends, the watch is set up again with backoff, after reading the prefix again whole (what
/// changed while it was down, and whether etcd came back as a new cluster with its history started again, only a
/// read can tell); when the revisions it would resume from were compacted, or etcd's history went back or its
/// `cluster_id` changed, the prefix is read again whole too, and the watch starts after that read. The store
/// applies a read of a new cluster as a replacement, so deleted overrides stop applying.
///
/// Everything runs on one serial queue of its own (never URLSession's), so a change handler may call the store.
final class EtcdOverrideWatcher: Sendable {
    /// What the watcher does with the store: read the whole prefix (returns the revision read), apply events, and
    /// hear that the connection works again.
    struct Hooks: Sendable {
        var read: @Sendable () throws(EtcdError) -> (revision: Int64, clusterID: String?)
        var apply: @Sendable ([EtcdEvent]) -> Void
        var connected: @Sendable () -> Void
    }

    private struct State: Sendable {
        var watch: EtcdWatch?
        /// The first revision not yet seen; 0 until the prefix was read (and after a failure: read it again).
        var nextRevision: Int64
        /// The cluster the last read came from, when etcd said.
        var clusterID: String?
        var failures = 0
        var problem: String?
        var stopped = false
        var generation: UInt64 = 0
    }

    private let client: EtcdClient
    private let backoff: ServerSyncBackoff
    private let hooks: Hooks
    private let queue = DispatchQueue(label: "EtcdOverrideStore.watch")
    private let state: Locked<State>

    /// Starts watching from `revision` (0: read the prefix first) of the cluster `clusterID`.
    init(client: EtcdClient, from revision: Int64, clusterID: String?, backoff: ServerSyncBackoff, hooks: Hooks) {
        self.client = client
        self.backoff = backoff
        self.hooks = hooks
        state = Locked(State(nextRevision: revision, clusterID: clusterID))
        queue.async { [weak self] in self?.connect() }
    }

    deinit {
        stop()
    }

    /// Why changes made elsewhere are not arriving now, or `nil` while the watch works.
    var problem: String? { state.withLock { $0.problem } }

    /// Stops watching.
    func stop() {
        let watch = state.withLock { state in
            state.stopped = true
            state.generation += 1
            defer { state.watch = nil }
            return state.watch
        }
        watch?.cancel()
    }

    /// Reads the prefix if needed, then starts the watch. On the watcher's queue.
    private func connect() {
        guard let (revision, generation) = state.withLock({ $0.stopped ? nil : ($0.nextRevision, $0.generation) })
        else { return }
        var start = revision
        if start == 0 {
            do throws(EtcdError) {
                let read = try hooks.read()
                start = read.revision + 1
                state.withLock { $0.clusterID = read.clusterID ?? $0.clusterID }
            } catch {
                return fail(error, generation: generation)
            }
        }
        let watch = client.watch(from: start, on: queue) { [weak self] result in
            self?.handle(result, generation: generation)
        }
        let current = state.withLock { state -> Bool in
            guard !state.stopped, state.generation == generation else { return false }
            state.nextRevision = start
            state.watch = watch
            return true
        }
        if !current { watch.cancel() }
    }

    private func handle(_ result: Result<EtcdWatchMessage, EtcdError>, generation: UInt64) {
        guard state.withLock({ !$0.stopped && $0.generation == generation }) else { return }
        switch result {
        case .success(.created(let revision, let cluster)):
            // etcd's history went back, or another cluster answers (a new cluster at the same address): what was
            // read before is not this one's.
            let rewound = state.withLock { state in
                state.nextRevision > revision + 1
                    || (cluster != nil && state.clusterID != nil && cluster != state.clusterID)
            }
            if rewound { return restart(reading: true, generation: generation) }
            state.withLock { state in
                state.failures = 0
                state.problem = nil
            }
            hooks.connected()
        case .success(.events(let events, _)):
            hooks.apply(events)
            if let last = events.map(\.keyValue.modRevision).max() {
                state.withLock { $0.nextRevision = max($0.nextRevision, last + 1) }
            }
        case .success(.progress(let revision)):
            state.withLock { $0.nextRevision = max($0.nextRevision, revision + 1) }
        case .success(.compacted):
            restart(reading: true, generation: generation)
        case .success(.cancelled(let reason)):
            fail(EtcdError(.refused, reason), generation: generation)
        case .failure(let error):
            fail(error, generation: generation)
        }
    }

    /// Ends the current watch and connects again at once, reading the prefix first when `reading`.
    private func restart(reading: Bool, generation: UInt64) {
        let watch = state.withLock { state -> EtcdWatch? in
            guard state.generation == generation else { return nil }
            state.generation += 1
            if reading { state.nextRevision = 0 }
            defer { state.watch = nil }
            return state.watch
        }
        watch?.cancel()
        connect()
    }

    /// Records the failure and tries again after the backoff.
    private func fail(_ error: EtcdError, generation: UInt64) {
        let delay = state.withLock { state -> Duration? in
            guard !state.stopped, state.generation == generation else { return nil }
            state.generation += 1
            state.watch?.cancel()
            state.watch = nil
            state.nextRevision = 0  // read again before watching: what happened meanwhile is not in any stream
            state.failures += 1
            let delay = backoff.delay(afterFailures: state.failures, random: Double.random(in: 0..<1))
            state.problem =
                "the watch of \(client.endpoint.location) failed (\(error.reason)); the overrides last read keep "
                + "applying; trying again in \(Self.describe(delay))"
            return delay
        }
        guard let delay else { return }
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.connect() }
    }

    private static func describe(_ delay: Duration) -> String {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        return seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds.rounded())) s"
    }
}
