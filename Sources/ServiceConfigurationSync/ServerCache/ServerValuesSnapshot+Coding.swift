import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

extension ServerValuesSnapshot {
    /// Why a snapshot file's contents were refused.
    package struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    // MARK: Encoding

    /// The values' lines (`    "key": "value"` joined by `,\n`), encoded once per set of values and reused by
    /// every save until the values change.
    package static func encodeValues(_ values: [String: String]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(values.count * 64)
        var first = true
        for key in values.keys.sorted(by: KeyNameOrder.precedes) {
            if !first { buffer.append(contentsOf: [UInt8(ascii: ","), 0x0A]) }
            first = false
            buffer.append(contentsOf: [0x20, 0x20, 0x20, 0x20])
            JSONWriter.appendString(key, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            JSONWriter.appendString(values[key]!, to: &buffer)
        }
        return buffer
    }

    /// The evaluations (see ``ServerSyncStatus/evaluations``) as one JSON object, keys sorted, encoded once per set
    /// of values and reused by every save until they change; empty when there are none.
    package static func encodeEvaluations(_ evaluations: [String: ServerValueEvaluation]) -> [UInt8] {
        guard !evaluations.isEmpty else { return [] }
        let entries = evaluations.keys.sorted(by: KeyNameOrder.precedes).map { key in
            let evaluation = evaluations[key]!
            let fields: [(key: String, value: JSONValue)] = [
                ("variant", evaluation.variant), ("reason", evaluation.reason), ("errorCode", evaluation.errorCode),
                ("errorDetails", evaluation.errorDetails),
            ].compactMap { field in field.1.map { (key: field.0, value: JSONValue.string($0)) } }
            return (key: key, value: JSONValue.object(fields))
        }
        var buffer: [UInt8] = []
        JSONWriter.append(.object(entries), to: &buffer)
        return buffer
    }

    /// The whole file; `encodedValues` are this snapshot's values as ``encodeValues(_:)`` writes them, and
    /// `encodedEvaluations` its evaluations as ``encodeEvaluations(_:)`` does (`nil`: encoded here).
    package func encoded(values encodedValues: [UInt8], evaluations encodedEvaluations: [UInt8]? = nil) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("format", .string(Self.formatName)),
            ("version", .number(String(Self.version))),
            ("source", .string(status.source)),
            ("status", .string(status.state.name)),
        ]
        if let lastSync = status.lastSync { members.append(("lastSync", .string(Timestamp.format(lastSync)))) }
        if let etag = status.validators.etag { members.append(("etag", .string(etag))) }
        if let lastModified = status.validators.lastModified { members.append(("lastModified", .string(lastModified))) }
        if let error = status.lastError {
            var fields: [(key: String, value: JSONValue)] = []
            if let at = status.lastErrorAt { fields.append(("at", .string(Timestamp.format(at)))) }
            fields.append(("kind", .string(error.kind.rawValue)))
            fields.append(("reason", .string(error.reason)))
            if let code = error.statusCode { fields.append(("statusCode", .number(String(code)))) }
            members.append(("lastError", .object(fields)))
        }
        if let change = status.lastChange {
            let previous = change.previousValues.keys.sorted(by: KeyNameOrder.precedes).map { key in
                (key: key, value: change.previousValues[key]!.map(JSONValue.string) ?? .null)
            }
            members.append(
                (
                    "lastChange",
                    .object([("at", .string(Timestamp.format(change.at))), ("previousValues", .object(previous))])
                ))
        }
        if let writer {
            var fields: [(key: String, value: JSONValue)] = [("pid", .number(String(writer.processIdentifier)))]
            if let start = writer.processStart { fields.append(("processStart", .string(start))) }
            fields.append(("program", .string(writer.programName)))
            members.append(("writer", .object(fields)))
        }
        var buffer: [UInt8] = [UInt8(ascii: "{"), 0x0A]
        for member in members {
            buffer.append(contentsOf: [0x20, 0x20])
            JSONWriter.appendString(member.key, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            JSONWriter.append(member.value, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ","), 0x0A])
        }
        let evaluations = encodedEvaluations ?? Self.encodeEvaluations(status.evaluations)
        if !evaluations.isEmpty {
            buffer.append(contentsOf: Array("  \"evaluations\": ".utf8))
            buffer.append(contentsOf: evaluations)
            buffer.append(contentsOf: [UInt8(ascii: ","), 0x0A])
        }
        if encodedValues.isEmpty {
            buffer.append(contentsOf: Array("  \"values\": {}\n}\n".utf8))
        } else {
            buffer.append(contentsOf: Array("  \"values\": {\n".utf8))
            buffer.append(contentsOf: encodedValues)
            buffer.append(contentsOf: Array("\n  }\n}\n".utf8))
        }
        return buffer
    }

    // MARK: Decoding

    /// Parses a snapshot file; the error says what is wrong, for a person to fix (or to delete the file: it is a
    /// cache, rewritten by the next good sync).
    ///
    /// Hand-written on `StrictJSON` rather than `JSONDecoder` with `Decodable` types, on purpose (issue 22, measured
    /// by `config-benchmarks codable`, BENCHMARKS.md): `JSONDecoder` took 1.33x as long for 1,000 values and 1.6-1.7x
    /// for 100,000 (a 6.5 MiB file), with 2.7x the peak memory (+37 MiB against +14 MiB); it accepts duplicate keys
    /// (keeping the first: two values for one key, or two `source`s, read as one) and a trailing comma, both of which
    /// this refuses; and a syntax error or invalid UTF-8 comes back as "The given data was not valid JSON." with no
    /// line and column, where this names them. The type-mismatch messages ("the value of "a" must be a string, found
    /// a number") it could keep, from the coding path.
    package init(parsing bytes: [UInt8]) throws(FormatError) {
        guard bytes.count <= Self.maximumFileSize else {
            throw FormatError("the file is \(bytes.count >> 20) MiB; the limit is \(Self.maximumFileSize >> 20) MiB")
        }
        let root: JSONValue
        do {
            root = try StrictJSON.parse(bytes)
        } catch {
            throw FormatError("not valid JSON: \(error)")
        }
        guard case .object(let members) = root else {
            throw FormatError("expected a JSON object at the top level, found \(root.typeDescription)")
        }
        var fields: [String: JSONValue] = [:]
        for member in members { fields[member.key] = member.value }
        guard case .string(Self.formatName) = fields["format"] else {
            throw FormatError("\"format\" is not \"\(Self.formatName)\"; this is not a server snapshot")
        }
        guard case .number(let versionText) = fields["version"], let version = Int(versionText) else {
            throw FormatError("missing or invalid \"version\"")
        }
        guard version <= Self.version else {
            throw FormatError(
                "written by a newer version of the format (version \(version); this build reads up to \(Self.version))")
        }
        guard version >= 1 else { throw FormatError("unsupported format version \(version)") }
        func string(_ name: String) throws(FormatError) -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw FormatError("\"\(name)\" must be a string, found \(other.typeDescription)")
            }
        }
        func date(_ text: String?, _ name: String) throws(FormatError) -> Date? {
            guard let text else { return nil }
            guard let date = Timestamp.parse(text) else {
                throw FormatError("\"\(name)\" is not a UTC timestamp like 2026-11-29T14:05:00.000Z")
            }
            return date
        }
        guard let source = try string("source") else { throw FormatError("missing \"source\"") }
        // An empty source would read as "no snapshot at all" everywhere the status is shown.
        guard !source.isEmpty else {
            throw FormatError("\"source\" is empty: the snapshot does not say where its values came from")
        }
        var status = ServerSyncStatus(source: source)
        status.lastSync = try date(try string("lastSync"), "lastSync")
        status.validators = ServerValuesValidators(etag: try string("etag"), lastModified: try string("lastModified"))
        if case .object(let errorFields)? = fields["lastError"] {
            var kind = ServerSyncError.Kind.unreachable
            var reason = "unknown"
            var code: Int?
            for field in errorFields {
                switch (field.key, field.value) {
                case ("at", .string(let text)): status.lastErrorAt = try date(text, "lastError.at")
                case ("kind", .string(let text)): kind = ServerSyncError.Kind(rawValue: text) ?? .unreachable
                case ("reason", .string(let text)): reason = text
                case ("statusCode", .number(let text)): code = Int(text)
                default: break
                }
            }
            status.lastError = ServerSyncError(kind: kind, reason: reason, statusCode: code)
        }
        if case .object(let changeFields)? = fields["lastChange"] {
            var at: Date?
            var previous: [String: String?] = [:]
            for field in changeFields {
                switch (field.key, field.value) {
                case ("at", .string(let text)): at = try date(text, "lastChange.at")
                case ("previousValues", .object(let entries)):
                    for entry in entries {
                        switch entry.value {
                        case .string(let value): previous[entry.key] = .some(value)
                        case .null: previous[entry.key] = .some(nil)
                        default:
                            throw FormatError(
                                "a previous value must be a string or null, found \(entry.value.typeDescription)")
                        }
                    }
                default: break
                }
            }
            if let at { status.lastChange = ServerValuesChange(at: at, previousValues: previous) }
        }
        // What an evaluating server (OFREP) said about each key; tolerated field by field, like the writer: an
        // entry that cannot be read is left out, never a reason to refuse the values.
        if case .object(let entries)? = fields["evaluations"] {
            for entry in entries {
                guard case .object(let entryFields) = entry.value else { continue }
                var evaluation = ServerValueEvaluation()
                for field in entryFields {
                    guard case .string(let text) = field.value else { continue }
                    switch field.key {
                    case "variant": evaluation.variant = text
                    case "reason": evaluation.reason = text
                    case "errorCode": evaluation.errorCode = text
                    case "errorDetails": evaluation.errorDetails = text
                    default: break
                    }
                }
                status.evaluations[entry.key] = evaluation
            }
        }
        var writer: ServerSnapshotWriter?
        // Tolerated as a whole: a writer that cannot be read is an unknown writer, never a reason to refuse values;
        // but not silently: what is wrong with it is the snapshot's problem (shown with its status), so a pid that
        // is not a process identifier (too big for one, negative, text) is never read as "no writer" unsaid.
        switch fields["writer"] {
        case nil, .null?: break
        case .object(let writerFields)?:
            var program: String?
            var pidValue: JSONValue?
            var start: String?
            for field in writerFields {
                switch (field.key, field.value) {
                case ("program", .string(let text)): program = text
                case ("pid", let value): pidValue = value
                case ("processStart", .string(let text)): start = text
                default: break
                }
            }
            let pid: Int32? = if case .number(let text)? = pidValue, let pid = Int32(text), pid > 0 { pid } else { nil }
            if let program, let pid {
                writer = ServerSnapshotWriter(programName: program, processIdentifier: pid, processStart: start)
            } else if let pidValue, pid == nil {
                let found =
                    if case .number(let text) = pidValue { String(text.prefix(40)) } else { pidValue.typeDescription }
                status.snapshotProblem =
                    "\"writer\".\"pid\" must be a process identifier (a whole number from 1 to \(Int32.max)), found "
                    + "\(found); the values are read, their writer is unknown"
            } else {
                let missing = [program == nil ? "\"program\" (a string)" : nil, pidValue == nil ? "\"pid\"" : nil]
                status.snapshotProblem =
                    "\"writer\" has no \(missing.compactMap { $0 }.joined(separator: " or "));"
                    + " the values are read, their writer is unknown"
            }
        case let other?:
            status.snapshotProblem =
                "\"writer\" must be an object, found \(other.typeDescription); the values are read, their writer is unknown"
        }
        var values: [String: String] = [:]
        switch fields["values"] {
        case .object(let entries)?:
            values.reserveCapacity(entries.count)
            for entry in entries {
                guard case .string(let value) = entry.value else {
                    throw FormatError(
                        "the value of \"\(entry.key.prefix(80))\" must be a string, found \(entry.value.typeDescription)"
                    )
                }
                values[entry.key] = value
            }
        case nil: break
        case let other?: throw FormatError("\"values\" must be an object, found \(other.typeDescription)")
        }
        status.keyCount = values.count
        let reason = status.lastError?.reason ?? "the last sync failed"
        switch try string("status") {
        case "fresh": status.state = status.lastSync.map { .fresh(at: $0) } ?? .waiting
        case "cached": status.state = status.lastSync.map { .cached(since: $0) } ?? .waiting
        case "stale": status.state = status.lastSync.map { .stale(since: $0, reason: reason) } ?? .error(reason: reason)
        case "error": status.state = .error(reason: reason)
        default: status.state = status.lastSync.map { .fresh(at: $0) } ?? .waiting
        }
        self.init(status: status, values: values, writer: writer)
    }
}
