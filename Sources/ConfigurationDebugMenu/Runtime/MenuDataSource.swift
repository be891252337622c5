package import Foundation
package import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// Reads what the menu shows from the service, its override store and (when known) the source of server values,
/// and collects the keys that changed since the last look (from the service's notifications, the store's, the
/// server status, and the menu's own writes).
package final class MenuDataSource: Sendable {
    let table: KeyTable
    let service: any ConfigurationService
    /// Where server values come from, if the menu knows.
    let serverSync: (any ServerSyncMonitor)?
    /// The folder of scenarios, if there is one.
    let scenariosFolder: URL?
    /// Keys that changed since the last update, and those of them the menu itself changed (every other change came
    /// from elsewhere), under one lock: the store worker marks its own changes while the loop takes updates.
    private let pending = Locked(ChangedKeys())

    private struct ChangedKeys: Sendable {
        var all: Set<String> = []
        var own: Set<String> = []
    }
    /// Keys to show again without counting as changed: those a new last server change marks or unmarks.
    private let remarked = Locked<Set<String>>([])
    /// The server status last observed, to find the keys a new status marks or unmarks.
    private let observedServer = Locked<ServerSyncStatus?>(nil)
    /// The server status the menu last showed, with the writer of the snapshot it follows.
    private let shownServer = Locked<ShownServer?>(nil)

    /// What the server line was drawn from, to tell when it must be drawn again.
    private struct ShownServer: Equatable, Sendable {
        var status: ServerSyncStatus
        var writer: ServerSyncDisplay.Writer?
    }
    /// The outcomes of syncs asked for in the menu, not yet shown.
    private let syncOutcomes = Locked<[ServerSyncOutcome]>([])
    /// The store problems the menu last showed, so new ones are shown even if no key's value changed.
    private let shownProblems = Locked<StoreProblems?>(nil)
    private let observations: [ConfigurationObservation]
    /// The reports of the programs that use the store: which keys they read.
    let coverage: ProgramCoverageSource

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

    /// The statuses read while the table was built (``init(catalog:service:serverSync:scenariosFolder:)``), until
    /// ``initialData(label:)`` takes them.
    private let firstReading = Locked<MenuData.FirstReading?>(nil)

    /// Where the table comes from.
    private enum TableSource {
        /// Built already.
        case table(KeyTable)
        /// To build from the catalog, on another thread while this one reads every key's status.
        case catalog(ConfigurationCatalog)
    }

    /// A source for `catalog`'s keys. The table is built on another thread while this one reads every key's status
    /// for the first frame (at 100,000 keys the table takes about 50 ms and the statuses 35, so on two cores the
    /// menu opens about 35 ms sooner). The statuses are read after the source listens for changes, so a change made meanwhile reaches the
    /// first update.
    package convenience init(
        catalog: ConfigurationCatalog, service: any ConfigurationService, serverSync: (any ServerSyncMonitor)? = nil,
        scenariosFolder: URL? = nil
    ) {
        self.init(source: .catalog(catalog), service: service, serverSync: serverSync, scenariosFolder: scenariosFolder)
    }

    /// A source for `table`'s keys; every status is read for the first frame by ``initialData(label:)``.
    convenience init(
        table: KeyTable, service: any ConfigurationService, serverSync: (any ServerSyncMonitor)? = nil,
        scenariosFolder: URL? = nil
    ) {
        self.init(source: .table(table), service: service, serverSync: serverSync, scenariosFolder: scenariosFolder)
    }

    private init(
        source: TableSource, service: any ConfigurationService, serverSync: (any ServerSyncMonitor)?,
        scenariosFolder: URL?
    ) {
        let built = Locked<KeyTable?>(nil)
        let building = DispatchGroup()
        if case .catalog(let catalog) = source {
            DispatchQueue.global(qos: .userInitiated).async(group: building) {
                let table = KeyTable(catalog: catalog)
                built.withLock { $0 = table }
            }
        }
        self.service = service
        self.serverSync = serverSync
        coverage = ProgramCoverageSource(store: service.overrideStore)
        self.scenariosFolder = scenariosFolder
        let pending = self.pending
        var observations = [
            service.observe { names in pending.withLock { $0.all.formUnion(names) } },
            service.overrideStore.observe { change in pending.withLock { $0.all.formUnion(change.changedKeys) } },
        ]
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
        switch source {
        case .table(let table):
            self.table = table
        case .catalog(let catalog):
            let reading = ConfigurationLayersReading(service: service)
            var statuses = KeyStatuses.Kept(capacity: catalog.keyCount)
            // In the table's order: scope by scope, in the catalog's.
            for scope in catalog.scopes {
                for descriptor in scope.keys { statuses.append(statusIn: reading, of: descriptor) }
            }
            firstReading.withLock { $0 = MenuData.FirstReading(reading: reading, statuses: statuses) }
            building.wait()
            // The table is built by now; were it not, it is built here rather than shown without keys.
            self.table = built.withLock { $0 } ?? KeyTable(catalog: catalog)
        }
    }

    /// Everything, for the first frame.
    package func initialData(label: String) -> MenuData {
        let first = firstReading.withLock { first in
            defer { first = nil }
            return first
        }
        // Changes noted before a reading made now are in it; those since the first reading are not.
        if first == nil { pending.withLock { $0 = ChangedKeys() } }
        remarked.withLock { $0.removeAll() }
        shownProblems.withLock { $0 = StoreProblems(service.overrideStore) }
        var data = MenuData(
            table: table, service: service, label: label, syncChanges: syncChanges,
            scenariosFolder: scenariosFolder?.path, first: first)
        data.coverage = coverage.current(now: ProcessInfo.processInfo.systemUptime)
        if let serverSync {
            let status = serverSync.status
            let writer = snapshotWriter()
            observedServer.withLock { $0 = status }
            shownServer.withLock { $0 = ShownServer(status: status, writer: writer) }
            data.server = display(status, writer: writer)
        }
        return data
    }

    /// Marks keys as changed by the menu itself (after its own write, whose effect may not change any effective
    /// value): they are refreshed, and not reported as changed elsewhere.
    func markChanged(_ names: some Sequence<String>) {
        let names = Set(names)
        pending.withLock { keys in
            keys.all.formUnion(names)
            keys.own.formUnion(names)
        }
    }

    /// The previous server value of each key the last server sync changed.
    private var syncChanges: [String: String?] { serverSync?.status.lastChange?.previousValues ?? [:] }

    /// The status as the menu shows it, with the last sync placed on the loop's clock.
    private func display(_ status: ServerSyncStatus, writer: ServerSyncDisplay.Writer?) -> ServerSyncDisplay {
        ServerSyncDisplay(
            status: status, clock: ProcessInfo.processInfo.systemUptime, date: Date(),
            followsSnapshot: !(serverSync is ServerValuesSync), writer: writer)
    }

    /// The program whose sync wrote the snapshot the menu follows, and whether it still runs, judged now.
    private func snapshotWriter() -> ServerSyncDisplay.Writer? {
        guard let follower = serverSync as? ServerSnapshotFollower, let writer = follower.writer else { return nil }
        guard !writer.isCurrentProcess else {
            return ServerSyncDisplay.Writer(
                name: writer.programName, pid: writer.processIdentifier, liveness: .thisMenu,
                program: follower.program.map { .init(name: $0.programName, isRunning: $0.isRunning) })
        }
        return ServerSyncDisplay.Writer(
            name: writer.programName, pid: writer.processIdentifier, liveness: writer.isRunning ? .running : .ended)
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

    /// The statuses of the keys that changed since the last call, or `nil` if nothing did.
    func takeUpdate() -> MenuDataUpdate? {
        let changed = pending.withLock { keys -> ChangedKeys in
            defer { keys = ChangedKeys() }
            return keys
        }
        var names = changed.all
        let mine = changed.own
        let shownAgain = remarked.withLock { remarked -> Set<String> in
            defer { remarked.removeAll() }
            return remarked
        }
        let problems = StoreProblems(service.overrideStore)
        let previous = shownProblems.withLock { shown in
            defer { shown = problems }
            return shown
        }
        if let previous, previous.entries != problems.entries {
            names.formUnion(Set(previous.entries.map(\.key)).symmetricDifference(problems.entries.map(\.key)))
        }
        let server = serverSync.flatMap { serverSync -> ServerSyncDisplay? in
            // The writer's liveness is judged on every look: a program that ends changes no file.
            let current = ShownServer(status: serverSync.status, writer: snapshotWriter())
            let changed = shownServer.withLock { shown -> Bool in
                defer { shown = current }
                return shown != current
            }
            return changed ? display(current.status, writer: current.writer) : nil
        }
        let coverage = coverage.poll(now: ProcessInfo.processInfo.systemUptime)
        guard !names.isEmpty || !shownAgain.isEmpty || previous != problems || server != nil || coverage != nil else {
            return nil
        }
        // Every change reaches the history: read it again (the store reads its journal only when it changed).
        let history = names.isEmpty ? nil : service.overrideStore.history()
        let snapshot = ConfigurationLayersReading(service: service)
        var statuses: [Int: ConfigurationKeyStatus] = [:]
        for name in names.union(shownAgain) {
            guard let index = table.index(of: name) else { continue }
            statuses[index] = snapshot.status(of: table.keys[index].descriptor)
        }
        return MenuDataUpdate(
            statuses: statuses, orphans: snapshot.orphans { table.index(of: $0) != nil },
            storeProblem: problems.lastError, liveReloadProblem: problems.liveReload,
            changedElsewhere: names.subtracting(mine), time: ProcessInfo.processInfo.systemUptime, server: server,
            syncChanges: server == nil && shownAgain.isEmpty ? nil : syncChanges, coverage: coverage,
            history: history)
    }
}

extension MenuData {
    /// The service's layers read once, and every key's status in the table's order from that reading.
    package struct FirstReading: Sendable {
        /// The reading.
        let reading: ConfigurationLayersReading
        /// Every key's status from it, in the table's order.
        let statuses: KeyStatuses.Kept
    }

    /// Everything the menu shows about `table`'s keys, read from `service` and its override store at one moment
    /// (the statuses from `first`, when given).
    package init(
        table: KeyTable, service: any ConfigurationService, label: String, syncChanges: [String: String?] = [:],
        scenariosFolder: String? = nil, first: FirstReading? = nil
    ) {
        let snapshot = first?.reading ?? ConfigurationLayersReading(service: service)
        let store = service.overrideStore
        self.init(
            table: table,
            statuses: KeyStatuses(table: table, kept: first?.statuses ?? Self.statuses(of: table, in: snapshot)),
            orphans: snapshot.orphans { table.index(of: $0) != nil },
            label: label,
            storeLocation: store.location,
            storeProblem: store.lastError?.description,
            liveReloadProblem: store.liveReloadProblem,
            overridesApply: service.overridesApply,
            syncChanges: syncChanges,
            history: store.history(),
            origin: store.origin,
            scenariosFolder: scenariosFolder
        )
    }

    /// Every key's status in `reading`, in `table`'s order.
    private static func statuses(of table: KeyTable, in reading: ConfigurationLayersReading) -> KeyStatuses.Kept {
        var statuses = KeyStatuses.Kept(capacity: table.keys.count)
        for key in table.keys { statuses.append(statusIn: reading, of: key.descriptor) }
        return statuses
    }
}
