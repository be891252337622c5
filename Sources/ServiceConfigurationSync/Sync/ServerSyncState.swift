public import Foundation

/// Where a program's server values stand. One model for every source (HTTP, etcd, ...).
///
/// ```swift
/// switch sync.status.state {
/// case .fresh(let at): print("synced at \(at)")
/// case .cached(let since): print("last known values from \(since); syncing")
/// case .stale(let since, let reason): print("values from \(since); the last sync failed: \(reason)")
/// case .error(let reason): print("no server values yet: \(reason)")
/// case .waiting: print("waiting for the first sync")
/// }
/// ```
public enum ServerSyncState: Sendable, Hashable {
    /// No values yet and no sync finished: the first sync is under way.
    case waiting
    /// The last sync succeeded (a 200 or a 304) at this time.
    case fresh(at: Date)
    /// The values come from the persisted snapshot of a sync at this time; no sync has finished since start.
    case cached(since: Date)
    /// The last sync failed; the values are those of the last good sync, at `since`.
    case stale(since: Date, reason: String)
    /// The last sync failed and there are no values at all (never synced, no snapshot).
    case error(reason: String)

    /// The state's name: `waiting`, `fresh`, `cached`, `stale` or `error` (as `config-menu status` prints it).
    public var name: String {
        switch self {
        case .waiting: "waiting"
        case .fresh: "fresh"
        case .cached: "cached"
        case .stale: "stale"
        case .error: "error"
        }
    }

    /// The failure's reason, for ``stale(since:reason:)`` and ``error(reason:)``.
    public var reason: String? {
        switch self {
        case .stale(_, let reason), .error(let reason): reason
        case .waiting, .fresh, .cached: nil
        }
    }
}
