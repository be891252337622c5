import Foundation
import ServiceConfiguration

/// A clock the test moves by hand: scheduled actions run, in deadline order, when ``advance(by:)`` passes their time.
final class ManualClock: OverrideClock {
    private struct Timer: Sendable {
        var id: Int
        var deadline: Date
        var action: @Sendable () -> Void
    }

    private struct State: Sendable {
        var now: Date
        var timers: [Timer] = []
        var nextID = 0
    }

    private let state: Locked<State>

    init(now: Date = Date(timeIntervalSince1970: 1_764_425_100)) {
        state = Locked(State(now: now))
    }

    var now: Date { state.withLock { $0.now } }

    /// How many timers are waiting.
    var pending: Int { state.withLock { $0.timers.count } }

    func schedule(at deadline: Date, _ action: @escaping @Sendable () -> Void) -> ConfigurationObservation {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.timers.append(Timer(id: state.nextID, deadline: deadline, action: action))
            return state.nextID
        }
        let state = self.state
        return ConfigurationObservation { state.withLock { $0.timers.removeAll { $0.id == id } } }
    }

    /// Moves the clock forward and runs every action whose time has come (those they schedule too, if due).
    func advance(by seconds: TimeInterval) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
        while true {
            let due = state.withLock { state -> Timer? in
                guard
                    let index = state.timers.indices.filter({ state.timers[$0].deadline <= state.now })
                        .min(by: { state.timers[$0].deadline < state.timers[$1].deadline })
                else { return nil }
                return state.timers.remove(at: index)
            }
            guard let due else { return }
            due.action()
        }
    }
}
