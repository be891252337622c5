package import Foundation

/// The clock, the sleep and the randomness a ``ServerValuesSync`` uses, replaceable so tests can check its timing
/// without waiting (a sleep that records what it was asked and returns at once).
package struct ServerSyncEnvironment: Sendable {
    /// The current time, for status times.
    package var now: @Sendable () -> Date
    /// Waits for a duration; throws when the waiting task is cancelled.
    package var sleep: @Sendable (Duration) async throws -> Void
    /// A random number in `0..<1`, for the backoff's jitter.
    package var random: @Sendable () -> Double

    package init(
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The real clock and `Task.sleep`.
    package static let live = ServerSyncEnvironment(
        now: { Date() },
        sleep: { try await Task.sleep(for: $0) },
        random: { Double.random(in: 0..<1) }
    )
}
