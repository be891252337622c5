package import Foundation
package import ServiceConfiguration

/// The server values' status as the menu shows it: the status, and when the last good sync happened on the
/// monotonic clock the loop's ticks use, so the age on screen comes from state (tests pass fixed times).
package struct ServerSyncDisplay: Equatable, Sendable {
    /// The status.
    package var status: ServerSyncStatus
    /// The last good sync, in seconds on the monotonic clock of ``MenuAction/tick(_:)``; `nil` when there was none.
    package var lastSyncClock: Double?
    /// Whether the values come from a running program's snapshot (as opposed to a sync this menu runs).
    package var followsSnapshot: Bool

    /// Creates a display.
    package init(status: ServerSyncStatus, lastSyncClock: Double?, followsSnapshot: Bool) {
        self.status = status
        self.lastSyncClock = lastSyncClock
        self.followsSnapshot = followsSnapshot
    }

    /// The display of `status` read at `clock` (monotonic seconds) and `date` (the wall clock at that moment).
    package init(status: ServerSyncStatus, clock: Double, date: Date, followsSnapshot: Bool) {
        self.init(
            status: status, lastSyncClock: status.lastSync.map { clock - date.timeIntervalSince($0) },
            followsSnapshot: followsSnapshot)
    }

    /// Whether there is anything to show (a source is known).
    package var isShown: Bool { !status.source.isEmpty }

    /// How many keys the last change changed.
    package var changedCount: Int { status.lastChange?.previousValues.count ?? 0 }

    /// The status words: `fresh 12 s ago`, `cached since 2026-11-29 14:05 UTC`, `stale: connection refused · last
    /// good 3 min ago`, `error: connection refused`, `waiting for the first sync`.
    package func stateText(clock: Double) -> String {
        let age = lastSyncClock.map { ServerSyncAge.text(seconds: Int((clock - $0).rounded(.down))) + " ago" }
        switch status.state {
        case .waiting: return "waiting for the first sync"
        case .fresh: return "fresh " + (age ?? "")
        case .cached(let since): return "cached since \(ValueText.time(since))"
        case .stale(_, let reason): return "stale: \(reason)" + (age.map { " · last good \($0)" } ?? "")
        case .error(let reason): return "error: \(reason)"
        }
    }

    /// Whether the status is a problem (stale or error), drawn as one.
    package var isProblem: Bool { status.state.reason != nil }
}
