/// How long a ``ServerValuesSync`` waits before retrying after failures: exponential, with jitter, capped.
///
/// The n-th retry waits `initial × 2^(n-1)`, at most ``maximum``, multiplied by a random factor in
/// `1 ± jitter` (and never more than ``maximum``). With the defaults: about 1 s, 2 s, 4 s, ... up to 60 s. The
/// jitter keeps a fleet of programs that lost the server at the same moment from retrying in step.
///
/// ```swift
/// let backoff = ServerSyncBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0.2)
/// backoff.delay(afterFailures: 3, random: 0.5)   // 4 s
/// ```
public struct ServerSyncBackoff: Sendable, Hashable {
    /// The wait after the first failure (before jitter).
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration
    /// The random spread, as a fraction of the wait (0.2: ±20%), from 0 to 1.
    public var jitter: Double

    /// Creates a backoff policy.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = min(1, max(0, jitter))
    }

    /// The wait before the next attempt after `failures` failures in a row (1 or more); `random` is a number in
    /// `0..<1` that picks the jitter.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let exponent = min(max(failures, 1) - 1, 40)
        var nominal = initial
        for _ in 0..<exponent where nominal < maximum { nominal *= 2 }
        nominal = min(nominal, maximum)
        let factor = 1 + jitter * (2 * min(max(random, 0), 1) - 1)
        return min(maximum, nominal * factor)
    }
}
