import ServiceConfigurationTesting

/// Polls `condition` every `interval` until it holds; returns whether it did within `seconds` of polling.
///
/// A sleep that comes back more than a second late counts as one second (see the conformance suite's
/// `poll(within:every:_:)`, which this is): what a test polls for is often work of the test process itself (a sync's
/// task, a store's watcher), which a starved process stalls together with the poller, or a child process the poller
/// wakes too late to see in time. A wait that cannot succeed lasts `seconds` plus the time the process was starved.
public func poll(
    within seconds: Double, every interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    try await ServiceConfigurationTesting.poll(within: .seconds(seconds), every: interval, condition)
}
