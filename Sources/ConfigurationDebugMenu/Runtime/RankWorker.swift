import Dispatch
import ServiceConfiguration

/// Ranks the key list for a new query on a thread of its own, so that typing into the filter of a big catalog never
/// waits for it: the keystroke is drawn at once, the rows when they are ready (``MenuState/requery(selectFirst:)``).
///
/// Only the newest ranking asked for matters. Asking for another one stops the one under way at its next check (every
/// few thousand keys) and skips any that has not started; a result is kept only for the newest. The loop takes it
/// with ``takeResult()`` and gives it to the reducer as ``MenuFeedback/ranked(_:id:)``, which adopts it only if the
/// list still waits for that ranking.
final class RankWorker: Sendable {
    private let queue = DispatchQueue(label: "config-menu.rank")
    private let group = DispatchGroup()
    /// The id of the newest ranking asked for.
    private let newest = Locked(0)
    private let result = Locked<(list: KeyList, id: Int)?>(nil)
    /// Runs before each ranking starts (tests hold a ranking back with it).
    private let beforeRanking: @Sendable () -> Void

    /// Creates a worker; `beforeRanking` runs on its thread before each ranking.
    init(beforeRanking: @escaping @Sendable () -> Void = {}) {
        self.beforeRanking = beforeRanking
    }

    /// The id of the newest ranking asked for (0: none yet, or none wanted since ``submitNothing()``).
    var newestID: Int { newest.withLock { $0 } }

    /// Ranks `list`'s pending ranking for `data` and `filters`, superseding any ranking asked for before.
    func submit(_ list: KeyList, data: MenuData, filters: KeyFilters, visibleRows: Int) {
        guard let pending = list.pendingRank else { return }
        newest.withLock { $0 = pending.id }
        group.enter()
        queue.async {
            defer { self.group.leave() }
            self.beforeRanking()
            let isStale: () -> Bool = { self.newest.withLock { $0 } != pending.id }
            guard !isStale() else { return }
            var ranked = list
            let finished = ranked.refresh(
                data: data, filters: filters, visibleRows: visibleRows, selectFirst: pending.selectFirst,
                shouldStop: isStale)
            guard finished else { return }
            self.result.withLock { result in
                if !isStale() { result = (ranked, pending.id) }
            }
        }
    }

    /// Stops the ranking under way, if any, and drops any result not yet taken: the list waits for none.
    func submitNothing() {
        newest.withLock { $0 = 0 }
        result.withLock { $0 = nil }
    }

    /// Waits until no ranking is waiting or under way, at most `seconds`; returns whether it is so.
    @discardableResult
    func waitUntilIdle(timeout seconds: Double) -> Bool {
        group.wait(timeout: .now() + seconds) == .success
    }

    /// The newest finished ranking not yet taken, as feedback for the reducer.
    func takeResult() -> MenuFeedback? {
        result.withLock { result in
            defer { result = nil }
            return result.map { .ranked($0.list, id: $0.id) }
        }
    }
}
