import Foundation
package import ServiceConfiguration

/// Reads what the menu shows from the service and the override store, and collects the keys that changed since
/// the last look (from the service's notifications, the store's, and the menu's own writes).
final class MenuDataSource: Sendable {
    let table: KeyTable
    let service: any ConfigurationService
    let store: FileOverrideStore?
    private let pending = Locked<Set<String>>([])
    /// Keys the menu itself changed since the last update; every other change came from elsewhere.
    private let own = Locked<Set<String>>([])
    /// The store problem the menu last showed, so a new one (a refused file) is shown even if no key changed.
    private let shownProblem = Locked<String?>(nil)
    private let observations: [ConfigurationObservation]

    init(table: KeyTable, service: any ConfigurationService, store: FileOverrideStore?) {
        self.table = table
        self.service = service
        self.store = store
        let pending = self.pending
        var observations = [service.observe { names in pending.withLock { $0.formUnion(names) } }]
        if let store {
            observations.append(store.observe { change in pending.withLock { $0.formUnion(change.changedKeys) } })
        }
        self.observations = observations
    }

    /// Everything, for the first frame.
    func initialData(label: String) -> MenuData {
        pending.withLock { $0.removeAll() }
        let data = MenuData(table: table, service: service, overrideStore: store, label: label)
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
        let problem = store?.lastError?.description
        let problemChanged = shownProblem.withLock { shown in
            defer { shown = problem }
            return shown != problem
        }
        guard !names.isEmpty || problemChanged else { return nil }
        let context = Context(service: service, store: store)
        var statuses: [Int: KeyStatus] = [:]
        for name in names {
            guard let index = table.index(of: name) else { continue }
            statuses[index] = context.status(of: table.keys[index].descriptor)
        }
        return MenuDataUpdate(
            statuses: statuses, orphans: context.orphans(table), storeProblem: problem,
            changedElsewhere: names.subtracting(mine), time: ProcessInfo.processInfo.systemUptime)
    }

    /// The layers as of one moment, so a refresh reads each dictionary once.
    fileprivate struct Context {
        let server: [String: String]
        let overrides: [String: String]
        let entries: [String: OverrideEntry]

        init(service: any ConfigurationService, store: FileOverrideStore?) {
            server = service.serverValues
            overrides = service.overrides
            entries = store?.entries ?? [:]
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
                rejections: rejections
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
    package init(table: KeyTable, service: any ConfigurationService, overrideStore: FileOverrideStore?, label: String) {
        let context = MenuDataSource.Context(service: service, store: overrideStore)
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
