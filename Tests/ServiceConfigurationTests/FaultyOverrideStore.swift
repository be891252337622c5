import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Synchronization

/// A small override store (instances sharing one backing storage, raw entries, history) that breaks one guarantee
/// on purpose: run against the conformance suite, it shows that the check of that guarantee can fail.
final class FaultyOverrideStore: OverrideStore {
    /// The guarantee broken, or none.
    enum Fault: Sendable, CaseIterable {
        case none
        /// Holds each notification back until the next change, then delivers both, the newer first.
        case reordersNotifications
        /// Saves what a throwing body changed before it threw.
        case savesThrowingChange
        /// `modify(keys:_:_:)` hands its body every entry and saves whatever it sets.
        case keyedModifyChangesOtherKeys
        /// Reads, runs the body, waits a little and writes the whole result: concurrent changes are lost.
        case losesConcurrentUpdates
        /// Starts a change from what this instance last read, not from the storage.
        case overwritesBlindly
        /// Drops preserved fields when writing.
        case dropsPreservedFields
        /// Drops quarantined entries when writing another key.
        case losesQuarantinedEntries
        /// Announces every key of the store instead of those that changed.
        case announcesEveryKey
        /// Never hears of other instances' changes.
        case deaf
        /// Accepts any entry, however large.
        case ignoresLimits
        /// Accepts any number of entries (it declares the file store's limit on the total).
        case ignoresTotalSize
        /// `removeValue(forKey:)` does nothing.
        case removeValueDoesNothing
        /// `removeAll()` keeps quarantined entries.
        case removeAllKeepsQuarantined
        /// Records history newest first.
        case historyNewestFirst
    }

    /// The storage instances share: entries, raw entries that cannot be used, history, the instances listening.
    final class Backing: Sendable {
        struct Contents: Sendable {
            var entries: [String: OverrideEntry] = [:]
            var bad: [String: String] = [:]
            var history: [OverrideJournalRecord] = []
        }
        let contents = Locked(Contents())
        let listeners = Locked<[@Sendable (OverrideStoreChange) -> Void]>([])
    }

    let backing: Backing
    let fault: Fault
    private let cache = Locked(Backing.Contents())
    private let held = Locked<OverrideStoreChange?>(nil)
    private let observers = Locked<[Int: @Sendable (OverrideStoreChange) -> Void]>([:])
    private let nextID = Atomic(0)

    init(fault: Fault, backing: Backing = Backing()) {
        self.fault = fault
        self.backing = backing
        if fault != .deaf && fault != .overwritesBlindly {
            backing.listeners.withLock { listeners in
                listeners.append { [weak self] change in self?.heard(change) }
            }
        }
    }

    var location: String { "faulty" }
    var entries: [String: OverrideEntry] { cache.withLock { $0.entries } }
    func entry(forKey key: String) -> OverrideEntry? { cache.withLock { $0.entries[key] } }
    var problems: [OverrideStoreProblem] {
        cache.withLock { $0.bad }.sorted { $0.key < $1.key }.map {
            OverrideStoreProblem(key: $0.key, field: nil, reason: "not a string value", storedJSON: $0.value)
        }
    }
    var lastError: OverrideStoreError? { nil }
    var liveReloadProblem: String? { nil }

    @discardableResult
    func reload() -> OverrideStoreError? {
        let now = backing.contents.withLock { $0 }
        cache.withLock { $0 = now }
        return nil
    }

    @discardableResult
    func startWatching(_ mode: OverrideStoreWatchMode) -> String { "shared memory" }

    func history() -> OverrideHistory {
        let records = backing.contents.withLock { $0.history }
        return OverrideHistory(records: fault == .historyNewestFirst ? records.reversed() : records)
    }

    func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try modify(.change, body)
    }

    func modify(
        keys: Set<String>, _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        if fault == .keyedModifyChangesOtherKeys { return try modify(reason, body) }
        try modify(reason) { entries in
            var subset = entries.filter { keys.contains($0.key) }
            try body(&subset)
            for key in keys { entries[key] = subset[key] }
        }
    }

    func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        let url = URL(string: "faulty:")!
        if fault == .losesConcurrentUpdates {
            var changed = backing.contents.withLock { $0.entries }
            do { try body(&changed) } catch { throw OverrideStoreError(url: url, kind: .io, problem: "\(error)") }
            usleep(2000)
            let result = changed
            backing.contents.withLock { $0.entries = result }
            reload()
            return
        }
        let outcome = backing.contents.withLock { contents -> Result<OverrideStoreChange?, OverrideStoreError> in
            let before = fault == .overwritesBlindly ? cache.withLock { $0.entries } : contents.entries
            var changed = before
            do {
                try body(&changed)
            } catch {
                if fault == .savesThrowingChange { contents.entries = changed }
                return .failure(OverrideStoreError(url: url, kind: .io, problem: "\(error)"))
            }
            var changes: [String: OverrideEntry?] = [:]
            for key in Set(before.keys).union(changed.keys) where before[key] != changed[key] {
                if var entry = changed[key] {
                    if fault != .ignoresLimits, let violation = OverrideStoreLimits.violation(key: key, entry: entry) {
                        return .failure(OverrideStoreError(url: url, kind: .limitExceeded, problem: violation))
                    }
                    if fault == .dropsPreservedFields { entry.preservedFields = [:] }
                    changed[key] = entry
                }
                changes[key] = changed[key]
                contents.bad[key] = nil
            }
            let total = changed.reduce(0) { $0 + $1.key.utf8.count + $1.value.value.utf8.count }
            if fault != .ignoresTotalSize, total > OverrideStoreLimits.maximumFileSize {
                return .failure(OverrideStoreError(url: url, kind: .limitExceeded, problem: "\(total) bytes in all"))
            }
            if fault == .losesQuarantinedEntries { contents.bad = [:] }
            contents.entries = changed
            guard !changes.isEmpty else { return .success(nil) }
            contents.history.append(
                OverrideJournalRecord(
                    id: UUID().uuidString, time: Date(), origin: origin, reason: reason,
                    changes: changes.keys.sorted().map {
                        OverrideJournalRecord.Change(key: $0, old: before[$0], new: changed[$0])
                    }))
            return .success(OverrideStoreChange(changes: changes))
        }
        guard let change = try outcome.get() else { return }
        reload()
        announce(change)
        for listener in backing.listeners.withLock({ $0 }) { listener(change) }
    }

    func removeValue(forKey key: String) throws(OverrideStoreError) {
        guard fault != .removeValueDoesNothing else { return }
        let wasBad = backing.contents.withLock { $0.bad.removeValue(forKey: key) != nil }
        if wasBad { reload() }
        try modify(OverrideChangeReason(.reset)) { $0[key] = nil }
    }

    func removeAll() throws(OverrideStoreError) {
        if fault != .removeAllKeepsQuarantined { backing.contents.withLock { $0.bad = [:] } }
        try modify(OverrideChangeReason(.reset)) { $0.removeAll() }
        reload()
    }

    func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        let id = nextID.add(1, ordering: .relaxed).newValue
        observers.withLock { $0[id] = handler }
        return ConfigurationObservation { [weak self] in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
    }

    /// Puts `json` as the entry of `key` into the storage: a usable entry when its value is a string (its other
    /// fields preserved), otherwise a quarantined one.
    func writeRaw(key: String, json: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        backing.contents.withLock { contents in
            guard let value = object["value"] as? String else {
                contents.bad[key] = json
                contents.entries[key] = nil
                return
            }
            var preserved: [String: String] = [:]
            for (name, field) in object where name != "value" {
                let data = try? JSONSerialization.data(withJSONObject: field, options: [.fragmentsAllowed])
                preserved[name] = data.map { String(decoding: $0, as: UTF8.self) }
            }
            contents.entries[key] = OverrideEntry(value: value, setAt: nil, preservedFields: preserved)
        }
    }

    /// Another instance's change, heard through the shared storage.
    private func heard(_ change: OverrideStoreChange) {
        let now = backing.contents.withLock { $0.entries }
        let mine = cache.withLock { $0.entries }
        guard now != mine else { return }
        reload()
        announce(change)
    }

    private func announce(_ change: OverrideStoreChange) {
        var delivered = [change]
        switch fault {
        case .reordersNotifications:
            delivered = held.withLock { held in
                defer { held = held == nil ? change : nil }
                return held.map { [change, $0] } ?? []
            }
        case .announcesEveryKey:
            delivered = [
                OverrideStoreChange(changes: Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }))
            ]
        default: break
        }
        let handlers = observers.withLock { Array($0.values) }
        for change in delivered { for handler in handlers { handler(change) } }
    }

    /// The conformance suite's view of faulty stores with `fault`, sharing storage per store made.
    static func backend(_ fault: Fault) -> OverrideStoreConformance.Backend {
        OverrideStoreConformance.Backend(
            name: "FaultyOverrideStore(\(fault))",
            makeStore: { FaultyOverrideStore(fault: fault) },
            makeSecondInstance: { store in
                let first = store as! FaultyOverrideStore
                return FaultyOverrideStore(fault: first.fault, backing: first.backing)
            },
            writeRawEntry: { store, key, json in try (store as! FaultyOverrideStore).writeRaw(key: key, json: json) },
            limitsTotalSize: true,
            watchTimeout: .seconds(1))
    }
}
