package import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

/// The report's file format: see ``ProgramReport``. Written and read with the package's own JSON code (a report
/// of 100,000 reads is about 14 MB: Foundation's coders took seconds for it), read strictly (duplicate names,
/// invalid UTF-8 and trailing bytes are refused) and tolerantly (unknown fields are skipped).
extension ProgramReport {
    // MARK: Encoding

    /// The file's bytes: indented JSON, members in a fixed order and reads sorted by name, so two writes of the same
    /// report are identical.
    package func encoded() throws -> Data {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256 + reads.count * 150)
        var first = true
        func member(_ name: String) {
            buffer.append(
                contentsOf: first ? [UInt8(ascii: "{"), 0x0A, 0x20, 0x20] : [UInt8(ascii: ","), 0x0A, 0x20, 0x20])
            first = false
            JSONWriter.appendString(name, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        }
        func string(_ name: String, _ value: String?) {
            guard let value else { return }
            member(name)
            JSONWriter.appendString(value, to: &buffer)
        }
        string("format", Self.formatName)
        member("version")
        buffer.append(contentsOf: Array(String(Self.version).utf8))
        string("program", programName)
        string("programVersion", programVersion)
        member("pid")
        buffer.append(contentsOf: Array(String(processIdentifier).utf8))
        string("processStart", processStart)
        string("store", storePath)
        string("host", host)
        string("startedAt", Timestamp.format(startedAt))
        string("writtenAt", Timestamp.format(writtenAt))
        string("endedAt", endedAt.map(Timestamp.format))
        member("recordsReads")
        buffer.append(contentsOf: Array((recordsReads ? "true" : "false").utf8))
        if generation > 0 {
            member("generation")
            buffer.append(contentsOf: Array(String(generation).utf8))
        }
        if !omitted.isEmpty {
            member("omitted")
            JSONWriter.append(
                .object([
                    ("reads", .number(String(omitted.reads))), ("unregistered", .number(String(omitted.unregistered))),
                    ("rejectedOverrides", .number(String(omitted.rejectedOverrides))),
                ]), to: &buffer)
        }
        member("reads")
        Self.appendReads(reads, to: &buffer, indent: 2)
        member("unregistered")
        JSONWriter.append(
            .array(
                unregistered.map {
                    .object([
                        ("name", .string($0.name)), ("scopeType", .string($0.scopeTypeName)),
                        ("keyType", .string($0.keyTypeName)), ("firstRead", .string(Timestamp.format($0.firstRead))),
                    ])
                }), to: &buffer)
        member("rejectedOverrides")
        JSONWriter.append(
            .array(
                rejectedOverrides.map {
                    .object([("name", .string($0.name)), ("value", .string($0.value)), ("reason", .string($0.reason))])
                }), to: &buffer)
        if !launchOverrides.isEmpty {
            member("launchOverrides")
            JSONWriter.append(
                .object(
                    launchOverrides.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }),
                to: &buffer)
        }
        buffer.append(contentsOf: [0x0A, UInt8(ascii: "}"), 0x0A])
        return Data(buffer)
    }

    /// `reads` as a JSON object of names to `{"firstRead", "currentValueFirstRead", "values", "valuesOmitted"}`,
    /// one read per line indented by `indent` spaces (0: all on one line).
    static func appendReads(_ reads: [ConfigurationReadCoverage.Read], to buffer: inout [UInt8], indent: Int) {
        guard !reads.isEmpty else { return buffer.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
        let newline: [UInt8] = indent > 0 ? [0x0A] + [UInt8](repeating: 0x20, count: indent + 2) : []
        buffer.append(UInt8(ascii: "{"))
        for (offset, read) in reads.enumerated() {
            if offset > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: newline)
            JSONWriter.appendString(read.name, to: &buffer)
            buffer.append(contentsOf: Array(#": {"firstRead": ""#.utf8))
            buffer.append(contentsOf: Array(Timestamp.format(read.firstRead).utf8))
            buffer.append(UInt8(ascii: "\""))
            if let current = read.currentValueFirstRead {
                buffer.append(contentsOf: Array(#", "currentValueFirstRead": ""#.utf8))
                buffer.append(contentsOf: Array(Timestamp.format(current).utf8))
                buffer.append(UInt8(ascii: "\""))
            }
            if !read.values.isEmpty {
                buffer.append(contentsOf: Array(#", "values": "#.utf8))
                JSONWriter.append(.array(read.values.map(JSONValue.string)), to: &buffer)
            }
            if read.valuesOmitted > 0 {
                buffer.append(contentsOf: Array(#", "valuesOmitted": "#.utf8))
                buffer.append(contentsOf: Array(String(read.valuesOmitted).utf8))
            }
            buffer.append(UInt8(ascii: "}"))
        }
        if indent > 0 { buffer.append(contentsOf: [0x0A] + [UInt8](repeating: 0x20, count: indent)) }
        buffer.append(UInt8(ascii: "}"))
    }

    // MARK: Decoding

    /// Reads a report file's bytes; throws a ``ProgramReportFormatError`` that says what is wrong.
    package init(decoding data: Data) throws(ProgramReportFormatError) {
        let bytes = [UInt8](data)
        self = try bytes.withUnsafeBufferPointer { buffer throws(ProgramReportFormatError) in
            var cursor = JSONCursor(buffer)
            return try Self.parse(&cursor)
        }
    }

    private static func parse(_ cursor: inout JSONCursor) throws(ProgramReportFormatError) -> ProgramReport {
        var fields: [String: JSONValue] = [:]
        var reads: [ConfigurationReadCoverage.Read] = []
        do {
            cursor.skipByteOrderMark()
            cursor.skipWhitespace()
            guard cursor.next == UInt8(ascii: "{") else { throw ProgramReportFormatError("not a JSON object") }
            try cursor.readObject { cursor, name in
                if name == "reads", cursor.next == UInt8(ascii: "{") {
                    reads = try parseReads(&cursor, field: "reads")
                } else {
                    fields[name] = try cursor.parseValue()
                }
            }
            cursor.skipWhitespace()
            guard cursor.atEnd else { throw cursor.error("unexpected content after the end of the document") }
        } catch let error as ProgramReportFormatError {
            throw error
        } catch {
            throw ProgramReportFormatError("not valid JSON: \(error)")
        }
        return try report(fields: fields, reads: reads)
    }

    /// The report from its top-level members (`reads` parsed apart), checked as the format requires.
    private static func report(fields: [String: JSONValue], reads: [ConfigurationReadCoverage.Read])
        throws(ProgramReportFormatError) -> ProgramReport
    {
        switch fields["format"] {
        case .string(formatName)?: break
        case .string(let other)?:
            throw ProgramReportFormatError("\"format\" is \"\(VisibleText.escaped(other))\", not \"\(formatName)\"")
        default:
            throw ProgramReportFormatError("missing \"format\": \"\(formatName)\"; this is not a program report")
        }
        guard case .number(let versionText)? = fields["version"], let version = Int(versionText) else {
            throw ProgramReportFormatError("missing \"version\"")
        }
        guard version == Self.version else {
            throw ProgramReportFormatError("version \(version) of the format; this build reads version \(Self.version)")
        }
        func string(_ name: String, required: Bool = true) throws(ProgramReportFormatError) -> String? {
            switch fields[name] {
            case .string(let text)?: return text
            case nil, .null?:
                if required { throw ProgramReportFormatError("missing \"\(name)\"") }
                return nil
            default: throw ProgramReportFormatError("\"\(name)\" has the wrong type")
            }
        }
        func date(_ name: String, required: Bool = true) throws(ProgramReportFormatError) -> Date? {
            guard let text = try string(name, required: required) else { return nil }
            return try Self.date(text, name)
        }
        guard let pidValue = fields["pid"] else { throw ProgramReportFormatError("missing \"pid\"") }
        guard case .number(let pidText) = pidValue, let pid = Int32(pidText) else {
            throw ProgramReportFormatError("\"pid\" has the wrong type")
        }
        var recordsReads = true
        switch fields["recordsReads"] {
        case .bool(let value)?: recordsReads = value
        case nil, .null?: break
        default: throw ProgramReportFormatError("\"recordsReads\" has the wrong type")
        }
        var generation = 0
        if case .number(let text)? = fields["generation"], let value = Int(text), value >= 0 { generation = value }
        var unregistered: [UnregisteredConfigurationKey] = []
        for (offset, entry) in try array("unregistered", in: fields).enumerated() {
            func field(_ name: String) throws(ProgramReportFormatError) -> String {
                guard case .object(let members) = entry else {
                    throw ProgramReportFormatError("\"unregistered.\(offset)\" has the wrong type")
                }
                guard let value = members.first(where: { $0.key == name })?.value else {
                    throw ProgramReportFormatError("missing \"unregistered.\(offset).\(name)\"")
                }
                guard case .string(let text) = value else {
                    throw ProgramReportFormatError("\"unregistered.\(offset).\(name)\" has the wrong type")
                }
                return text
            }
            unregistered.append(
                .init(
                    name: try field("name"), scopeTypeName: try field("scopeType"), keyTypeName: try field("keyType"),
                    firstRead: try Self.date(try field("firstRead"), "unregistered.firstRead")))
        }
        var rejected: [ConfigurationRejectedOverride] = []
        for (offset, entry) in try array("rejectedOverrides", in: fields).enumerated() {
            guard case .object(let members) = entry else {
                throw ProgramReportFormatError("\"rejectedOverrides.\(offset)\" has the wrong type")
            }
            var texts: [String: String] = [:]
            for name in ["name", "value", "reason"] {
                guard let value = members.first(where: { $0.key == name })?.value else {
                    throw ProgramReportFormatError("missing \"rejectedOverrides.\(offset).\(name)\"")
                }
                guard case .string(let text) = value else {
                    throw ProgramReportFormatError("\"rejectedOverrides.\(offset).\(name)\" has the wrong type")
                }
                texts[name] = text
            }
            rejected.append(.init(name: texts["name"]!, value: texts["value"]!, reason: texts["reason"]!))
        }
        var report = ProgramReport(
            programName: try string("program")!,
            processIdentifier: pid,
            processStart: try string("processStart", required: false),
            storePath: try string("store", required: false),
            startedAt: try date("startedAt")!,
            writtenAt: try date("writtenAt")!,
            endedAt: try date("endedAt", required: false),
            recordsReads: recordsReads,
            reads: reads,
            unregistered: unregistered.sorted { $0.name < $1.name },
            rejectedOverrides: rejected.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
        )
        report.generation = generation
        report.host = try string("host", required: false)
        report.programVersion = try string("programVersion", required: false)
        switch fields["launchOverrides"] {
        case .object(let members)?:
            for member in members {
                guard case .string(let value) = member.value else {
                    throw ProgramReportFormatError(
                        "\"launchOverrides.\(VisibleText.escaped(member.key))\" has the wrong type")
                }
                report.launchOverrides[member.key] = value
            }
        case nil, .null?: break
        default: throw ProgramReportFormatError("\"launchOverrides\" has the wrong type")
        }
        if case .object(let members)? = fields["omitted"] {
            func count(_ name: String) -> Int {
                guard case .number(let text)? = members.first(where: { $0.key == name })?.value, let value = Int(text)
                else { return 0 }
                return max(0, value)
            }
            report.omitted.reads = count("reads")
            report.omitted.unregistered = count("unregistered")
            report.omitted.rejectedOverrides = count("rejectedOverrides")
        }
        return report
    }

    private static func array(_ name: String, in fields: [String: JSONValue]) throws(ProgramReportFormatError)
        -> [JSONValue]
    {
        switch fields[name] {
        case .array(let elements)?: return elements
        case nil, .null?: return []
        default: throw ProgramReportFormatError("\"\(name)\" has the wrong type")
        }
    }

    private static func date(_ text: String, _ field: String) throws(ProgramReportFormatError) -> Date {
        guard let date = Timestamp.parse(text) else {
            throw ProgramReportFormatError(
                "\"\(field)\" is not a UTC timestamp like 2026-11-29T14:05:00.123Z: \"\(VisibleText.escaped(text))\"")
        }
        return date
    }

    /// The `reads` object at the cursor, straight into reads sorted by name (without building a value per read).
    static func parseReads(_ cursor: inout JSONCursor, field: String) throws -> [ConfigurationReadCoverage.Read] {
        var reads: [ConfigurationReadCoverage.Read] = []
        var sorted = true
        try cursor.readObject { cursor, name in
            guard cursor.next == UInt8(ascii: "{") else {
                throw ProgramReportFormatError("\"\(field).\(VisibleText.escaped(name))\" has the wrong type")
            }
            let read = try parseRead(&cursor, name: name, field: field)
            if let last = reads.last, !(last.name < name) { sorted = false }
            reads.append(read)
        }
        if !sorted { reads.sort { $0.name < $1.name } }
        return reads
    }

    /// One read's object: `firstRead` (required), `currentValueFirstRead`, `values` and `valuesOmitted`; other
    /// members are skipped.
    private static func parseRead(_ cursor: inout JSONCursor, name: String, field: String) throws
        -> ConfigurationReadCoverage.Read
    {
        var first: Date?
        var current: Date?
        var values: [String] = []
        var valuesOmitted = 0
        // Only for messages: a report of 100,000 reads builds none.
        func path() -> String { "\(field).\(VisibleText.escaped(name))" }
        func timestamp(_ cursor: inout JSONCursor, _ member: String) throws -> Date {
            if let bytes = cursor.consumePlainStringBytes() {
                if let date = Timestamp.parse(bytes: bytes) { return date }
                return try date(String(decoding: bytes, as: UTF8.self), "\(path()).\(member)")
            }
            guard case .string(let text) = try cursor.parseValue() else {
                throw ProgramReportFormatError("\"\(path()).\(member)\" has the wrong type")
            }
            return try date(text, "\(path()).\(member)")
        }
        try cursor.readObject { cursor, member in
            switch member {
            case "firstRead": first = try timestamp(&cursor, member)
            case "currentValueFirstRead":
                if cursor.next == UInt8(ascii: "n") {
                    guard case .null = try cursor.parseValue() else {
                        throw ProgramReportFormatError("\"\(path()).\(member)\" has the wrong type")
                    }
                } else {
                    current = try timestamp(&cursor, member)
                }
            case "values":
                guard case .array(let elements) = try cursor.parseValue() else {
                    throw ProgramReportFormatError("\"\(path()).values\" has the wrong type")
                }
                for element in elements {
                    guard case .string(let value) = element else {
                        throw ProgramReportFormatError("\"\(path()).values\" holds something other than strings")
                    }
                    values.append(value)
                }
            case "valuesOmitted":
                guard case .number(let text) = try cursor.parseValue(), let count = Int(text), count >= 0 else {
                    throw ProgramReportFormatError("\"\(path()).valuesOmitted\" is not a count")
                }
                valuesOmitted = count
            default: _ = try cursor.skipValue()
            }
        }
        guard let first else { throw ProgramReportFormatError("missing \"\(path()).firstRead\"") }
        return ConfigurationReadCoverage.Read(
            name: name, firstRead: first, currentValueFirstRead: current, values: values, valuesOmitted: valuesOmitted)
    }
}
