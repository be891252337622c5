import Foundation
package import ServiceConfiguration

/// Reads what the menu shows from the service and the override store, and collects the keys that changed since
/// the last look (from the service's notifications, the store's, and the menu's own writes).
final class MenuDataSource: Sendable {
    let table: KeyTable
    let service: any ConfigurationService
    let store: FileOverrideStore?
    /// Where server values come from, if the menu knows.
    let serverSync: (any ServerValuesSyncing)?
    private let pending = Locked<Set<String>>([])
    /// The server status last observed, to find the keys a new status marks or unmarks.
    private let observedServer = Locked<ServerSyncStatus?>(nil)
    /// The outcomes of syncs asked for in the menu, not yet shown.
    private let syncOutcomes = Locked<[ServerSyncOutcome]>([])
    /// Keys the menu itself changed since the last update; every other change came from elsewhere.
    private let own = Locked<Set<String>>([])
    /// Keys to show again without counting as changed: those a new last server change marks or unmarks.
    private let remarked = Locked<Set<String>>([])
    /// The store problem the menu last showed, so a new one (a refused file) is shown even if no key changed.
    private let shownProblem = Locked<String?>(nil)
    /// The server status the menu last showed.
    private let shownServer = Locked<ServerSyncStatus?>(nil)
    private let observations: [ConfigurationObservation]

    init(
        table: KeyTable, service: any ConfigurationService, store: FileOverrideStore?,
        serverSync: (any ServerValuesSyncing)? = nil
    ) {
        self.table = table
        self.service = service
        self.store = store
        self.serverSync = serverSync
        let pending = self.pending
        var observations = [service.observe { names in pending.withLock { $0.formUnion(names) } }]
        if let store {
            observations.append(store.observe { change in pending.withLock { $0.formUnion(change.changedKeys) } })
        }
        if let serverSync {
            let observedServer = self.observedServer
            let remarked = self.remarked
            observations.append(
                serverSync.observeStatus { status in
                    // When the last change is a new one, the keys it marks (before and now) are shown again: an
                    // overridden key's server value can change without its effective value changing.
                    let marked = observedServer.withLock { previous -> Set<String> in
                        defer { previous = status }
                        guard previous?.lastChange != status.lastChange else { return [] }
                        return (previous?.lastChange?.keys ?? []).union(status.lastChange?.keys ?? [])
                    }
                    if !marked.isEmpty { remarked.withLock { $0.formUnion(marked) } }
                })
        }
        self.observations = observations
    }

    /// Everything, for the first frame.
    func initialData(label: String) -> MenuData {
        pending.withLock { $0.removeAll() }
        remarked.withLock { $0.removeAll() }
        var data = MenuData(
            table: table, service: service, overrideStore: store, label: label, syncChanges: syncChanges)
        if let serverSync {
            let status = serverSync.status
            observedServer.withLock { $0 = status }
            shownServer.withLock { $0 = status }
            data.server = display(status)
        }
        shownProblem.withLock { $0 = data.storeProblem }
        return data
    }

    /// Marks keys as changed by the menu itself (after its own write, whose effect may not change any effective
    /// value): they are refreshed, and not reported as changed elsewhere.
    func markChanged(_ names: some Sequence<String>) {
        let names = Set(names)
        pending.withLock { $0.formUnion(names) }
        own.withLock { $0.formUnion(names) }
    }

    /// The previous server value of each key the last server sync changed.
    private var syncChanges: [String: String?] { serverSync?.status.lastChange?.previousValues ?? [:] }

    /// The status as the menu shows it, with the last sync placed on the loop's clock.
    private func display(_ status: ServerSyncStatus) -> ServerSyncDisplay {
        ServerSyncDisplay(
            status: status, clock: ProcessInfo.processInfo.systemUptime, date: Date(),
            followsSnapshot: !(serverSync is ServerValuesSync))
    }

    /// Runs a sync in the background; its outcome comes back through ``takeSyncOutcomes()``.
    func startSync() {
        guard let serverSync else { return }
        let outcomes = syncOutcomes
        Task {
            let outcome = await serverSync.sync()
            outcomes.withLock { $0.append(outcome) }
        }
    }

    /// The outcomes of finished syncs not yet shown.
    func takeSyncOutcomes() -> [ServerSyncOutcome] {
        syncOutcomes.withLock { outcomes in
            defer { outcomes.removeAll() }
            return outcomes
        }
    }

    /// The statuses of the keys that changed since the last call, or `nil` if none did.
    func takeUpdate() -> MenuDataUpdate? {
        let names = pending.withLock { names -> Set<String> in
            defer { names.removeAll() }
            return names
        }
        let mine = own.withLock { own -> Set<String> in
            defer { own.removeAll() }
            return own
        }
        let shownAgain = remarked.withLock { remarked -> Set<String> in
            defer { remarked.removeAll() }
            return remarked
        }
        let problem = store?.lastError?.description
        let problemChanged = shownProblem.withLock { shown in
            defer { shown = problem }
            return shown != problem
        }
        let server = serverSync.flatMap { serverSync -> ServerSyncDisplay? in
            let current = serverSync.status
            let changed = shownServer.withLock { shown -> Bool in
                defer { shown = current }
                return shown != current
            }
            return changed ? display(current) : nil
        }
        guard !names.isEmpty || !shownAgain.isEmpty || problemChanged || server != nil else { return nil }
        let context = Context(service: service, store: store, syncChanges: syncChanges)
        var statuses: [Int: KeyStatus] = [:]
        for name in names.union(shownAgain) {
            guard let index = table.index(of: name) else { continue }
            statuses[index] = context.status(of: table.keys[index].descriptor)
        }
        return MenuDataUpdate(
            statuses: statuses, orphans: context.orphans(table), storeProblem: problem,
            changedElsewhere: names.subtracting(mine), time: ProcessInfo.processInfo.systemUptime, server: server)
    }

    /// The layers as of one moment, so a refresh reads each dictionary once.
    fileprivate struct Context {
        let server: [String: String]
        let overrides: [String: String]
        let entries: [String: OverrideEntry]
        let syncChanges: [String: String?]

        init(service: any ConfigurationService, store: FileOverrideStore?, syncChanges: [String: String?] = [:]) {
            server = service.serverValues
            overrides = service.overrides
            entries = store?.entries ?? [:]
            self.syncChanges = syncChanges
        }

        /// The key's status, resolved by the same algorithm the service uses.
        func status(of descriptor: ConfigurationKeyDescriptor) -> KeyStatus {
            let name = descriptor.name
            let resolution = descriptor.resolve(override: overrides[name], server: server[name])
            var rejections = resolution.rejections
            // A server value the key rejects is a problem even while an override hides it: QA must still see it.
            if resolution.source == .overridden, let serverValue = server[name] {
                do {
                    _ = try descriptor.validate(serverValue)
                } catch {
                    rejections.append(
                        ConfigurationRejection(source: .server, rawValue: serverValue, reason: "\(error)"))
                }
            }
            return KeyStatus(
                value: resolution.value,
                source: resolution.source,
                serverValue: server[name],
                override: overrides[name].map { OverrideInfo(value: $0, entry: entries[name]) },
                rejections: rejections,
                syncChange: syncChanges[name].map { SyncChange(previous: $0) }
            )
        }

        func orphans(_ table: KeyTable) -> [OrphanStatus] {
            overrides.keys.filter { table.index(of: $0) == nil }.sorted().map { name in
                OrphanStatus(name: name, override: OverrideInfo(value: overrides[name]!, entry: entries[name]))
            }
        }
    }
}

extension MenuData {
    /// Everything the menu shows about `table`'s keys, read from `service` (and `overrideStore` for each
    /// override's metadata) at one moment.
    package init(
        table: KeyTable, service: any ConfigurationService, overrideStore: FileOverrideStore?, label: String,
        syncChanges: [String: String?] = [:]
    ) {
        let context = MenuDataSource.Context(service: service, store: overrideStore, syncChanges: syncChanges)
        self.init(
            table: table,
            statuses: table.keys.map { context.status(of: $0.descriptor) },
            orphans: context.orphans(table),
            label: label,
            storePath: overrideStore?.url.path,
            storeProblem: overrideStore?.lastError?.description
        )
    }
}
