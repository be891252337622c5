package import Foundation

/// The time an override layer decides expiry by, and how it waits for the next expiry: the system clock in
/// programs, a clock the test moves by hand in tests (so expiry is tested without sleeping).
package protocol OverrideClock: Sendable {
    /// The current time.
    var now: Date { get }

    /// Calls `action` once, at `deadline` or soon after (on any thread), unless the returned observation is cancelled
    /// first.
    func schedule(at deadline: Date, _ action: @escaping @Sendable () -> Void) -> ConfigurationObservation
}

/// The system's wall clock: a deadline follows the clock if it is set (it is an absolute time, as `expiresAt` is).
package struct SystemOverrideClock: OverrideClock {
    /// The longest single wait; a later deadline is reached by waiting again (the layer re-checks when woken).
    static let longestWait: TimeInterval = 86_400

    package init() {}

    package var now: Date { Date() }

    package func schedule(at deadline: Date, _ action: @escaping @Sendable () -> Void) -> ConfigurationObservation {
        let cancelled = Locked(false)
        let delay = min(max(0, deadline.timeIntervalSinceNow), Self.longestWait)
        // A few milliseconds late rather than early: the layer compares with `now` when woken.
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + delay + 0.005) {
            if !cancelled.withLock({ $0 }) { action() }
        }
        return ConfigurationObservation { cancelled.withLock { $0 = true } }
    }
}
