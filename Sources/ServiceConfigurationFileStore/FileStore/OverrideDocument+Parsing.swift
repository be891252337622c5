import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

extension OverrideDocument {
    /// Parses a file's bytes; the error says what is wrong and where, for a person to fix.
    ///
    /// Entries are read straight into ``OverrideEntry`` values, with the strict parser's rules (duplicate names
    /// refused, nesting bounded, UTF-8 checked) but without building a JSON tree. A bad entry is quarantined, a bad
    /// metadata field is kept as found and reported; only a file that is not a JSON object of this format throws.
    ///
    /// `understandingExpiry: false` reads as builds before expiry did (the expiry fields become preserved fields):
    /// the tests use it to check that a file this build writes still reads, and round-trips, there. `keepingRaw:
    /// false` makes every line a ``Line`` as it is read (none raw): the tests read each file both ways and compare.
    init(parsing bytes: [UInt8], understandingExpiry: Bool = true, keepingRaw: Bool = true) throws(DocumentError) {
        guard bytes.count <= OverrideStoreLimits.maximumFileSize else {
            throw DocumentError(
                "the file is \(ByteCount.describe(bytes.count)); the limit is "
                    + ByteCount.describe(OverrideStoreLimits.maximumFileSize))
        }
        let parsed = try bytes.withUnsafeBufferPointer { buffer throws(DocumentError) in
            var parser = DocumentParser(
                cursor: JSONCursor(buffer), understandsExpiry: understandingExpiry, source: bytes,
                keepsRaw: keepingRaw && understandingExpiry)
            do {
                return try parser.parseDocument()
            } catch let error as StrictJSON.ParseError {
                throw DocumentError("not valid JSON: \(error)")
            } catch let error as DocumentError {
                throw error
            } catch {
                throw DocumentError("\(error)")
            }
        }
        self = parsed
    }
}

/// Reads the store's format in one pass over the bytes.
struct DocumentParser {
    var cursor: JSONCursor
    /// Whether the expiry fields are read as such (otherwise they are kept as unknown fields).
    var understandsExpiry = true
    /// The bytes the cursor reads, for the lines to keep their text (``OverrideDocument/Line/source``).
    var source: [UInt8] = []
    /// Whether lines that need nothing more than their text are kept raw (``OverrideDocument/Slot/raw(_:)``): only
    /// when reading a file's `source`, with the entry fields this build knows (as reading a raw line's entry again
    /// does).
    var keepsRaw = false

    /// The JSON type of the value starting with `byte`, for messages.
    static func typeDescription(startingWith byte: UInt8?) -> String {
        switch byte {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }

    mutating func parseDocument() throws -> OverrideDocument {
        cursor.skipByteOrderMark()
        cursor.skipWhitespace()
        guard !cursor.atEnd else { throw OverrideDocument.DocumentError("the file is empty") }
        guard cursor.next == UInt8(ascii: "{") else {
            let value = try cursor.parseValue()
            try expectEnd()
            throw OverrideDocument.DocumentError(
                "expected a JSON object at the top level, found \(value.typeDescription)")
        }
        try cursor.enter()
        cursor.index += 1
        var seen: [String: Int] = [:]
        var format: String?
        var formatType: String?
        var version: String?
        var versionType: String?
        var overrides: Overrides?
        var overridesType: String?
        var unknown: [OverrideDocument.Member] = []
        // A plain map of key names to wire strings (a hand-written scenario) has only string members.
        var plain: [(key: String, value: String)] = []
        var firstNonString: (name: String, type: String)?
        if !cursor.consume(UInt8(ascii: "}")) {
            repeat {
                cursor.skipWhitespace()
                guard cursor.next == UInt8(ascii: "\"") else { throw cursor.memberNameError() }
                let nameStart = cursor.index
                let name = try cursor.parseString()
                try cursor.checkNewName(name, at: nameStart, among: &seen)
                try cursor.expect(UInt8(ascii: ":"), "expected ':'")
                cursor.skipWhitespace()
                let type = Self.typeDescription(startingWith: cursor.next)
                switch name {
                case "format" where cursor.next == UInt8(ascii: "\""):
                    format = try cursor.parseString()
                    plain.append((name, format!))
                case "version" where type == "a number":
                    guard case .number(let literal) = try cursor.parseValue() else { continue }
                    version = literal
                case "overrides" where cursor.next == UInt8(ascii: "{"):
                    overrides = try parseOverrides()
                default:
                    if ["format", "version", "overrides"].contains(name) {
                        _ = try cursor.skipValue()
                        switch name {
                        case "format": formatType = type
                        case "version": versionType = type
                        default: overridesType = type
                        }
                    } else if cursor.next == UInt8(ascii: "\"") {
                        let start = cursor.index
                        let value = try cursor.parseString()
                        plain.append((name, value))
                        unknown.append(.init(name: name, json: cursor.text(start..<cursor.index)))
                    } else {
                        let range = try cursor.skipValue()
                        unknown.append(.init(name: name, json: cursor.text(range)))
                    }
                    if firstNonString == nil, type != "a string" { firstNonString = (name, type) }
                }
            } while try cursor.separator(close: UInt8(ascii: "}"))
        }
        cursor.leave()
        try expectEnd()
        return try assemble(
            format: format, types: (formatType, versionType, overridesType), version: version, overrides: overrides,
            unknown: unknown, plain: plain, firstNonString: firstNonString, memberCount: seen.count)
    }

    private mutating func expectEnd() throws {
        cursor.skipWhitespace()
        guard cursor.atEnd else { throw cursor.error("unexpected content after the end of the document") }
    }

    // swiftlint:disable:next function_parameter_count
    private func assemble(
        format: String?,
        types: (format: String?, version: String?, overrides: String?),
        version: String?,
        overrides: Overrides?,
        unknown: [OverrideDocument.Member],
        plain: [(key: String, value: String)],
        firstNonString: (name: String, type: String)?,
        memberCount: Int
    ) throws -> OverrideDocument {
        typealias DocumentError = OverrideDocument.DocumentError
        let formatName = OverrideDocument.formatName
        if let type = types.format { throw DocumentError("\"format\" must be a string, found \(type)") }
        if let type = types.version { throw DocumentError("\"version\" must be a number, found \(type)") }
        if let type = types.overrides { throw DocumentError("\"overrides\" must be an object, found \(type)") }
        if format == nil, version == nil, overrides == nil {
            // A hand-written scenario: a plain map of key names to wire strings; the next save writes the format.
            if let firstNonString {
                throw DocumentError(
                    "the value of \"\(firstNonString.name)\" must be a string (wire format), found \(firstNonString.type)"
                )
            }
            if memberCount > 0 {
                var lines: [OverrideDocument.Line] = []
                var problems: [OverrideStoreProblem] = []
                for (key, value) in plain {
                    if let reason = OverrideStoreLimits.violation(key: key, entry: OverrideEntry(value: value)) {
                        var json: [UInt8] = []
                        JSONWriter.appendString(value, to: &json)
                        lines.append(.init(key: key, quarantined: json))
                        problems.append(
                            .init(
                                key: key, field: nil, reason: reason, storedJSON: String(decoding: json, as: UTF8.self))
                        )
                    } else {
                        lines.append(.init(key: key, entry: OverrideEntry(value: value, setAt: nil)))
                    }
                }
                return Self.document(lines: lines, unknown: [], problems: problems)
            }
        }
        guard format == formatName else {
            throw DocumentError(
                format.map { "\"format\" is \"\($0)\", not \"\(formatName)\"" }
                    ?? "missing \"format\": \"\(formatName)\"; this is not an override store")
        }
        guard let literal = version else { throw DocumentError("missing \"version\"") }
        guard let number = Int(literal) else {
            throw DocumentError("\"version\" must be a whole number, found \(literal)")
        }
        guard number <= OverrideDocument.version else {
            throw DocumentError(
                "written by a newer version of the format (version \(number); this build reads up to "
                    + "\(OverrideDocument.version)); it is left as it is and not changed by this build",
                isNewerFormat: true)
        }
        guard number >= 1 else { throw DocumentError("unsupported format version \(number)") }
        guard let overrides else { throw DocumentError("missing \"overrides\"") }
        guard overrides.sorted else {
            let read = OverrideDocument(
                sortedChunks: overrides.chunks, count: overrides.count, source: source, unknownMembers: [],
                problems: [])
            return Self.document(lines: read.lines, unknown: unknown, problems: overrides.problems)
        }
        var problems = overrides.problems
        if problems.count > 1 { problems.sort { OverrideDocument.precedes($0.key, $1.key) } }
        return OverrideDocument(
            sortedChunks: overrides.chunks, count: overrides.count, source: source, unknownMembers: unknown,
            problems: problems)
    }

    /// Sorts the lines by key (files this package writes are sorted already) and builds the document.
    private static func document(
        lines: [OverrideDocument.Line], unknown: [OverrideDocument.Member], problems: [OverrideStoreProblem]
    ) -> OverrideDocument {
        var lines = lines
        var sorted = true
        for index in lines.indices.dropFirst() where !OverrideDocument.precedes(lines[index - 1].key, lines[index].key)
        {
            sorted = false
            break
        }
        if !sorted { lines.sort { OverrideDocument.precedes($0.key, $1.key) } }
        var problems = problems
        if problems.count > 1 { problems.sort { OverrideDocument.precedes($0.key, $1.key) } }
        return OverrideDocument(sortedLines: lines, unknownMembers: unknown, problems: problems)
    }

    /// The `overrides` object as read: lines in file order, cut into chunks as the document keeps them.
    struct Overrides {
        var chunks: [[OverrideDocument.Slot]] = []
        var count = 0
        var problems: [OverrideStoreProblem] = []
        /// Whether the keys came in strictly increasing UTF-8 order (as this package writes them).
        var sorted = true
    }

    /// The `overrides` object: one line per member, usable or quarantined.
    ///
    /// Duplicate keys are refused. A file this package wrote has its keys in strictly increasing byte order, so
    /// no two are equal byte for byte; only when that order is broken, or a key is not ASCII (Unicode-equivalent
    /// spellings are the same key to a dictionary), are the keys hashed to look for duplicates.
    private mutating func parseOverrides() throws -> Overrides {
        try cursor.enter()
        defer { cursor.leave() }
        cursor.index += 1
        var result = Overrides()
        var chunk: [OverrideDocument.Slot] = []
        chunk.reserveCapacity(OverrideDocument.chunkSize)
        func append(_ slot: OverrideDocument.Slot) {
            chunk.append(slot)
            if chunk.count == OverrideDocument.chunkSize {
                result.chunks.append(chunk)
                chunk = []
                chunk.reserveCapacity(OverrideDocument.chunkSize)
            }
        }
        var keyOffsets: [Int] = []
        var allASCII = true
        var previousKey: KeyText?
        if cursor.consume(UInt8(ascii: "}")) { return result }
        repeat {
            cursor.skipWhitespace()
            guard cursor.next == UInt8(ascii: "\"") else { throw cursor.memberNameError() }
            let keyStart = cursor.index
            keyOffsets.append(keyStart)
            var plain: Range<Int>?
            if keepsRaw, !source.isEmpty, let bytes = cursor.consumePlainStringBytes() {
                if !bytes.isEmpty, bytes.count <= OverrideStoreLimits.maximumKeySize, OverrideDocument.isASCII(bytes) {
                    plain = (keyStart + 1)..<(cursor.index - 1)
                } else {
                    cursor.index = keyStart
                }
            }
            let keyText: KeyText
            if let plain {
                keyText = .bytes(plain)
            } else {
                keyText = .string(try cursor.parseString())
                allASCII = allASCII && cursor.lastStringIsASCII
            }
            if let previousKey, result.sorted, !precedes(previousKey, keyText) { result.sorted = false }
            previousKey = keyText
            try cursor.expect(UInt8(ascii: ":"), "expected ':'")
            cursor.skipWhitespace()
            if let plain, let raw = try rawLine(key: plain) {
                append(.raw(raw))
                continue
            }
            let key = string(keyText)
            let start = cursor.index
            var reason: String?
            var fieldProblems: [OverrideStoreProblem] = []
            var entry: OverrideEntry?
            if cursor.next == UInt8(ascii: "{") {
                switch try parseEntry(key: key) {
                case .success(let parsed):
                    entry = parsed.entry
                    fieldProblems = parsed.problems
                case .failure(let refused):
                    reason = refused.reason
                }
            } else {
                let type = Self.typeDescription(startingWith: cursor.next)
                _ = try cursor.skipValue()
                reason = "an override must be an object like {\"value\": \"Y\"}, found \(type)"
            }
            if reason == nil, let entry,
                let limit = OverrideStoreLimits.violation(key: key, entry: entry, checkingPreservedFields: false)
            {
                reason = limit
            }
            if let reason {
                let json = cursor.text(start..<cursor.index)
                append(.line(.init(.init(key: key, quarantined: json))))
                result.problems.append(
                    .init(key: key, field: nil, reason: reason, storedJSON: String(decoding: json, as: UTF8.self)))
            } else if let entry {
                append(.line(.init(.init(key: key, entry: entry, source: lineText(from: keyStart)))))
                result.problems += fieldProblems
            }
        } while try cursor.separator(close: UInt8(ascii: "}"))
        if !chunk.isEmpty { result.chunks.append(chunk) }
        result.count = keyOffsets.count
        if !result.sorted || !allASCII {
            var seen: [String: Int] = [:]
            seen.reserveCapacity(result.count)
            for (slot, offset) in zip(result.chunks.joined(), keyOffsets) {
                let key: String
                switch slot {
                case .raw(let raw): key = string(.bytes(raw.key))
                case .line(let box): key = box.line.key
                }
                try cursor.checkNewName(key, at: offset, among: &seen)
            }
        }
        return result
    }

    /// A key as the parser read it: where its text is in the file (a plain ASCII key), or the string it decodes to.
    private enum KeyText {
        case bytes(Range<Int>)
        case string(String)
    }

    private func string(_ key: KeyText) -> String {
        switch key {
        case .string(let string): string
        case .bytes(let range): source.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
        }
    }

    /// UTF-8 byte order (``OverrideDocument/precedes(_:_:)``), without making strings of keys read as bytes.
    private func precedes(_ lhs: KeyText, _ rhs: KeyText) -> Bool {
        withBytes(lhs) { left in withBytes(rhs) { KeyNameOrder.compare(left, $0) < 0 } }
    }

    private func withBytes<Result>(_ key: KeyText, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch key {
        case .bytes(let range):
            return source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        case .string(var string):
            return string.withUTF8(body)
        }
    }

    /// At the entry of a plain ASCII key (its text at `key`): reads it, and returns it as a raw line when it is usable
    /// without a problem and on one line. Otherwise `nil`, with the cursor back at the entry, to read it as a line
    /// (then with its key in what it reports).
    private mutating func rawLine(key: Range<Int>) throws -> OverrideDocument.RawLine? {
        let start = cursor.index
        guard cursor.next == UInt8(ascii: "{") else { return nil }
        // The key's own limits hold (checked on its bytes); the entry's are checked under a stand-in name.
        guard case .success(let parsed) = try parseEntry(key: ""), parsed.problems.isEmpty,
            OverrideStoreLimits.violation(key: "k", entry: parsed.entry, checkingPreservedFields: false) == nil,
            !source[start..<cursor.index].contains(where: { $0 == 0x0A || $0 == 0x0D })
        else {
            cursor.index = start
            return nil
        }
        return OverrideDocument.RawLine(
            keyStart: UInt32(key.lowerBound), keyEnd: UInt32(key.upperBound), entryStart: UInt32(start),
            entryEnd: UInt32(cursor.index))
    }

    /// The text from `start` to the cursor, when it is all on one line (a line spread over several is encoded
    /// again when saved, so the file keeps one override per line).
    private func lineText(from start: Int) -> ArraySlice<UInt8> {
        guard !source.isEmpty else { return [] }
        let text = source[start..<cursor.index]
        return text.contains(where: { $0 == 0x0A || $0 == 0x0D }) ? [] : text
    }

    struct Refusal: Error { var reason: String }

    private enum Field {
        case value, setAt, serverValueWhenSet, note, expiresAt, untilServerChanges, untilVersion
        case other(String)
    }

    /// One entry object. JSON errors throw; an entry that cannot be used is a `Refusal`.
    mutating func parseEntry(
        key: String
    ) throws -> Result<(entry: OverrideEntry, problems: [OverrideStoreProblem]), Refusal> {
        try cursor.enter()
        defer { cursor.leave() }
        cursor.index += 1
        var value: String?
        var valueProblem: String?
        var setAt: Date?
        var server: String?
        var note: String?
        var expiry = OverrideExpiry.never
        var preserved: [String: String] = [:]
        var problems: [OverrideStoreProblem] = []
        var seenKnown: UInt8 = 0
        var seenOther: Set<String> = []
        if !cursor.consume(UInt8(ascii: "}")) {
            repeat {
                cursor.skipWhitespace()
                guard cursor.next == UInt8(ascii: "\"") else { throw cursor.memberNameError() }
                let nameStart = cursor.index
                let field: Field
                if cursor.consumeLiteralName("value") {
                    field = .value
                } else if cursor.consumeLiteralName("setAt") {
                    field = .setAt
                } else if cursor.consumeLiteralName("note") {
                    field = .note
                } else if cursor.consumeLiteralName("serverValueWhenSet") {
                    field = .serverValueWhenSet
                } else {
                    let name = try cursor.parseString()
                    switch name {
                    case "value": field = .value
                    case "setAt": field = .setAt
                    case "note": field = .note
                    case "serverValueWhenSet": field = .serverValueWhenSet
                    case "expiresAt" where understandsExpiry: field = .expiresAt
                    case "untilServerChanges" where understandsExpiry: field = .untilServerChanges
                    case "untilVersion" where understandsExpiry: field = .untilVersion
                    default: field = .other(name)
                    }
                }
                let duplicate: Bool
                let fieldName: String
                switch field {
                case .value: (duplicate, fieldName) = (seenKnown & 1 != 0, "value")
                case .setAt: (duplicate, fieldName) = (seenKnown & 2 != 0, "setAt")
                case .note: (duplicate, fieldName) = (seenKnown & 4 != 0, "note")
                case .serverValueWhenSet: (duplicate, fieldName) = (seenKnown & 8 != 0, "serverValueWhenSet")
                case .expiresAt: (duplicate, fieldName) = (seenKnown & 16 != 0, "expiresAt")
                case .untilServerChanges: (duplicate, fieldName) = (seenKnown & 32 != 0, "untilServerChanges")
                case .untilVersion: (duplicate, fieldName) = (seenKnown & 64 != 0, "untilVersion")
                case .other(let name): (duplicate, fieldName) = (!seenOther.insert(name).inserted, name)
                }
                guard !duplicate else { throw cursor.error("duplicate key \"\(fieldName)\"", at: nameStart) }
                try cursor.expect(UInt8(ascii: ":"), "expected ':'")
                cursor.skipWhitespace()
                let start = cursor.index
                let isString = cursor.next == UInt8(ascii: "\"")
                let isNull = cursor.next == UInt8(ascii: "n")
                let type = Self.typeDescription(startingWith: cursor.next)
                /// Keeps the field as found and reports it; the override still applies.
                func keep(_ reason: String) {
                    let json = String(decoding: cursor.text(start..<cursor.index), as: UTF8.self)
                    preserved[fieldName] = json
                    problems.append(.init(key: key, field: fieldName, reason: reason, storedJSON: json))
                }
                switch field {
                case .value:
                    seenKnown |= 1
                    if isString {
                        value = try cursor.parseString()
                    } else {
                        _ = try cursor.skipValue()
                        valueProblem = "\"value\" must be a string, found \(type)"
                    }
                case .setAt:
                    seenKnown |= 2
                    if isString {
                        // A valid time is ASCII without escapes: read it in place, without making a string.
                        let saved = cursor.index
                        if let plain = cursor.consumePlainStringBytes() { setAt = Timestamp.parse(bytes: plain) }
                        if setAt == nil {
                            cursor.index = saved
                            setAt = Timestamp.parse(try cursor.parseString())
                        }
                        if setAt == nil {
                            keep(
                                "\"setAt\" is not an ISO 8601 time like 2026-11-29T14:05:00.000Z or 2026-11-29T23:05:00+09:00"
                            )
                        }
                    } else {
                        _ = try cursor.skipValue()
                        if !isNull { keep("\"setAt\" must be a string, found \(type)") }
                    }
                case .note, .serverValueWhenSet:
                    seenKnown |= fieldName == "note" ? 4 : 8
                    var text: String?
                    if isString {
                        text = try cursor.parseString()
                    } else {
                        _ = try cursor.skipValue()
                        if !isNull { keep("\"\(fieldName)\" must be a string, found \(type)") }
                    }
                    let limit =
                        fieldName == "note" ? OverrideStoreLimits.maximumNoteSize : OverrideStoreLimits.maximumValueSize
                    if let size = text?.utf8.count, size > limit {
                        keep(
                            "the \(fieldName) is \(ByteCount.describe(size)); the limit is \(ByteCount.describe(limit))"
                        )
                        text = nil
                    }
                    if fieldName == "note" { note = text } else { server = text }
                case .expiresAt:
                    seenKnown |= 16
                    if isString {
                        expiry.expiresAt = Timestamp.parse(try cursor.parseString())
                        if expiry.expiresAt == nil {
                            keep(
                                "\"expiresAt\" is not an ISO 8601 time like 2026-11-29T16:05:00.000Z; the override does not expire"
                            )
                        }
                    } else {
                        _ = try cursor.skipValue()
                        if !isNull {
                            keep("\"expiresAt\" must be a string, found \(type); the override does not expire")
                        }
                    }
                case .untilServerChanges:
                    seenKnown |= 32
                    switch try cursor.parseValue() {
                    case .bool(let flag): expiry.untilServerChanges = flag
                    case .null: break
                    default: keep("\"untilServerChanges\" must be true or false, found \(type)")
                    }
                case .untilVersion:
                    seenKnown |= 64
                    if isString {
                        let text = try cursor.parseString()
                        expiry.untilVersion = ProgramVersion(text)
                        if expiry.untilVersion == nil {
                            keep("\"untilVersion\" is not a version like 14.2; the override does not expire by version")
                        }
                    } else {
                        _ = try cursor.skipValue()
                        if !isNull { keep("\"untilVersion\" must be a string, found \(type)") }
                    }
                case .other(let name):
                    let range = try cursor.skipValue()
                    preserved[name] = String(decoding: cursor.text(range), as: UTF8.self)
                }
            } while try cursor.separator(close: UInt8(ascii: "}"))
        }
        if let valueProblem { return .failure(Refusal(reason: valueProblem)) }
        guard let value else {
            return .failure(
                Refusal(reason: seenKnown & 1 != 0 ? "\"value\" is null" : "the entry has no \"value\""))
        }
        let entry = OverrideEntry(
            value: value, setAt: setAt, serverValueWhenSet: server, note: note, expiry: expiry,
            preservedFields: preserved)
        return .success((entry, problems))
    }
}

extension OverrideDocument {
    /// Reads one entry object at `cursor` exactly as the store reads its entries (the journal keeps entries in the
    /// same form); `nil` for an entry the store would quarantine. JSON errors throw.
    static func parseEntry(_ cursor: inout JSONCursor, key: String) throws -> OverrideEntry? {
        var parser = DocumentParser(cursor: cursor)
        defer { cursor = parser.cursor }
        guard case .success(let parsed) = try parser.parseEntry(key: key) else { return nil }
        return parsed.entry
    }

    /// What one entry's JSON reads as: a usable entry (with any unreadable metadata fields), or the reason it is
    /// quarantined.
    package enum EntryReading: Sendable, Hashable {
        /// The override applies; `problems` lists metadata fields kept as found.
        case usable(OverrideEntry, problems: [OverrideStoreProblem])
        /// The entry cannot be used: kept, reported, not applied.
        case quarantined(reason: String)
    }

    /// Reads one entry's JSON (the object a line of the file holds for `key`) with the file's rules: what cannot be
    /// used is quarantined with the reason, including bytes that are not JSON at all.
    package static func readEntry(_ bytes: [UInt8], key: String) -> EntryReading {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = DocumentParser(cursor: JSONCursor(buffer))
            return parser.parseLoneEntry(key: key)
        }
    }
}

extension DocumentParser {
    /// One entry object and nothing after it.
    fileprivate mutating func parseLoneEntry(key: String) -> OverrideDocument.EntryReading {
        do {
            cursor.skipByteOrderMark()
            cursor.skipWhitespace()
            guard !cursor.atEnd else { return .quarantined(reason: "the entry is empty") }
            guard cursor.next == UInt8(ascii: "{") else {
                let type = Self.typeDescription(startingWith: cursor.next)
                _ = try cursor.skipValue()
                try expectEnd()
                return .quarantined(reason: "an override must be an object like {\"value\": \"Y\"}, found \(type)")
            }
            let parsed = try parseEntry(key: key)
            try expectEnd()
            switch parsed {
            case .failure(let refusal):
                return .quarantined(reason: refusal.reason)
            case .success(let (entry, problems)):
                if let limit = OverrideStoreLimits.violation(key: key, entry: entry, checkingPreservedFields: false) {
                    return .quarantined(reason: limit)
                }
                return .usable(entry, problems: problems)
            }
        } catch {
            return .quarantined(reason: "not valid JSON: \(error)")
        }
    }
}
