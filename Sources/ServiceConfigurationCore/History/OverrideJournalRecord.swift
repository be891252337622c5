public import Foundation

/// One change of the overrides as the history journal keeps it: when, by whom, why, and each key's entry before and
/// after (with every field, so an undo puts back exactly what was stored).
///
/// ```swift
/// for record in store.history().records.suffix(3) {
///     print(record.time, record.origin, record.summary)   // … cli (pid 4411) set function.album.like.enabled = "Y"
/// }
/// ```
public struct OverrideJournalRecord: Sendable, Hashable, Identifiable {
    /// One key's entry before and after the change (`nil`: no override).
    public struct Change: Sendable, Hashable {
        /// The key name.
        public var key: String
        /// The entry before the change.
        public var old: OverrideEntry?
        /// The entry after the change.
        public var new: OverrideEntry?

        /// A change of one key.
        public init(key: String, old: OverrideEntry?, new: OverrideEntry?) {
            self.key = key
            self.old = old
            self.new = new
        }
    }

    /// A unique id (`1764425100123-4411-9f3a`: milliseconds, process id, random), which an undo names.
    public var id: String
    /// When the change was saved.
    public var time: Date
    /// Who made it.
    public var origin: OverrideChangeOrigin
    /// Why.
    public var reason: OverrideChangeReason
    /// Each changed key, sorted by name.
    public var changes: [Change]
    /// Changed keys not listed, because the record would have been larger than
    /// ``OverrideJournal/maximumRecordSize``.
    public var omittedKeys: Int
    /// Whether the entries were left out (the record lists keys only) because they were too large to journal.
    public var entriesOmitted: Bool

    /// A record.
    public init(
        id: String, time: Date, origin: OverrideChangeOrigin, reason: OverrideChangeReason, changes: [Change],
        omittedKeys: Int = 0, entriesOmitted: Bool = false
    ) {
        self.id = id
        self.time = Timestamp.truncatedToMilliseconds(time)
        self.origin = origin
        self.reason = reason
        self.changes = changes
        self.omittedKeys = omittedKeys
        self.entriesOmitted = entriesOmitted
    }

    /// The record of the change from `before` to `after` (only keys whose entries differ).
    package init(
        id: String, time: Date, origin: OverrideChangeOrigin, reason: OverrideChangeReason,
        before: [String: OverrideEntry], after: [String: OverrideEntry], keys: some Sequence<String>
    ) {
        var changes: [Change] = []
        for key in Set(keys) where before[key] != after[key] {
            changes.append(Change(key: key, old: before[key], new: after[key]))
        }
        changes.sort { KeyNameOrder.precedes($0.key, $1.key) }
        self.init(id: id, time: time, origin: origin, reason: reason, changes: changes)
    }

    /// A new unique id for a change saved at `time` by this process.
    package static func makeID(time: Date) -> String {
        let milliseconds = Int64((time.timeIntervalSince1970 * 1000).rounded(.down))
        return "\(milliseconds)-\(getpid())-\(String(UInt16.random(in: 0...UInt16.max), radix: 16))"
    }

    /// Whether undoing it can put back every entry it changed (it lists them all, with their entries).
    public var canBeUndone: Bool { !entriesOmitted && omittedKeys == 0 && !changes.isEmpty }

    /// The changed keys listed.
    public var keys: [String] { changes.map(\.key) }

    /// One line for people, values escaped: `set function.album.like.enabled = "Y" (was "N")`,
    /// `reset 3 overrides`, `import checkout.json: 2 keys`.
    public var summary: String {
        let show = VisibleText.escaped
        func quoted(_ entry: OverrideEntry?) -> String { entry.map { Self.shortQuoted($0.value) } ?? "none" }
        let verb = reason.action == .importProfile ? "import" : reason.action.rawValue
        let detail = reason.detail.map { " " + show($0) } ?? ""
        let total = changes.count + omittedKeys
        // A record too large to keep its entries knows its keys only: it says so, never "none -> none".
        if changes.count == 1, omittedKeys == 0, entriesOmitted {
            return "\(verb)\(detail) \(show(changes[0].key)) (\(Self.valuesNotRecorded))"
        }
        if changes.count == 1, omittedKeys == 0 {
            let change = changes[0]
            switch (change.old, change.new) {
            case (nil, let new?): return "\(verb)\(detail) \(show(change.key)) = \(quoted(new))"
            case (let old?, nil): return "\(verb)\(detail) \(show(change.key)) (was \(quoted(old)))"
            case (let old?, let new?) where old.value == new.value:
                return "\(verb)\(detail) \(show(change.key)) = \(quoted(new)) (\(Self.metadataChange(old, new)))"
            default: return "\(verb)\(detail) \(show(change.key)) = \(quoted(change.new)) (was \(quoted(change.old)))"
            }
        }
        let keys = changes.prefix(3).map { show($0.key) }.joined(separator: ", ") + (total > 3 ? ", …" : "")
        return "\(verb)\(detail) \(total) override\(total == 1 ? "" : "s"): \(keys)"
    }

    /// `value` quoted and escaped for a summary line; one longer than 60 characters is cut to its first 40, with its
    /// length: `"{"allowedExtensions":["jpg","png","heic","…" (312 characters)`.
    static func shortQuoted(_ value: String) -> String {
        let shown = VisibleText.escaped(value)
        guard shown.count > 60 else { return "\"\(shown)\"" }
        return "\"\(shown.prefix(40))…\" (\(value.count) characters)"
    }

    /// What a record that lists keys only says in place of the values.
    package static let valuesNotRecorded = "values too large to record"

    /// What changed besides the value: `expiry: until 2026-11-29 16:05 UTC`, `note changed`.
    static func metadataChange(_ old: OverrideEntry, _ new: OverrideEntry) -> String {
        if old.expiry != new.expiry { return "expires \(new.expiry.description)" }
        if old.note != new.note { return new.note == nil ? "note removed" : "note changed" }
        return "metadata changed"
    }
}
