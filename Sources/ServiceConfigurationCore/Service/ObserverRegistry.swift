/// The callbacks registered for one kind of event: the engine's change notifications, a store's changes. Every
/// observable type of the package keeps its observers here, so registration, cancellation, ordering and the
/// "handlers run outside the lock" rule are written once.
///
/// Handlers run in registration order, on the thread that calls ``notify(_:)``, with no lock held; a handler may
/// register or cancel observers, or read the object that notified.
package final class ObserverRegistry<Event: Sendable>: Sendable {
    private struct Observer: Sendable {
        var handler: @Sendable (Event) -> Void
        var finish: (@Sendable () -> Void)?
    }

    private struct State: Sendable {
        var observers: [UInt64: Observer] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Locked(State())

    package init() {}

    /// Registers `handler` (and `finish`, called once when the observation ends or the registry finishes); keep the
    /// returned observation alive as long as the calls are wanted.
    package func add(
        _ handler: @escaping @Sendable (Event) -> Void,
        finish: (@Sendable () -> Void)? = nil
    ) -> ConfigurationObservation {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = Observer(handler: handler, finish: finish)
            return state.nextID
        }
        return ConfigurationObservation { [weak self] in
            let removed = self?.state.withLock { $0.observers.removeValue(forKey: id) }
            removed?.finish?()
        }
    }

    /// Whether anyone is listening.
    package var isEmpty: Bool { state.withLock { $0.observers.isEmpty } }

    /// The handlers as of now, in registration order (to call after releasing the caller's own lock).
    package var handlers: [@Sendable (Event) -> Void] {
        state.withLock { $0.observers.sorted { $0.key < $1.key }.map(\.value.handler) }
    }

    /// Calls every handler with `event`.
    package func notify(_ event: Event) {
        for handler in handlers { handler(event) }
    }

    /// Ends every observation: each `finish` runs once and no handler is called again.
    package func finishAll() {
        let observers = state.withLock { state in
            defer { state.observers.removeAll() }
            return state.observers.sorted { $0.key < $1.key }.map(\.value)
        }
        for observer in observers { observer.finish?() }
    }
}
