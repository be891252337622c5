/// A registration for change notifications; call ``cancel()`` (or let it be deallocated) to stop them.
///
/// ```swift
/// let observation = service.observe { changedNames in print("changed:", changedNames.sorted()) }
/// // ... later
/// observation.cancel()
/// ```
public final class ConfigurationObservation: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    /// A registration that calls `cancel` once, on the first ``cancel()`` or when deallocated: what your own
    /// ``ConfigurationReader`` returns from ``ConfigurationReader/observe(_:finish:)`` (a reader whose values never
    /// change passes an empty closure).
    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Locked(cancel)
    }

    /// Stops the notifications. Safe to call more than once and from any thread.
    public func cancel() {
        let action = cancellation.withLock { stored -> (@Sendable () -> Void)? in
            defer { stored = nil }
            return stored
        }
        action?()
    }

    deinit {
        cancel()
    }
}
