import ServiceConfigurationCore
import ServiceConfigurationFileStore
/// What an ``EtcdOverrideStore`` knows of its prefix: each key's last known bytes and the revision that knowledge
/// is from, merged from reads of the whole prefix, watch events and the store's own transactions, which can arrive
/// in any order (a watch event may come before or after the answer to the transaction that caused it). Newer
/// knowledge of a key always wins; a deletion is kept (as a tombstone) until a newer read makes it unnecessary.
///
/// Revisions only compare within one cluster: when etcd comes back as a new cluster at the same address (its data
/// wiped, or another cluster behind the name), a read from it replaces everything known, and the difference is
/// announced as changes (see ``apply(_:knownBefore:)``).
struct EtcdOverrideRecords: Sendable {
    /// One key as last known.
    struct Record: Sendable, Hashable {
        /// The revision this knowledge is from: the read's revision, or the change's.
        var seen: Int64
        /// The value; `nil` once deleted.
        var value: [UInt8]?
        /// The revision of the key's last change (0 for a deleted key): what a transaction compares.
        var modRevision: Int64
    }

    let endpoint: EtcdEndpoint
    private(set) var records: [[UInt8]: Record] = [:]
    /// The revision of the newest read of the whole prefix applied (0: never read). Everything up to it is known.
    private(set) var rangeRevision: Int64 = 0
    /// The newest revision anything applied came from (a read, an event, a transaction).
    private(set) var highestRevision: Int64 = 0
    /// The cluster the last read came from (etcd's `cluster_id`), when it said.
    private(set) var clusterID: String?
    /// The usable entries, by key name.
    private(set) var entries: [String: OverrideEntry] = [:]
    /// The problems of each key that has some.
    private(set) var problemsByKey: [String: [OverrideStoreProblem]] = [:]

    init(endpoint: EtcdEndpoint) {
        self.endpoint = endpoint
    }

    /// Whether the prefix was read at least once.
    var hasRead: Bool { rangeRevision > 0 }

    /// Every problem, sorted by key.
    var problems: [OverrideStoreProblem] {
        problemsByKey.keys.sorted { OverrideDocument.precedes($0, $1) }.flatMap { problemsByKey[$0]! }
    }

    /// The revision of `key`'s last change as known (0: absent), to compare in a transaction.
    func modRevision(of key: [UInt8]) -> Int64 { records[key]?.modRevision ?? 0 }

    /// The keys that hold a value (usable, quarantined, or with a name that is not UTF-8).
    var liveKeys: [[UInt8]] { records.compactMap { $0.value.value == nil ? nil : $0.key } }

    /// Applies a read of the whole prefix; returns the names of the keys whose entry or problems changed. A read
    /// older than one already applied changes nothing, unless it comes from a new cluster: another `cluster_id`, or
    /// a revision below `knownBefore` (``highestRevision`` as it was before the read was sent: one cluster's
    /// revisions never go back, so a read made after them with a lower one is another cluster's). A new cluster's
    /// read replaces everything known.
    mutating func apply(_ range: EtcdRange, knownBefore: Int64? = nil) -> Set<String> {
        let otherCluster = range.clusterID != nil && clusterID != nil && range.clusterID != clusterID
        if otherCluster || knownBefore.map({ range.revision < $0 }) == true { return replace(with: range) }
        guard range.revision >= rangeRevision else { return [] }
        rangeRevision = range.revision
        highestRevision = max(highestRevision, range.revision)
        clusterID = range.clusterID ?? clusterID
        var changed: Set<String> = []
        var present: Set<[UInt8]> = []
        present.reserveCapacity(range.keyValues.count)
        for keyValue in range.keyValues {
            present.insert(keyValue.key)
            if let known = records[keyValue.key], known.seen >= range.revision { continue }
            changed.formUnion(
                set(
                    keyValue.key, Record(seen: range.revision, value: keyValue.value, modRevision: keyValue.modRevision)
                ))
        }
        for (key, record) in records where !present.contains(key) && record.seen < range.revision {
            changed.formUnion(set(key, Record(seen: range.revision, value: nil, modRevision: 0)))
        }
        // Every later report is newer than this read, so tombstones up to it are no longer needed.
        records = records.filter { $0.value.value != nil || $0.value.seen > range.revision }
        return changed
    }

    /// Applies one change of `key` at `revision` (`nil`: deleted): a watch event, or one of this store's own
    /// transactions. Returns the name of the key when its entry or problems changed.
    mutating func apply(key: [UInt8], value: [UInt8]?, revision: Int64) -> Set<String> {
        guard revision > rangeRevision else { return [] }  // the last read already holds it
        if let known = records[key], known.seen >= revision { return [] }
        highestRevision = max(highestRevision, revision)
        return set(key, Record(seen: revision, value: value, modRevision: value == nil ? 0 : revision))
    }

    /// Forgets everything known for what `range` holds: a read of a new cluster. Keys it does not hold are
    /// deleted (and announced); tombstones and revisions of the old cluster go.
    private mutating func replace(with range: EtcdRange) -> Set<String> {
        var changed: Set<String> = []
        let present = Set(range.keyValues.map(\.key))
        for (key, record) in records where record.value != nil && !present.contains(key) {
            changed.formUnion(set(key, Record(seen: range.revision, value: nil, modRevision: 0)))
        }
        for keyValue in range.keyValues {
            changed.formUnion(
                set(
                    keyValue.key, Record(seen: range.revision, value: keyValue.value, modRevision: keyValue.modRevision)
                ))
        }
        records = records.filter { $0.value.value != nil }
        rangeRevision = range.revision
        highestRevision = range.revision
        clusterID = range.clusterID
        return changed
    }

    private mutating func set(_ key: [UInt8], _ record: Record) -> Set<String> {
        let previous = records[key]
        records[key] = record
        guard previous?.value != record.value, let name = endpoint.name(ofKey: key) else { return [] }
        entries[name] = nil
        problemsByKey[name] = nil
        guard let value = record.value else { return [name] }
        guard endpoint.isValidName(key) else {
            problemsByKey[name] = [
                OverrideStoreProblem(
                    key: name, field: nil, reason: "the key name is not valid UTF-8", storedJSON: Self.shown(value))
            ]
            return [name]
        }
        switch OverrideDocument.readEntry(value, key: name) {
        case .usable(let entry, let problems):
            entries[name] = entry
            if !problems.isEmpty { problemsByKey[name] = problems }
        case .quarantined(let reason):
            problemsByKey[name] = [
                OverrideStoreProblem(key: name, field: nil, reason: reason, storedJSON: Self.shown(value))
            ]
        }
        return [name]
    }

    /// A stored value as text for a problem report: exact when it is UTF-8 of at most 64 KiB, else its beginning
    /// and its size.
    static func shown(_ value: [UInt8]) -> String {
        if value.count <= 64 << 10, let text = String(validating: value, as: UTF8.self) { return text }
        let utf8 = String(validating: value, as: UTF8.self) != nil
        return String(decoding: value.prefix(1024), as: UTF8.self) + "... (\(ByteCount.describe(value.count)) in all"
            + (utf8 ? ")" : ", not UTF-8)")
    }
}
