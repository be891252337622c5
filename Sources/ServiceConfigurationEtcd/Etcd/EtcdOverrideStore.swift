public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFileStore
package import ServiceConfigurationSync

/// Debug overrides shared by every machine that reaches one etcd cluster: one key per override under a prefix,
/// changed by transactions, live in every program through a watch.
///
/// ```swift
/// let store = try EtcdOverrideStore(url: URL(string: "etcd://10.0.0.5:2379/shop/overrides")!)
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store)   // reads, then watches
/// ```
///
/// Layout: the override of `function.album.like.enabled` is the etcd key `/shop/overrides/function.album.like.enabled`
/// holding the entry's JSON exactly as a line of ``FileOverrideStore``'s file holds it
/// (`{"note": "QA 12", "serverValueWhenSet": "N", "setAt": "2026-11-30T14:05:00.000Z", "value": "Y"}`), so unknown
/// fields (``OverrideEntry/preservedFields``) round-trip and `etcdctl get --prefix /shop/overrides/` is readable.
///
/// The file store's promises, on etcd:
/// - **No lost writes**: each change is one transaction that compares the `mod_revision` of every key it changes
///   with what this store last saw; on a conflict (another writer got there first) it starts again from the
///   prefix as it now is (read in the same round trip) and `body` runs again. Changes of different keys never
///   conflict. A change of more than 128 keys (etcd's `--max-txn-ops`) or about 1 MiB is made in several
///   transactions.
/// - **Live**: ``startWatching(_:)`` follows the prefix with a watch from the revision after the last read, set up
///   again with backoff when the stream drops (resuming from the last revision seen) and after a full read when
///   those revisions were compacted; every 30 s it checks that etcd still answers (an etcd that hangs closes
///   nothing), and ``liveReloadProblem`` says when it is down.
/// - **Tolerant**: an entry that is not valid (not JSON, no `"value"`, a key name that is not UTF-8, ...) is kept
///   untouched, listed in ``problems`` and not applied; entries for unknown keys are kept (orphans).
/// - **Bounded**: entries past ``OverrideStoreLimits`` are refused before anything is written.
/// - **History**: every change is recorded (who, on which machine, when, why, each key's entry before and after) in
///   the same transaction as the change, so a change and its record land together or not at all. The records are
///   keys beside the prefix, `/shop/overrides.journal/<id>` (one ``OverrideJournalRecord`` line each, as the file
///   store's journal holds them), outside the range the overrides are read and watched from; the newest
///   ``historyLimit`` are kept. ``history()`` reads them, so `config-menu history`, `undo` and `redo` work on a
///   shared store.
///
/// When etcd cannot be reached, the overrides last read keep applying (they are in memory; nothing is cached on
/// disk, so a program started while etcd is down has none until it connects) and changes fail with
/// ``OverrideStoreError/Kind/io`` saying so; nothing is lost, and the watch catches up when etcd is back. A change
/// whose transaction was sent but not answered in time (an etcd that hangs) fails with
/// ``OverrideStoreError/Kind/outcomeUnknown``: it may have been made, or may be made when etcd runs again; the next
/// successful read (``reload()``, or the watch) tells.
public final class EtcdOverrideStore: OverrideStore {
    /// The store's address, without credentials: `etcd://HOST:PORT/PREFIX`.
    public let url: URL
    package let client: EtcdClient
    private let backoff: ServerSyncBackoff

    /// Who this store's changes are recorded as made by, with this machine's host name.
    public let origin: OverrideChangeOrigin
    /// How many records the history keeps (the oldest are deleted after a change passes it).
    public let historyLimit: Int

    /// How many changes the history keeps by default.
    public static let defaultHistoryLimit = 1000

    private struct State: Sendable {
        var records: EtcdOverrideRecords
        var lastError: OverrideStoreError?
        var watcher: EtcdOverrideWatcher?
        var journalProblem: String?
    }

    private let state: Locked<State>
    private let observers = ObserverRegistry<OverrideStoreChange>()

    /// The most keys one transaction changes (etcd's default `--max-txn-ops`).
    static let operationsPerTransaction = 128
    /// The most bytes of values one transaction carries (etcd refuses requests over 1.5 MiB by default).
    static let bytesPerTransaction = 1 << 20
    /// How long a change keeps trying while other writers win the race for the same keys (each attempt is one
    /// round trip); then it gives up, saying so. Bounded by time, not by a count: under heavy contention a writer may
    /// lose many rounds in a row, and only the end of the contention ends that.
    static let conflictTimeout: Double = 10

    /// Creates a store for `etcd://[USER:PASSWORD@]HOST[:PORT]/PREFIX` (`etcds://` for HTTPS). Nothing is read
    /// until the first ``reload()`` or change. Credentials the URL does not hold come from `CONFIG_ETCD_USER`
    /// (`USER:PASSWORD`) or `CONFIG_ETCD_TOKEN`; for `etcds://`, `CONFIG_ETCD_CA_FILE` names the PEM file of
    /// certificate authorities to trust instead of the system's (the server's certificate is always checked).
    ///
    /// - Parameters:
    ///   - url: `etcd://HOST:PORT/PREFIX`, with `USER:PASSWORD@` before the host when etcd has authentication on.
    ///   - timeout: the longest one call to etcd may take (a change may make several).
    ///   - environment: where `CONFIG_ETCD_USER`, `CONFIG_ETCD_TOKEN` and `CONFIG_ETCD_CA_FILE` are read.
    ///   - origin: who the history records this store's changes as made by (this machine's host name is added).
    /// - Throws: ``OverrideStoreError`` (``OverrideStoreError/Kind/io``) for a URL that names no etcd prefix, or a
    ///   CA file that cannot be read.
    public convenience init(
        url: URL, timeout: Duration = .seconds(5),
        environment: [String: String] = ProcessInfo.processInfo.environment, origin: OverrideChangeOrigin = .program()
    ) throws(OverrideStoreError) {
        let endpoint: EtcdEndpoint
        do {
            endpoint = try EtcdEndpoint(url: url, environment: environment)
        } catch {
            throw OverrideStoreError(url: url, kind: .io, problem: error.reason)
        }
        self.init(endpoint: endpoint, timeout: timeout, origin: origin)
    }

    /// Creates a store for `endpoint`, with the watch's backoff, the interval of its checks that etcd still
    /// answers (``EtcdClient/watchCheckInterval``) and the history's length replaceable (for tests).
    package init(
        endpoint: EtcdEndpoint, timeout: Duration = .seconds(5),
        backoff: ServerSyncBackoff = ServerSyncBackoff(initial: .milliseconds(500), maximum: .seconds(30)),
        watchCheckInterval: Duration? = .seconds(30), origin: OverrideChangeOrigin = .program(),
        historyLimit: Int = EtcdOverrideStore.defaultHistoryLimit
    ) {
        self.origin = origin.on(host: origin.host ?? OverrideChangeOrigin.currentHost)
        self.historyLimit = max(1, historyLimit)
        client = EtcdClient(endpoint: endpoint, timeout: timeout, watchCheckInterval: watchCheckInterval)
        url = URL(string: endpoint.location) ?? endpoint.baseURL
        self.backoff = backoff
        state = Locked(State(records: EtcdOverrideRecords(endpoint: endpoint)))
    }

    deinit {
        stopWatching()
    }

    // MARK: Reading

    /// `etcd://HOST:PORT/PREFIX`.
    public var location: String { client.endpoint.location }

    /// The overrides as last read, watched or written; entries that are not valid are not among them.
    public var entries: [String: OverrideEntry] { state.withLock { $0.records.entries } }

    /// The override of `key`, if any.
    public func entry(forKey key: String) -> OverrideEntry? { state.withLock { $0.records.entries[key] } }

    /// Entries kept but not applied, and metadata fields that could not be read, sorted by key.
    public var problems: [OverrideStoreProblem] { state.withLock { $0.records.problems } }

    /// The last problem reading or writing etcd, or `nil` when the last read or write succeeded.
    public var lastError: OverrideStoreError? { state.withLock { $0.lastError } }

    /// Why changes made elsewhere are not arriving now (the watch is down and being set up again), if so.
    public var liveReloadProblem: String? { state.withLock { $0.watcher }?.problem }

    /// What the store knows of its prefix now.
    var records: EtcdOverrideRecords { state.withLock { $0.records } }

    /// Reads the whole prefix and notifies observers of the keys that changed; returns the problem, if any. When
    /// etcd cannot be reached the overrides last read stay.
    @discardableResult
    public func reload() -> OverrideStoreError? {
        do throws(EtcdError) {
            _ = try read()
            return nil
        } catch {
            return record(failure(error, doing: "cannot read the overrides from etcd", keeping: true))
        }
    }

    /// Reads the prefix, applies it (a read of a new cluster at the same address replaces what was known), announces
    /// what changed; returns the revision read and the cluster that answered.
    private func read() throws(EtcdError) -> (revision: Int64, clusterID: String?) {
        let knownBefore = state.withLock { $0.records.highestRevision }
        let range = try client.range()
        let change = state.withLock { state -> OverrideStoreChange? in
            state.lastError = nil
            return Self.change(state.records.apply(range, knownBefore: knownBefore), in: state.records)
        }
        if let change { observers.notify(change) }
        return (range.revision, range.clusterID)
    }

    // MARK: Writing

    /// Changes the overrides with `body` as one change, from what etcd holds now, saved before returning.
    ///
    /// `body` sees the usable entries; entries that are not valid stay unless `body` sets their key. It may run
    /// more than once: after a conflict with another writer it runs again on the entries as they then are, so it
    /// must only change the dictionary it is given.
    public func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try modify(replacingAll: false, reason: .change, body)
    }

    /// ``modify(_:)``, recorded in the history with `reason` (in the same transaction as the change).
    public func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try modify(replacingAll: false, reason: reason, body)
    }

    /// ``modify(_:)``, optionally starting from no entries at all (entries that are not valid included), recorded
    /// with `reason`.
    package func modify(
        replacingAll: Bool, reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try commit(reason) { records throws(OverrideStoreError) in
            var entries = replacingAll ? [:] : records.entries
            do {
                try body(&entries)
            } catch {
                throw OverrideStoreError(url: url, kind: .io, problem: "the change was refused: \(error)")
            }
            var changes: [EtcdClient.Change] = []
            for name in Set(records.entries.keys).union(entries.keys) {
                // Times are kept to the millisecond, as in the file: an entry read back equals the one written.
                var entry = entries[name]
                if let setAt = entry?.setAt { entry?.setAt = Timestamp.truncatedToMilliseconds(setAt) }
                guard records.entries[name] != entry else { continue }
                if let entry, let violation = OverrideStoreLimits.violation(key: name, entry: entry) {
                    throw OverrideStoreError(url: url, kind: .limitExceeded, problem: violation + "; nothing was saved")
                }
                changes.append(
                    EtcdClient.Change(key: client.endpoint.key(name), value: entry.map(OverrideDocument.encodedEntry)))
            }
            if replacingAll {
                // What the entries cannot show goes too: entries that are not valid, keys that are not UTF-8.
                let changing = Set(changes.map(\.key))
                for key in records.liveKeys where !changing.contains(key) {
                    if let name = client.endpoint.name(ofKey: key), records.entries[name] != nil { continue }
                    changes.append(EtcdClient.Change(key: key, value: nil))
                }
            }
            return Plan(changes: changes, before: records.entries, after: entries)
        }
    }

    /// Removes the override of `key`, an entry that is not valid included.
    public func removeValue(forKey key: String) throws(OverrideStoreError) {
        let etcdKey = client.endpoint.key(key)
        // Also when this store knows no such key: the comparison then finds out whether another writer just made it.
        try commit(OverrideChangeReason(.reset)) { records in
            var after = records.entries
            after[key] = nil
            return Plan(changes: [EtcdClient.Change(key: etcdKey, value: nil)], before: records.entries, after: after)
        }
    }

    /// Removes every key under the prefix (entries that are not valid included) in one deletion, recorded as a
    /// reset. The deletion holds only if no key changed since the prefix was last read (else it reads it again and
    /// retries), so the record lists what was removed.
    public func removeAll() throws(OverrideStoreError) {
        let endpoint = client.endpoint
        try commit(OverrideChangeReason(.reset)) { records in
            Plan(
                changes: [EtcdClient.Change(key: endpoint.prefix, value: nil, rangeEnd: endpoint.rangeEnd)],
                before: records.entries, after: [:],
                comparisons: [
                    EtcdClient.Comparison(
                        key: endpoint.prefix, modRevision: records.rangeRevision + 1, rangeEnd: endpoint.rangeEnd)
                ])
        }
    }

    /// What one change sends: the keys it changes, the entries before and after (for its history record), and
    /// comparisons beyond those of the keys it changes.
    private struct Plan {
        var changes: [EtcdClient.Change]
        var before: [String: OverrideEntry]
        var after: [String: OverrideEntry]
        var comparisons: [EtcdClient.Comparison] = []
    }

    /// The one write path: `plan` says what to change given what this store knows; the changes go to etcd in a
    /// transaction that holds only if every key changed is still as known, with the change's history record (by
    /// `reason`) in the same transaction. On a conflict, the prefix as it then is (read in the same round trip) is
    /// applied and `plan` runs again. A plan too large for one transaction is committed in parts (each part atomic;
    /// the record goes with the last part). After a recorded change, the history is cut to ``historyLimit``.
    private func commit(
        _ reason: OverrideChangeReason,
        _ plan: (EtcdOverrideRecords) throws(OverrideStoreError) -> Plan
    ) throws(OverrideStoreError) {
        var conflicts = 0
        let started = DispatchTime.now().uptimeNanoseconds
        if !state.withLock({ $0.records.hasRead }) {
            do throws(EtcdError) {
                _ = try read()
            } catch {
                throw record(failure(error, doing: "cannot read the overrides from etcd", keeping: false))
            }
        }
        planning: while true {
            // The comparisons are with what the plan saw, not with what the store knows when it sends: another
            // thread's change landing meanwhile (in etcd and in this store) must fail them, or this change, made from
            // the older view, would overwrite it.
            let planned = state.withLock { $0.records }
            let made = try plan(planned)
            var batches = Self.batches(made.changes, record: journalChange(made, reason: reason))[...]
            while let batch = batches.first {
                let knownBefore = state.withLock { $0.records.highestRevision }
                let comparisons =
                    batch.filter { $0.rangeEnd == nil }.map {
                        EtcdClient.Comparison(key: $0.key, modRevision: planned.modRevision(of: $0.key))
                    } + made.comparisons
                let outcome: EtcdClient.TransactionOutcome
                do {
                    outcome = try client.transaction(comparing: comparisons, changes: batch)
                } catch {
                    throw record(failure(error, doing: "cannot save to etcd", keeping: false))
                }
                switch outcome {
                case .committed(let revision):
                    let change = state.withLock { state -> OverrideStoreChange? in
                        state.lastError = nil
                        var changed: Set<String> = []
                        for item in batch where client.endpoint.name(ofKey: item.key) != nil {
                            if item.rangeEnd != nil {
                                for key in state.records.liveKeys {
                                    changed.formUnion(state.records.apply(key: key, value: nil, revision: revision))
                                }
                            } else {
                                changed.formUnion(
                                    state.records.apply(key: item.key, value: item.value, revision: revision))
                            }
                        }
                        return Self.change(changed, in: state.records)
                    }
                    if let change { observers.notify(change) }
                    batches.removeFirst()
                    if batches.isEmpty, batch.last?.key.starts(with: client.endpoint.journalPrefix) == true {
                        trimHistory()
                    }
                case .conflict(let range):
                    // Read in the same round trip; from a new cluster, it replaces what was known (whose revisions
                    // would otherwise conflict for ever).
                    let change = state.withLock {
                        Self.change($0.records.apply(range, knownBefore: knownBefore), in: $0.records)
                    }
                    if let change { observers.notify(change) }
                    conflicts += 1
                    guard Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 < Self.conflictTimeout else {
                        throw record(
                            OverrideStoreError(
                                url: url, kind: .io,
                                problem: "other writers changed the same overrides \(conflicts) times in "
                                    + "\(Int(Self.conflictTimeout)) s while this change was being made; nothing more "
                                    + "was saved, try again"))
                    }
                    // At once, as a winner sends its next change at once: a wait would leave the loser behind again.
                    // A little jitter keeps writers that collided from colliding in step.
                    usleep(UInt32.random(in: 0...500))
                    continue planning
                }
            }
            return
        }
    }

    /// `changes` in transactions of at most ``operationsPerTransaction`` keys and about ``bytesPerTransaction``
    /// bytes, in order, with `record` (the change's history record) in the last one: never alone in a transaction
    /// of its own, which would let the change land without it.
    package static func batches(_ changes: [EtcdClient.Change], record: EtcdClient.Change?) -> [[EtcdClient.Change]] {
        guard !changes.isEmpty else { return [] }
        var batches: [[EtcdClient.Change]] = []
        var batch: [EtcdClient.Change] = []
        var bytes = 0
        for change in changes + (record.map { [$0] } ?? []) {
            let size = change.key.count + (change.value?.count ?? 0) + (change.rangeEnd?.count ?? 0)
            if !batch.isEmpty, batch.count == operationsPerTransaction || bytes + size > bytesPerTransaction {
                batches.append(batch)
                batch = []
                bytes = 0
            }
            batch.append(change)
            bytes += size
        }
        batches.append(batch)
        if record != nil, batches.count > 1, batches[batches.count - 1].count == 1 {
            // The record alone: the last change moves in with it.
            let moved = batches[batches.count - 2].removeLast()
            batches[batches.count - 1].insert(moved, at: 0)
            if batches[batches.count - 2].isEmpty { batches.remove(at: batches.count - 2) }
        }
        return batches
    }

    /// The history record of `plan` as a put of its journal key, `nil` when no entry changes.
    private func journalChange(_ plan: Plan, reason: OverrideChangeReason) -> EtcdClient.Change? {
        let now = Date()
        let record = OverrideJournalRecord(
            id: OverrideJournalRecord.makeID(time: now), time: now, origin: origin, reason: reason,
            before: plan.before, after: plan.after, keys: Set(plan.before.keys).union(plan.after.keys))
        guard !record.changes.isEmpty else { return nil }
        var line = record.encodedLine()
        if line.last == 0x0A { line.removeLast() }
        return EtcdClient.Change(key: client.endpoint.journalPrefix + Array(record.id.utf8), value: line)
    }

    /// Deletes the oldest history records past ``historyLimit``. A failure is kept as the history's problem; the
    /// change stands, and the next change tries again.
    private func trimHistory() {
        let endpoint = client.endpoint
        do throws(EtcdError) {
            let count = try client.count(from: endpoint.journalPrefix, to: endpoint.journalRangeEnd)
            if count > historyLimit {
                let keys = try client.range(from: endpoint.journalPrefix, to: endpoint.journalRangeEnd, keysOnly: true)
                    .keyValues.sorted { $0.modRevision < $1.modRevision }
                var old = keys.prefix(max(0, keys.count - historyLimit))[...]
                while !old.isEmpty {
                    let part = old.prefix(Self.operationsPerTransaction)
                    _ = try client.transaction(comparing: [], changes: part.map { .init(key: $0.key, value: nil) })
                    old = old.dropFirst(part.count)
                }
            }
            state.withLock { $0.journalProblem = nil }
        } catch {
            state.withLock {
                $0.journalProblem =
                    "cannot delete the oldest history records in etcd (\(location)): \(error.reason); the next change "
                    + "tries again"
            }
        }
    }

    // MARK: History

    /// The changes recorded in etcd (beside the prefix, see the type's documentation), oldest first (in the order
    /// etcd committed them). A record that cannot be read (not a record, from a newer build, larger than
    /// ``OverrideJournal/maximumRecordSize``) is counted in ``OverrideHistory/unreadableLines`` and skipped.
    public func history() -> OverrideHistory {
        let endpoint = client.endpoint
        let range: EtcdRange
        do throws(EtcdError) {
            range = try client.range(from: endpoint.journalPrefix, to: endpoint.journalRangeEnd)
        } catch {
            return OverrideHistory(problem: "cannot read the history from etcd (\(location)): \(error.reason)")
        }
        var records: [OverrideJournalRecord] = []
        var unreadable = 0
        for keyValue in range.keyValues.sorted(by: { $0.modRevision < $1.modRevision }) {
            guard keyValue.value.count <= OverrideJournal.maximumRecordSize else {
                unreadable += 1
                continue
            }
            let record = keyValue.value.withUnsafeBufferPointer { buffer in
                try? OverrideJournalRecord(line: buffer)
            }
            if let record { records.append(record) } else { unreadable += 1 }
        }
        return OverrideHistory(
            records: records, unreadableLines: unreadable, problem: state.withLock { $0.journalProblem })
    }

    private func record(_ error: OverrideStoreError) -> OverrideStoreError {
        state.withLock { $0.lastError = error }
        return error
    }

    /// A failed call as the store's error: what was being done, why it failed, and what holds meanwhile.
    private func failure(_ error: EtcdError, doing: String, keeping: Bool) -> OverrideStoreError {
        if error.isRequestTooLarge {
            return OverrideStoreError(
                url: url, kind: .limitExceeded,
                problem: "etcd refused the change: the request is larger than its --max-request-bytes (1.5 MiB by "
                    + "default); nothing was saved")
        }
        if error.kind == .outcomeUnknown {
            return OverrideStoreError(
                url: url, kind: .outcomeUnknown,
                problem: "cannot tell whether the change was saved: the change was sent, and \(error.reason); it may "
                    + "still arrive")
        }
        var problem = "\(doing): \(error.reason)"
        if keeping {
            let (read, count) = state.withLock { ($0.records.hasRead, $0.records.entries.count) }
            problem +=
                read
                ? "; the \(count) override\(count == 1 ? "" : "s") last read keep\(count == 1 ? "s" : "") applying"
                : "; no override from etcd applies until it can be read"
        } else {
            problem += "; nothing was saved"
        }
        return OverrideStoreError(url: url, kind: error.kind == .tooLarge ? .limitExceeded : .io, problem: problem)
    }

    /// The announcement for `names`, with their entries now.
    private static func change(_ names: Set<String>, in records: EtcdOverrideRecords) -> OverrideStoreChange? {
        guard !names.isEmpty else { return nil }
        return OverrideStoreChange(changes: Dictionary(uniqueKeysWithValues: names.map { ($0, records.entries[$0]) }))
    }

    // MARK: Observing

    /// Calls `handler` after every change, made here or seen through the watch, with the keys that changed.
    public func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        observers.add(handler)
    }

    /// Starts following the prefix with an etcd watch (the mode is for files and is ignored); returns
    /// `"etcd watch"`. Reads the prefix first if it was never read.
    @discardableResult
    public func startWatching(_ mode: OverrideStoreWatchMode = .automatic) -> String {
        stopWatching()
        let (revision, cluster) = state.withLock { ($0.records.rangeRevision, $0.records.clusterID) }
        let hooks = EtcdOverrideWatcher.Hooks(
            read: { [weak self] () throws(EtcdError) -> (revision: Int64, clusterID: String?) in
                guard let self else { throw .cancelled }
                do throws(EtcdError) {
                    return try read()
                } catch {
                    _ = record(failure(error, doing: "cannot read the overrides from etcd", keeping: true))
                    throw error
                }
            },
            apply: { [weak self] events in self?.apply(events) },
            connected: { [weak self] in
                self?.state.withLock {
                    if $0.lastError?.kind == .io || $0.lastError?.kind == .outcomeUnknown { $0.lastError = nil }
                }
            })
        let watcher = EtcdOverrideWatcher(
            client: client, from: revision == 0 ? 0 : revision + 1, clusterID: cluster, backoff: backoff, hooks: hooks)
        state.withLock { $0.watcher = watcher }
        return "etcd watch"
    }

    /// Stops following the prefix.
    public func stopWatching() {
        state.withLock { state -> EtcdOverrideWatcher? in
            defer { state.watcher = nil }
            return state.watcher
        }?.stop()
    }

    private func apply(_ events: [EtcdEvent]) {
        let change = state.withLock { state -> OverrideStoreChange? in
            var changed: Set<String> = []
            for event in events {
                changed.formUnion(
                    state.records.apply(
                        key: event.keyValue.key, value: event.isDelete ? nil : event.keyValue.value,
                        revision: event.keyValue.modRevision))
            }
            return Self.change(changed, in: state.records)
        }
        if let change { observers.notify(change) }
    }
}
