import Foundation
package import ServiceConfiguration

/// Reads what the menu shows from the service and its override store, and collects the keys that changed since
/// the last look (from the service's notifications, the store's, and the menu's own writes).
final class MenuDataSource: Sendable {
    let table: KeyTable
    let service: any ConfigurationService
    private let pending = Locked<Set<String>>([])
    /// Keys the menu itself changed since the last update; every other change came from elsewhere.
    private let own = Locked<Set<String>>([])
    /// The store problems the menu last showed, so new ones are shown even if no key's value changed.
    private let shownProblems = Locked<StoreProblems?>(nil)
    private let observations: [ConfigurationObservation]

    /// What the store reports beyond its entries.
    private struct StoreProblems: Equatable, Sendable {
        var lastError: String?
        var liveReload: String?
        var entries: [OverrideStoreProblem]

        init(_ store: any OverrideStore) {
            lastError = store.lastError?.description
            liveReload = store.liveReloadProblem
            entries = store.problems
        }
    }

    init(table: KeyTable, service: any ConfigurationService) {
        self.table = table
        self.service = service
        let pending = self.pending
        observations = [
            service.observe { names in pending.withLock { $0.formUnion(names) } },
            service.overrideStore.observe { change in pending.withLock { $0.formUnion(change.changedKeys) } },
        ]
    }

    /// Everything, for the first frame.
    func initialData(label: String) -> MenuData {
        pending.withLock { $0.removeAll() }
        shownProblems.withLock { $0 = StoreProblems(service.overrideStore) }
        return MenuData(table: table, service: service, label: label)
    }

    /// Marks keys as changed by the menu itself (after its own write, whose effect may not change any effective
    /// value): they are refreshed, and not reported as changed elsewhere.
    func markChanged(_ names: some Sequence<String>) {
        let names = Set(names)
        pending.withLock { $0.formUnion(names) }
        own.withLock { $0.formUnion(names) }
    }

    /// The statuses of the keys that changed since the last call, or `nil` if nothing did.
    func takeUpdate() -> MenuDataUpdate? {
        var names = pending.withLock { names -> Set<String> in
            defer { names.removeAll() }
            return names
        }
        let mine = own.withLock { own -> Set<String> in
            defer { own.removeAll() }
            return own
        }
        let problems = StoreProblems(service.overrideStore)
        let previous = shownProblems.withLock { shown in
            defer { shown = problems }
            return shown
        }
        if let previous, previous.entries != problems.entries {
            names.formUnion(Set(previous.entries.map(\.key)).symmetricDifference(problems.entries.map(\.key)))
        }
        guard !names.isEmpty || previous != problems else { return nil }
        let snapshot = ConfigurationStatusSnapshot(service: service)
        var statuses: [Int: ConfigurationKeyStatus] = [:]
        for name in names {
            guard let index = table.index(of: name) else { continue }
            statuses[index] = snapshot.status(of: table.keys[index].descriptor)
        }
        return MenuDataUpdate(
            statuses: statuses, orphans: snapshot.orphans { table.index(of: $0) != nil },
            storeProblem: problems.lastError,
            liveReloadProblem: problems.liveReload, changedElsewhere: names.subtracting(mine),
            time: ProcessInfo.processInfo.systemUptime)
    }
}

extension MenuData {
    /// Everything the menu shows about `table`'s keys, read from `service` and its override store at one moment.
    package init(table: KeyTable, service: any ConfigurationService, label: String) {
        let snapshot = ConfigurationStatusSnapshot(service: service)
        let store = service.overrideStore
        self.init(
            table: table,
            statuses: table.keys.map { snapshot.status(of: $0.descriptor) },
            orphans: snapshot.orphans { table.index(of: $0) != nil },
            label: label,
            storeLocation: store.location,
            storeProblem: store.lastError?.description,
            liveReloadProblem: store.liveReloadProblem,
            overridesApply: service.overridesApply
        )
    }
}
