import Foundation
import ServiceConfigurationCore

/// Lets another thread cancel a running exchange of an ``HTTPTransport`` (and the calls of an ``EtcdClient`` built
/// on it).
package final class HTTPCancellation: Sendable {
    private struct State: Sendable {
        var cancelled = false
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Cancels the exchange under way, and every later one made with this object.
    package func cancel() {
        // The actions run under the lock, so one never runs after its owner detached it (and freed what it uses).
        state.withLock { state in
            state.cancelled = true
            for action in state.actions.values { action() }
            state.actions.removeAll()
        }
    }

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Registers what cancelling does (it must not block); `nil` (and nothing registered) when already cancelled.
    func attach(_ action: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { state in
            guard !state.cancelled else { return nil }
            state.next += 1
            state.actions[state.next] = action
            return state.next
        }
    }

    /// Forgets an action registered with ``attach(_:)``; once this returns, it will not run.
    func detach(_ id: UInt64?) {
        guard let id else { return }
        _ = state.withLock { $0.actions.removeValue(forKey: id) }
    }

    /// Runs the blocking `body` on a thread of its own (never the concurrency pool's, which it would hold for as long
    /// as an exchange lasts) and returns its result; cancelling the calling task cancels `body`'s cancellation.
    package static func runBlocking<T: Sendable>(
        _ name: String, _ body: @escaping @Sendable (HTTPCancellation) -> T
    ) async -> T {
        let cancellation = HTTPCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                let thread = Thread { continuation.resume(returning: body(cancellation)) }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
