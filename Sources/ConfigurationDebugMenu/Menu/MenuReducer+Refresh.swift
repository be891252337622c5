import ServiceConfiguration
import ServiceConfigurationFileStore

extension MenuReducer {
    // MARK: Refreshing

    /// How long a change made elsewhere stays marked in the list.
    static let changeMarkSeconds = 5.0

    /// Applies refreshed statuses, orphans, the store problem and the server status, and marks changes made
    /// elsewhere. A key that now holds what a pending change of the menu's asks for was changed by the menu, not
    /// elsewhere (its own change arriving, late or through a watch); a change the store had not answered is then
    /// saved. Returns the update as applied: its ``MenuDataUpdate/changedElsewhere`` holds only the keys another
    /// process visibly changed.
    @discardableResult
    static func apply(_ update: MenuDataUpdate, to state: inout MenuState) -> MenuDataUpdate {
        var update = update
        update.changedElsewhere = visiblyChanged(update, in: state).filter { !isPendingArrival($0, update, state) }
        // An override whose time came (or whose server value changed) expired here, not in another process.
        let expired = update.changedElsewhere.filter { name in
            guard let index = state.data.table.index(of: name), let new = update.statuses[index] else { return false }
            return new.isExpired && !state.data.statuses[index].isExpired
                && new.override == state.data.statuses[index].override
        }
        update.changedElsewhere.subtract(expired)
        let before = state.problems
        for (index, status) in update.statuses where state.data.statuses.indices.contains(index) {
            state.data.setStatus(status, at: index)
        }
        state.data.orphans = update.orphans
        state.data.storeProblem = update.storeProblem
        state.data.liveReloadProblem = update.liveReloadProblem
        if let syncChanges = update.syncChanges { state.data.syncChanges = syncChanges }
        if let coverage = update.coverage { state.data.coverage = coverage }
        if let history = update.history { state.data.history = history }
        state.clock = max(state.clock, update.time)
        if let server = update.server {
            let showed = state.data.showsServerLine
            state.data.server = server
            // The line takes a row from the list when it appears: keep the selection in view.
            if showed != state.data.showsServerLine { state.list.keepVisible(visibleRows: state.visibleKeyRows) }
        }
        state.refreshList()
        state.logProblems(since: before)
        if let name = expired.sorted().first {
            state.inform(
                (expired.count == 1 ? "Expired: \(name)" : "Expired: \(expired.count) overrides")
                    + " (no longer applied; P removes expired overrides)")
        }
        let updated = Set(update.statuses.keys.map { state.data.table.keys[$0].descriptor.name })
            .union(update.orphans.map(\.name))
        settleArrivals(&state, updated: updated)
        guard !update.changedElsewhere.isEmpty else { return update }
        for name in update.changedElsewhere { state.changedElsewhere[name] = update.time }
        let shown = update.changedElsewhere.sorted()
        if shown.count == 1, let index = state.data.table.index(of: shown[0]) {
            state.inform("Changed elsewhere: \(shown[0]) = \(state.data.statuses[index].value ?? "—")")
        } else {
            state.inform("Changed elsewhere: \(shown.count == 1 ? shown[0] : "\(shown.count) keys")")
        }
        return update
    }

    /// Whether the key or orphan named `name` now holds, in `update`, the override value a pending change of the
    /// menu's asks for.
    static func isPendingArrival(_ name: String, _ update: MenuDataUpdate, _ state: MenuState) -> Bool {
        guard let pending = state.pendingValue(of: name) else { return false }
        let now: OverrideEntry?
        if let index = state.data.table.index(of: name) {
            now = update.statuses[index]?.override ?? state.data.statuses[index].override
        } else {
            now = update.orphans.first { $0.name == name }?.override
        }
        return now?.value == pending.value
    }

    /// Ends the unanswered changes whose every key now holds what they asked for, when a refresh brought one of
    /// them (`updated`): they were saved after all.
    static func settleArrivals(_ state: inout MenuState, updated: Set<String>) {
        for change in state.pending
        where change.unanswered != nil && change.values.keys.contains(where: updated.contains) {
            let arrived = change.values.allSatisfy { name, value in state.currentOverride(name)?.value == value }
            if arrived {
                state.settle(change.id, applied: true, now: change.values)
            }
        }
    }

    /// The keys of `update.changedElsewhere` whose change shows: their status (or orphaned override) differs from
    /// what the menu shows. A late notice of the menu's own save (a watcher reading the file back) changes none of
    /// them and is not reported as a change made elsewhere.
    static func visiblyChanged(_ update: MenuDataUpdate, in state: MenuState) -> Set<String> {
        let orphans = Dictionary(state.data.orphans.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newOrphans = Dictionary(update.orphans.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return update.changedElsewhere.filter { name in
            guard let index = state.data.table.index(of: name) else { return orphans[name] != newOrphans[name] }
            guard let new = update.statuses[index], state.data.statuses.indices.contains(index) else { return false }
            return state.data.statuses[index] != new
        }
    }
}
