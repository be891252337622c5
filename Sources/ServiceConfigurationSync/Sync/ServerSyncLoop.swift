import Foundation
import ServiceConfigurationCore

/// The schedule of a ``ServerValuesSync``: one task that performs every sync in turn (the first at start, those
/// asked for by `sync()`, those the timer or the source's change watch trigger), then arms the next timer: the
/// interval after a success, the backoff after a failure.
final class ServerSyncLoop: Sendable {
    private enum Wake: Sendable {
        /// The timer of this generation fired (or the sync was just started).
        case scheduled(UInt64)
        /// Someone called `sync()`.
        case demand
        /// The source reported a change (generation).
        case changed(UInt64)
        /// The source's change watch failed (generation).
        case watchFailed(ServerSyncError, UInt64)
    }

    private struct State: Sendable {
        var started = false
        var stopped = false
        var generation: UInt64 = 0
        var failures = 0
        var timer: Task<Void, Never>?
        var watcher: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<ServerSyncOutcome, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())
    private let wakes: AsyncStream<Wake>.Continuation
    private let task: Task<Void, Never>

    init(engine: ServerSyncEngine, interval: Duration?, backoff: ServerSyncBackoff, environment: ServerSyncEnvironment)
    {
        let (stream, continuation) = AsyncStream.makeStream(of: Wake.self)
        wakes = continuation
        let state = self.state
        task = Task {
            for await wake in stream {
                let current = state.withLock { $0.generation }
                let outcome: ServerSyncOutcome
                switch wake {
                case .scheduled(let generation), .changed(let generation):
                    guard generation == current else { continue }
                    outcome = await Self.perform(engine, state: state)
                case .demand:
                    outcome = await Self.perform(engine, state: state)
                case .watchFailed(let error, let generation):
                    guard generation == current else { continue }
                    outcome = await engine.fail(error)
                }
                if Task.isCancelled { break }
                Self.schedule(
                    after: outcome, engine: engine, state: state, wakes: continuation, interval: interval,
                    backoff: backoff, environment: environment)
            }
            Self.finish(state)
        }
    }

    /// Runs one sync and hands its outcome to everyone who asked for a sync before it started.
    private static func perform(_ engine: ServerSyncEngine, state: Locked<State>) async -> ServerSyncOutcome {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        let outcome = await engine.perform()
        for waiter in waiters { waiter.resume(returning: outcome) }
        return outcome
    }

    /// Arms the timer for the next sync (and the source's change watch), replacing the previous ones.
    private static func schedule(
        after outcome: ServerSyncOutcome, engine: ServerSyncEngine, state: Locked<State>,
        wakes: AsyncStream<Wake>.Continuation, interval: Duration?, backoff: ServerSyncBackoff,
        environment: ServerSyncEnvironment
    ) {
        state.withLock { state in
            state.generation += 1
            state.timer?.cancel()
            state.watcher?.cancel()
            state.timer = nil
            state.watcher = nil
            guard state.started, !state.stopped else { return }
            let generation = state.generation
            let delay: Duration?
            if let error = outcome.error {
                state.failures += 1
                let backedOff = backoff.delay(afterFailures: state.failures, random: environment.random())
                // A server's Retry-After (429, 503) is a floor: the backoff may wait longer, never shorter.
                delay = max(backedOff, error.retryAfter ?? .zero)
            } else {
                state.failures = 0
                delay = interval
            }
            if let delay {
                state.timer = Task {
                    do {
                        try await environment.sleep(delay)
                    } catch {
                        return
                    }
                    wakes.yield(.scheduled(generation))
                }
            }
            if outcome.error == nil, engine.source.pushesChanges {
                let source = engine.source
                let validators = engine.status.validators
                state.watcher = Task {
                    do throws(ServerSyncError) {
                        try await source.waitForChange(after: validators)
                        wakes.yield(.changed(generation))
                    } catch {
                        if !Task.isCancelled { wakes.yield(.watchFailed(error, generation)) }
                    }
                }
            }
        }
    }

    /// Resumes everyone still waiting for a sync: there will be none.
    private static func finish(_ state: Locked<State>) {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: .failed(.stopped)) }
    }

    /// Starts the schedule with a sync now.
    func start() {
        let generation = state.withLock { state -> UInt64? in
            guard !state.started, !state.stopped else { return nil }
            state.started = true
            return state.generation
        }
        if let generation { wakes.yield(.scheduled(generation)) }
    }

    /// A sync now, performed in turn with the others.
    func syncNow() async -> ServerSyncOutcome {
        await withCheckedContinuation { continuation in
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.waiters[state.nextWaiter] = continuation
                state.nextWaiter += 1
                return true
            }
            if accepted {
                wakes.yield(.demand)
            } else {
                continuation.resume(returning: .failed(.stopped))
            }
        }
    }

    /// Stops everything; waiting callers get a "stopped" outcome.
    func stop() {
        let (timer, watcher) = state.withLock { state in
            state.stopped = true
            return (state.timer, state.watcher)
        }
        timer?.cancel()
        watcher?.cancel()
        task.cancel()
        wakes.finish()
        Self.finish(state)
    }
}
