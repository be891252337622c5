import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// How `history`, `undo`, `prune` and `diff` show changes: one line per change for people (every value and name
/// escaped), and JSON for scripts.
enum HistoryReport {
    /// `2026-11-29 14:05:12 UTC`.
    static func time(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8)) + " UTC"
    }

    /// `"value"`, or `none`.
    static func quoted(_ entry: OverrideEntry?) -> String {
        entry.map { "\"\(VisibleText.escaped($0.value))\"" } ?? "none"
    }

    /// One change for people: `2026-11-29 14:05:12 UTC  cli (pid 4411)  set KEY = "5000" (was "2500")`, then, for a
    /// change of several keys, one indented line per key (only `key`'s with a key given).
    static func lines(_ record: OverrideJournalRecord, key: String? = nil, marker: String = "") -> [String] {
        var lines = ["\(marker)\(time(record.time))  \(record.origin)  \(record.summary)"]
        if record.reason.action == .undo, let undone = record.reason.undoes {
            lines[0] += "  (undoes \(VisibleText.escaped(undone)))"
        }
        let shown = record.changes.filter { key == nil || $0.key == key }
        if record.changes.count > 1 {
            for change in shown.prefix(50) {
                lines.append(
                    "    \(VisibleText.escaped(change.key))"
                        + (record.entriesOmitted
                            ? " (\(OverrideJournalRecord.valuesNotRecorded))"
                            : ": \(quoted(change.old)) -> \(quoted(change.new))"))
            }
            if shown.count > 50 { lines.append("    … and \(shown.count - 50) more") }
        }
        if record.omittedKeys > 0 { lines.append("    … and \(record.omittedKeys) keys too many to record") }
        if record.entriesOmitted { lines.append("    (too large to record the values: it cannot be undone)") }
        return lines
    }

    /// An entry as JSON: its fields, `null` for those not set.
    static func json(_ entry: OverrideEntry?) -> JSONValue {
        guard let entry else { return .null }
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            ("value", .string(entry.value)),
            ("setAt", optional(entry.setAt.map(Timestamp.format))),
            ("serverValueWhenSet", optional(entry.serverValueWhenSet)),
            ("note", optional(entry.note)),
            ("expiry", expiryJSON(entry.expiry)),
        ])
    }

    /// An expiry as JSON: `null` for none, else `{"expiresAt", "untilServerChanges", "untilVersion"}`.
    static func expiryJSON(_ expiry: OverrideExpiry) -> JSONValue {
        guard !expiry.isNever else { return .null }
        return .object([
            ("expiresAt", expiry.expiresAt.map { .string(Timestamp.format($0)) } ?? .null),
            ("untilServerChanges", .bool(expiry.untilServerChanges)),
            ("untilVersion", expiry.untilVersion.map { .string($0.description) } ?? .null),
        ])
    }

    /// A change as JSON.
    static func json(_ record: OverrideJournalRecord) -> JSONValue {
        .object([
            ("id", .string(record.id)),
            ("time", .string(Timestamp.format(record.time))),
            (
                "origin",
                .object([
                    ("kind", .string(record.origin.kind.rawValue)), ("name", .string(record.origin.name)),
                    ("pid", record.origin.pid.map { .number(String($0)) } ?? .null),
                    ("host", record.origin.host.map(JSONValue.string) ?? .null),
                ])
            ),
            ("action", .string(record.reason.action.rawValue)),
            ("detail", record.reason.detail.map(JSONValue.string) ?? .null),
            ("undoes", record.reason.undoes.map(JSONValue.string) ?? .null),
            (
                "changes",
                .array(
                    record.changes.map {
                        .object([("key", .string($0.key)), ("old", json($0.old)), ("new", json($0.new))])
                    })
            ),
            ("omittedKeys", .number(String(record.omittedKeys))),
            ("entriesOmitted", .bool(record.entriesOmitted)),
            ("complete", .bool(record.canBeUndone || record.changes.isEmpty)),
        ])
    }

    /// A diff for people: a summary line, then `+ KEY = "v"`, `- KEY = "v"`, `~ KEY: "a" -> "b"`.
    static func lines(_ diff: OverrideDiff, from: String, to: String) -> [String] {
        ["\(from) -> \(to): \(diff.summary)"] + changeLines(diff)
    }

    /// A diff's changes for people, one per line: `+ KEY = "v"`, `- KEY = "v"`, `~ KEY: "a" -> "b"`.
    static func changeLines(_ diff: OverrideDiff) -> [String] {
        var lines: [String] = []
        for change in diff.all {
            let key = VisibleText.escaped(change.key)
            switch (change.old, change.new) {
            case (nil, let new): lines.append("  + \(key) = \(quoted(new))")
            case (let old, nil): lines.append("  - \(key) = \(quoted(old))")
            case (let old, let new): lines.append("  ~ \(key): \(quoted(old)) -> \(quoted(new))")
            }
        }
        return lines
    }

    /// A diff as JSON: `{"from", "to", "added": [{"key", "value"}], "removed": [...], "changed": [{"key", "from",
    /// "to"}], "unchanged"}`, and for an import `"mode"` and `"kept"` (a count).
    static func json(_ diff: OverrideDiff, from: String, to: String) -> JSONValue {
        func pairs(_ changes: [OverrideDiff.Change], _ entry: (OverrideDiff.Change) -> OverrideEntry?) -> JSONValue {
            .array(changes.map { .object([("key", .string($0.key)), ("value", .string(entry($0)?.value ?? ""))]) })
        }
        var members: [(key: String, value: JSONValue)] = [
            ("from", .string(from)),
            ("to", .string(to)),
            ("added", pairs(diff.added) { $0.new }),
            ("removed", pairs(diff.removed) { $0.old }),
            (
                "changed",
                .array(
                    diff.changed.map {
                        .object([
                            ("key", .string($0.key)), ("from", .string($0.old?.value ?? "")),
                            ("to", .string($0.new?.value ?? "")),
                        ])
                    })
            ),
            ("unchanged", .number(String(diff.unchangedCount))),
        ]
        if let mode = diff.importMode {
            members += [("mode", .string(mode.rawValue)), ("kept", .number(String(diff.keptCount)))]
        }
        return .object(members)
    }
}
