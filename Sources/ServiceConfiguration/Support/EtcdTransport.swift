/// How an ``EtcdClient`` reaches etcd's JSON gateway: ``EtcdSocketTransport`` for `etcd://` (HTTP),
/// ``EtcdURLSessionTransport`` for `etcds://` (HTTPS, where Foundation's URLSession can be trusted with etcd's
/// answers; see ``EtcdEndpoint``).
protocol EtcdTransport: Sendable {
    /// POSTs `body` to `path` and returns the whole answer (at most `limit` bytes), within `timeout` seconds;
    /// `cancellation` stops it from another thread.
    func post(
        _ path: String, body: [UInt8], token: String?, timeout: Double, limit: Int, cancellation: EtcdCancellation?
    ) throws(EtcdError) -> (status: Int, body: [UInt8])

    /// POSTs `body` to `path` and follows the answer as a stream of lines: `onLine` gets each line of a 200 answer
    /// (at most `limit` bytes each), then `onEnd` how the answer ended (an answer other than 200 with its body).
    /// Both are called in order from one thread of the transport; `cancellation` stops the stream, after which
    /// `onEnd` may or may not be called. A stream silent for `silenceLimit` seconds ends with a failure.
    func stream(
        _ path: String, body: [UInt8], token: String?, limit: Int, silenceLimit: Double,
        cancellation: EtcdCancellation, onLine: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (EtcdTransferOutcome) -> Void)
}

/// How a transfer ended.
enum EtcdTransferOutcome: Sendable {
    /// etcd answered with this status; `body` is the whole answer (for a stream: what followed the last line).
    case answer(status: Int, body: [UInt8])
    /// The transfer failed or was refused.
    case failure(EtcdError)
}

/// Lets another thread cancel a running ``EtcdClient`` call or watch.
package final class EtcdCancellation: Sendable {
    private struct State: Sendable {
        var cancelled = false
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Cancels the call under way, and every later one made with this object.
    package func cancel() {
        // The actions run under the lock, so one never runs after its owner detached it (and closed what it uses).
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
}
