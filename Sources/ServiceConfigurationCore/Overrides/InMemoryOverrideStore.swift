import Foundation

/// Overrides kept in memory, with their metadata: what a ``LiveConfigurationService`` without a file uses, and
/// what the mock uses, so both write overrides exactly as a file-backed service does.
///
/// ```swift
/// let service = LiveConfigurationService(serverValues: lastSync)    // an InMemoryOverrideStore inside
/// try service.setOverride(rawValue: "Y", forKeyNamed: "function.album.like.enabled", note: "QA 12")
/// service.overrideStore.entry(forKey: "function.album.like.enabled")?.note   // "QA 12"
/// ```
///
/// It refuses what the file store's readers would refuse (``OverrideStoreLimits``), so an export of it always
/// reads back.
public final class InMemoryOverrideStore: OverrideStore {
    private let state: Locked<[String: OverrideEntry]>
    private let observers = ObserverRegistry<OverrideStoreChange>()
    private let journal = Locked<[OverrideJournalRecord]>([])
    private let originState: Locked<OverrideChangeOrigin>

    /// How many changes the history keeps (the oldest go first).
    public static let historyLimit = 1000

    /// Creates a store holding `entries`, whose changes its history records as made by `origin`.
    public init(entries: [String: OverrideEntry] = [:], origin: OverrideChangeOrigin = .program()) {
        state = Locked(entries)
        originState = Locked(origin)
    }

    /// Who this store's changes are recorded as made by.
    public var origin: OverrideChangeOrigin {
        get { originState.withLock { $0 } }
        set { originState.withLock { $0 = newValue } }
    }

    /// The changes made so far (at most ``historyLimit``), oldest first.
    public func history() -> OverrideHistory { OverrideHistory(records: journal.withLock { $0 }) }

    /// `memory`.
    public var location: String { "memory" }

    /// The overrides.
    public var entries: [String: OverrideEntry] { state.withLock { $0 } }

    /// The override of `key`, if any.
    public func entry(forKey key: String) -> OverrideEntry? { state.withLock { $0[key] } }

    /// None: memory holds only valid entries.
    public var problems: [OverrideStoreProblem] { [] }

    /// None.
    public var lastError: OverrideStoreError? { nil }

    /// None: every change is made here.
    public var liveReloadProblem: String? { nil }

    /// Nothing to read again.
    @discardableResult
    public func reload() -> OverrideStoreError? { nil }

    /// Always live.
    @discardableResult
    public func startWatching(_ mode: OverrideStoreWatchMode) -> String { "memory" }

    /// Changes the overrides as one change; entries past ``OverrideStoreLimits`` are refused, and nothing changes.
    public func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try modify(.change, body)
    }

    /// ``modify(_:)``, recorded in the history with `reason`.
    public func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        let url = URL(string: "memory:overrides")!
        let origin = origin
        let outcome = state.withLock { entries -> Result<OverrideStoreChange?, OverrideStoreError> in
            var changed = entries
            do {
                try body(&changed)
            } catch {
                return .failure(OverrideStoreError(url: url, kind: .io, problem: "the change was refused: \(error)"))
            }
            var changes: [String: OverrideEntry?] = [:]
            for key in Set(entries.keys).union(changed.keys) where entries[key] != changed[key] {
                if let entry = changed[key], let violation = OverrideStoreLimits.violation(key: key, entry: entry) {
                    return .failure(OverrideStoreError(url: url, kind: .limitExceeded, problem: violation))
                }
                changes[key] = changed[key]
            }
            if !changes.isEmpty {
                let now = Date()
                let record = OverrideJournalRecord(
                    id: OverrideJournalRecord.makeID(time: now), time: now, origin: origin, reason: reason,
                    before: entries, after: changed, keys: changes.keys)
                journal.withLock { records in
                    records.append(record)
                    if records.count > Self.historyLimit { records.removeFirst(records.count - Self.historyLimit) }
                }
            }
            entries = changed
            return .success(changes.isEmpty ? nil : OverrideStoreChange(changes: changes))
        }
        if let change = try outcome.get() { observers.notify(change) }
    }

    /// Removes the override of `key`.
    public func removeValue(forKey key: String) throws(OverrideStoreError) {
        try modify(OverrideChangeReason(.reset)) { $0[key] = nil }
    }

    /// Removes every override.
    public func removeAll() throws(OverrideStoreError) {
        try modify(OverrideChangeReason(.reset)) { $0.removeAll() }
    }

    /// Calls `handler` after every change with the keys that changed.
    public func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        observers.add(handler)
    }
}
