import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

extension OverrideJournalRecord {
    /// The journal's line format version; lines of a newer version are skipped (and counted) by this build.
    package static let lineVersion = 1

    /// The record as one journal line (with its trailing newline), at most ``OverrideJournal/maximumRecordSize``
    /// bytes: a record too large keeps its keys without their entries (it can then not be undone), and if even that
    /// is too large, as many keys as fit (the rest counted in ``omittedKeys``).
    ///
    /// `{"v": 1, "id": "…", "time": "…", "origin": {"kind": "cli", "name": "config-menu", "pid": 4411},
    /// "action": "set", "changes": [{"key": "…", "old": {…} | null, "new": {…} | null}]}`, plus `detail`, `undoes`,
    /// `omittedKeys` and `entriesOmitted` when they are set, and the origin's `host` when it names its machine.
    /// Entries are written as the store writes them.
    package func encodedLine(limit: Int = OverrideJournal.maximumRecordSize) -> [UInt8] {
        encodedLine(limit: limit, store: nil).line
    }

    /// ``encodedLine(limit:)`` with `store` (the store's file as this change left it, the journal's own member,
    /// ignored by readers of records), and whether the line carries the entries.
    func encodedLine(
        limit: Int = OverrideJournal.maximumRecordSize, store: JSONValue?
    ) -> (line: [UInt8], carriesEntries: Bool) {
        var line = encoded(entries: !entriesOmitted, keys: changes.count, store: store)
        if line.count <= limit { return (line, !entriesOmitted) }
        line = encoded(entries: false, keys: changes.count, store: store)
        if line.count <= limit { return (line, false) }
        // Keys only, as many as fit: find the largest prefix by halving.
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high + 1) / 2
            if encoded(entries: false, keys: middle, store: store).count <= limit {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return (encoded(entries: false, keys: low, store: store), false)
    }

    private func encoded(entries: Bool, keys: Int, store: JSONValue?) -> [UInt8] {
        var buffer: [UInt8] = []
        func member(_ name: String, first: Bool = false) {
            if !first { buffer.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            JSONWriter.appendString(name, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        }
        buffer.append(UInt8(ascii: "{"))
        member("v", first: true)
        buffer.append(contentsOf: Array(String(Self.lineVersion).utf8))
        member("id")
        JSONWriter.appendString(id, to: &buffer)
        member("time")
        JSONWriter.appendString(Timestamp.format(time), to: &buffer)
        member("origin")
        var originMembers: [(key: String, value: JSONValue)] = [
            ("kind", .string(origin.kind.rawValue)), ("name", .string(origin.name)),
            ("pid", origin.pid.map { .number(String($0)) } ?? .null),
        ]
        if let host = origin.host { originMembers.append(("host", .string(host))) }
        JSONWriter.append(.object(originMembers), to: &buffer)
        member("action")
        JSONWriter.appendString(reason.action.rawValue, to: &buffer)
        if let detail = reason.detail {
            member("detail")
            JSONWriter.appendString(detail, to: &buffer)
        }
        if let undoes = reason.undoes {
            member("undoes")
            JSONWriter.appendString(undoes, to: &buffer)
        }
        member("changes")
        buffer.append(UInt8(ascii: "["))
        for (offset, change) in changes.prefix(keys).enumerated() {
            if offset > 0 { buffer.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            buffer.append(UInt8(ascii: "{"))
            member("key", first: true)
            JSONWriter.appendString(change.key, to: &buffer)
            if entries {
                for (name, entry) in [("old", change.old), ("new", change.new)] {
                    member(name)
                    if let entry {
                        OverrideDocument.appendEntry(entry, to: &buffer)
                    } else {
                        buffer.append(contentsOf: Array("null".utf8))
                    }
                }
            }
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
        let omitted = omittedKeys + changes.count - min(keys, changes.count)
        if omitted > 0 {
            member("omittedKeys")
            buffer.append(contentsOf: Array(String(omitted).utf8))
        }
        if !entries {
            member("entriesOmitted")
            buffer.append(contentsOf: Array("true".utf8))
        }
        if let store {
            member("store")
            JSONWriter.append(store, to: &buffer)
        }
        buffer.append(contentsOf: [UInt8(ascii: "}"), 0x0A])
        return buffer
    }

    /// Why a journal line was not read.
    package enum LineError: Error {
        /// The line was written by a newer build (its `v` is above ``lineVersion``).
        case newerVersion
        /// The line is not a record this build can read; the reason.
        case malformed(String)
    }

    /// Reads one journal line (without its newline).
    ///
    /// Hand-written on `JSONCursor` rather than `JSONDecoder` with `Decodable` types, on purpose (issue 22, measured
    /// by `config-benchmarks codable`, BENCHMARKS.md): a history read decodes up to about 2 MiB of lines (the journal
    /// and the rotated one), and `JSONDecoder`, one line at a time, took 5-8x as long (a full 2 MiB history of 5,257
    /// records: 118-128 ms against 18-24 ms). The entries are the store's entries and are read by the store's own
    /// entry reader, so an undo restores exactly what the store would read: a duplicate field in an entry is refused
    /// here (`JSONDecoder` keeps the first), and fields of a newer build are kept as their text as found (a Codable
    /// entry can only re-encode what it decoded, `1.50` coming back as `1.5`).
    package init(line: UnsafeBufferPointer<UInt8>) throws(OverrideJournalRecord.LineError) {
        do {
            var cursor = JSONCursor(line)
            self = try Self.parse(&cursor)
            cursor.skipWhitespace()
            guard cursor.atEnd else { throw LineError.malformed("unexpected content after the record") }
        } catch let error as LineError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }

    private static func parse(_ cursor: inout JSONCursor) throws -> OverrideJournalRecord {
        cursor.skipWhitespace()
        try cursor.expect(UInt8(ascii: "{"), "expected an object")
        try cursor.enter()
        var version: Int?
        var id: String?
        var time: Date?
        var origin: OverrideChangeOrigin?
        var action: OverrideChangeReason.Action?
        var detail: String?
        var undoes: String?
        var changes: [Change]?
        var omittedKeys = 0
        var entriesOmitted = false
        // Every name once, known or not, as in an entry and in `origin`: a line naming a field twice is refused
        // rather than read with one of the two (JSON leaves which one to the reader).
        var seen: Set<String> = []
        if !cursor.consume(UInt8(ascii: "}")) {
            repeat {
                cursor.skipWhitespace()
                guard cursor.next == UInt8(ascii: "\"") else { throw cursor.memberNameError() }
                let name = try cursor.parseString()
                guard seen.insert(name).inserted else { throw LineError.malformed("duplicate field \"\(name)\"") }
                try cursor.expect(UInt8(ascii: ":"), "expected ':'")
                cursor.skipWhitespace()
                switch name {
                case "v":
                    guard case .number(let literal) = try cursor.parseValue(), let number = Int(literal) else {
                        throw LineError.malformed("\"v\" must be a whole number")
                    }
                    version = number
                    if number > lineVersion { throw LineError.newerVersion }
                case "id": id = try string(&cursor)
                case "time": time = Timestamp.parse(try string(&cursor))
                case "origin": origin = try parseOrigin(try cursor.parseValue())
                case "action":
                    action = OverrideChangeReason.Action(rawValue: try string(&cursor)) ?? .change
                case "detail": detail = try string(&cursor)
                case "undoes": undoes = try string(&cursor)
                case "changes": changes = try parseChanges(&cursor)
                case "omittedKeys":
                    guard case .number(let literal) = try cursor.parseValue(), let count = Int(literal), count >= 0
                    else { throw LineError.malformed("\"omittedKeys\" must be a whole number") }
                    omittedKeys = count
                case "entriesOmitted":
                    guard case .bool(let flag) = try cursor.parseValue() else {
                        throw LineError.malformed("\"entriesOmitted\" must be true or false")
                    }
                    entriesOmitted = flag
                default:
                    _ = try cursor.skipValue()
                }
            } while try cursor.separator(close: UInt8(ascii: "}"))
        }
        cursor.leave()
        guard version != nil, let id, let time, let origin, let action, let changes else {
            throw LineError.malformed("a record needs v, id, time, origin, action and changes")
        }
        return OverrideJournalRecord(
            id: id, time: time, origin: origin, reason: OverrideChangeReason(action, detail: detail, undoes: undoes),
            changes: changes, omittedKeys: omittedKeys, entriesOmitted: entriesOmitted)
    }

    private static func string(_ cursor: inout JSONCursor) throws -> String {
        guard cursor.next == UInt8(ascii: "\"") else { throw LineError.malformed("expected a string") }
        return try cursor.parseString()
    }

    private static func parseOrigin(_ value: JSONValue) throws -> OverrideChangeOrigin {
        guard case .object(let members) = value else { throw LineError.malformed("\"origin\" must be an object") }
        var kind: OverrideChangeOrigin.Kind?
        var name = ""
        var pid: Int32?
        var host: String?
        for (key, member) in members {
            switch (key, member) {
            case ("kind", .string(let text)): kind = OverrideChangeOrigin.Kind(rawValue: text)
            case ("name", .string(let text)): name = text
            case ("host", .string(let text)): host = text
            case ("pid", .null): pid = nil
            case ("pid", let value):
                // Written from an `Int32`: anything else is not a pid this build wrote, and is refused rather than
                // read as "no pid".
                guard case .number(let literal) = value, let number = Int32(literal) else {
                    let found =
                        if case .number(let literal) = value { String(literal.prefix(40)) } else {
                            value.typeDescription
                        }
                    throw LineError.malformed(
                        "\"origin\".\"pid\" must be a process identifier (a whole number up to \(Int32.max)) or null, "
                            + "found \(found)")
                }
                pid = number
            default: break
            }
        }
        guard let kind else { throw LineError.malformed("\"origin\" needs a known kind") }
        return OverrideChangeOrigin(kind: kind, name: name, pid: pid, host: host)
    }

    private static func parseChanges(_ cursor: inout JSONCursor) throws -> [Change] {
        try cursor.expect(UInt8(ascii: "["), "\"changes\" must be an array")
        try cursor.enter()
        defer { cursor.leave() }
        var changes: [Change] = []
        if cursor.consume(UInt8(ascii: "]")) { return changes }
        repeat {
            cursor.skipWhitespace()
            try cursor.expect(UInt8(ascii: "{"), "a change must be an object")
            try cursor.enter()
            var key: String?
            var old: OverrideEntry?
            var new: OverrideEntry?
            var seen: Set<String> = []
            repeat {
                cursor.skipWhitespace()
                guard cursor.next == UInt8(ascii: "\"") else { throw cursor.memberNameError() }
                let name = try cursor.parseString()
                guard seen.insert(name).inserted else {
                    throw LineError.malformed("duplicate field \"\(name)\" in a change")
                }
                try cursor.expect(UInt8(ascii: ":"), "expected ':'")
                cursor.skipWhitespace()
                switch name {
                case "key": key = try string(&cursor)
                case "old", "new":
                    var entry: OverrideEntry?
                    if cursor.next == UInt8(ascii: "{") {
                        entry = try OverrideDocument.parseEntry(&cursor, key: key ?? "")
                        guard entry != nil else { throw LineError.malformed("an entry cannot be read") }
                    } else {
                        guard case .null = try cursor.parseValue() else {
                            throw LineError.malformed("an entry must be an object or null")
                        }
                    }
                    if name == "old" { old = entry } else { new = entry }
                default:
                    _ = try cursor.skipValue()
                }
            } while try cursor.separator(close: UInt8(ascii: "}"))
            cursor.leave()
            guard let key else { throw LineError.malformed("a change needs a key") }
            changes.append(Change(key: key, old: old, new: new))
        } while try cursor.separator(close: UInt8(ascii: "]"))
        return changes
    }
}
