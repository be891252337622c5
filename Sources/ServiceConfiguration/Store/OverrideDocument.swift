import Foundation

/// The override file's contents, kept sorted and pre-encoded so a save re-encodes only what changed.
///
/// Format (version 1), one override per line so files diff well and can be hand-edited as QA scenarios:
///
/// ```json
/// {
///   "format": "service-configuration-overrides",
///   "version": 1,
///   "overrides": {
///     "function.album.like.enabled": {"note": "scenario 12", "serverValueWhenSet": "N", "setAt": "2026-11-29T14:05:00.000Z", "value": "Y"}
///   }
/// }
/// ```
struct OverrideDocument: Sendable, Equatable {
    static let formatName = "service-configuration-overrides"
    static let version = 1
    static let maximumFileSize = 8 << 20
    static let maximumValueSize = 1 << 20
    static let maximumKeySize = 1 << 10
    static let maximumNoteSize = 4 << 10

    /// One override: its key, its entry, and its encoded line (indented, without a trailing comma; empty until the
    /// first save needs it, so reading a file encodes nothing).
    struct Line: Sendable, Equatable {
        var key: String
        var entry: OverrideEntry
        var bytes: [UInt8] = []

        static func == (lhs: Line, rhs: Line) -> Bool { lhs.key == rhs.key && lhs.entry == rhs.entry }
    }

    /// The lines in UTF-8 byte order of their keys (the order they are written in), in chunks of at most
    /// `2 * chunkSize`. Chunks keep a change cheap: a copy-on-write copies one chunk and the short list of chunks,
    /// not every entry, and a save re-encodes only the line that changed.
    private var chunks: [[Line]] = []
    private(set) var count = 0
    private static let chunkSize = 64

    init() {}

    init(entries: [String: OverrideEntry]) {
        let sorted = entries.sorted { Self.precedes($0.key, $1.key) }
        self.init(sortedLines: sorted.map { Line(key: $0.key, entry: $0.value) })
    }

    private init(sortedLines lines: [Line]) {
        count = lines.count
        chunks = stride(from: 0, to: lines.count, by: Self.chunkSize).map {
            Array(lines[$0..<min($0 + Self.chunkSize, lines.count)])
        }
    }

    static func == (lhs: OverrideDocument, rhs: OverrideDocument) -> Bool {
        lhs.count == rhs.count && lhs.chunks.joined().elementsEqual(rhs.chunks.joined())
    }

    var isEmpty: Bool { count == 0 }

    /// Every entry, as a dictionary (built on each call).
    var entries: [String: OverrideEntry] {
        var result: [String: OverrideEntry] = [:]
        result.reserveCapacity(count)
        for line in chunks.joined() { result[line.key] = line.entry }
        return result
    }

    /// The keys whose entries differ between `self` and `other`, found by walking both in key order.
    func changedKeys(comparedTo other: OverrideDocument) -> Set<String> {
        var changed: Set<String> = []
        var left = (chunk: 0, line: 0)
        var right = (chunk: 0, line: 0)
        func advance(_ position: inout (chunk: Int, line: Int), in document: OverrideDocument) {
            position.line += 1
            if position.line == document.chunks[position.chunk].count { position = (position.chunk + 1, 0) }
        }
        while left.chunk < chunks.count || right.chunk < other.chunks.count {
            guard left.chunk < chunks.count else {
                changed.insert(other.chunks[right.chunk][right.line].key)
                advance(&right, in: other)
                continue
            }
            guard right.chunk < other.chunks.count else {
                changed.insert(chunks[left.chunk][left.line].key)
                advance(&left, in: self)
                continue
            }
            let leftKey = chunks[left.chunk][left.line].key
            let rightKey = other.chunks[right.chunk][right.line].key
            if leftKey == rightKey {
                if chunks[left.chunk][left.line].entry != other.chunks[right.chunk][right.line].entry {
                    changed.insert(leftKey)
                }
                advance(&left, in: self)
                advance(&right, in: other)
            } else if Self.precedes(leftKey, rightKey) {
                changed.insert(leftKey)
                advance(&left, in: self)
            } else {
                changed.insert(rightKey)
                advance(&right, in: other)
            }
        }
        return changed
    }

    subscript(key: String) -> OverrideEntry? {
        get {
            let (chunk, index, found) = position(of: key)
            return found ? chunks[chunk][index].entry : nil
        }
        set {
            let (chunk, index, found) = position(of: key)
            guard let newValue else {
                guard found else { return }
                chunks[chunk].remove(at: index)
                if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
                count -= 1
                return
            }
            let line = Line(key: key, entry: newValue)
            if found {
                chunks[chunk][index] = line
                return
            }
            count += 1
            guard !chunks.isEmpty else {
                chunks = [[line]]
                return
            }
            chunks[chunk].insert(line, at: index)
            if chunks[chunk].count > 2 * Self.chunkSize {
                let upper = Array(chunks[chunk][Self.chunkSize...])
                chunks[chunk].removeSubrange(Self.chunkSize...)
                chunks.insert(upper, at: chunk + 1)
            }
        }
    }

    /// UTF-8 byte order: the order keys are written in (independent of Unicode normalisation and locale).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order < 0 || order == 0 && left.count < right.count
            }
        }
    }

    /// Where `key` is, or where it would be inserted.
    private func position(of key: String) -> (chunk: Int, index: Int, found: Bool) {
        guard !chunks.isEmpty else { return (0, 0, false) }
        // The first chunk whose last key is not before `key`; past the end means "append to the last chunk".
        var low = 0
        var high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(chunks[middle][chunks[middle].count - 1].key, key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let chunk = min(low, chunks.count - 1)
        let lines = chunks[chunk]
        var first = 0
        var last = lines.count
        while first < last {
            let middle = (first + last) / 2
            if Self.precedes(lines[middle].key, key) {
                first = middle + 1
            } else {
                last = middle
            }
        }
        return (chunk, first, first < lines.count && lines[first].key == key)
    }

    // MARK: Encoding

    /// The whole file, byte for byte deterministic.
    func encoded() -> [UInt8] {
        var copy = self
        var buffer: [UInt8] = []
        copy.encode(into: &buffer)
        return buffer
    }

    /// Writes the whole file into `buffer`, reusing its capacity (a save of a large store then touches no fresh
    /// memory pages). Lines not encoded yet are encoded and kept, so the next save re-encodes nothing.
    mutating func encode(into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        buffer.append(
            contentsOf: Array("{\n  \"format\": \"\(Self.formatName)\",\n  \"version\": \(Self.version),\n".utf8))
        if chunks.isEmpty {
            buffer.append(contentsOf: Array("  \"overrides\": {}\n}\n".utf8))
            return
        }
        buffer.append(contentsOf: Array("  \"overrides\": {\n".utf8))
        // Index-based loops read each line's bytes in place; iterating copies of the lines would retain and release
        // every string of every entry, which costs more than the copying itself at 10,000 entries.
        var first = true
        for chunk in chunks.indices {
            for line in chunks[chunk].indices {
                if !first {
                    buffer.append(UInt8(ascii: ","))
                    buffer.append(0x0A)
                }
                first = false
                if chunks[chunk][line].bytes.isEmpty {
                    chunks[chunk][line].bytes = Self.encode(
                        key: chunks[chunk][line].key, entry: chunks[chunk][line].entry)
                }
                chunks[chunk][line].bytes.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
            }
        }
        buffer.append(contentsOf: Array("\n  }\n}\n".utf8))
    }

    /// One entry's line, indented, without the separating comma and newline.
    private static func encode(key: String, entry: OverrideEntry) -> [UInt8] {
        var buffer: [UInt8] = [0x20, 0x20, 0x20, 0x20]
        JSONWriter.appendString(key, to: &buffer)
        buffer.append(contentsOf: Array(": {".utf8))
        var first = true
        func field(_ name: String, _ value: String?) {
            guard let value else { return }
            if !first { buffer.append(contentsOf: [UInt8(ascii: ","), 0x20]) }
            first = false
            JSONWriter.appendString(name, to: &buffer)
            buffer.append(contentsOf: [UInt8(ascii: ":"), 0x20])
            JSONWriter.appendString(value, to: &buffer)
        }
        field("note", entry.note)
        field("serverValueWhenSet", entry.serverValueWhenSet)
        field("setAt", entry.setAt.map(Timestamp.format))
        field("value", entry.value)
        buffer.append(UInt8(ascii: "}"))
        return buffer
    }

    // MARK: Decoding

    /// Parses a file's bytes; the error says what is wrong and where, for a person to fix.
    init(parsing bytes: [UInt8]) throws(DocumentError) {
        guard bytes.count <= Self.maximumFileSize else {
            throw DocumentError("the file is \(bytes.count >> 20) MiB; the limit is \(Self.maximumFileSize >> 20) MiB")
        }
        guard !bytes.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) else {
            throw DocumentError("the file is empty")
        }
        let root: JSONValue
        do {
            root = try StrictJSON.parse(bytes)
        } catch {
            throw DocumentError("not valid JSON: \(error)")
        }
        guard case .object(let members) = root else {
            throw DocumentError("expected a JSON object at the top level, found \(root.typeDescription)")
        }
        // A hand-written scenario may be a plain map of key names to wire strings; the next save writes it in the
        // full format.
        if !members.isEmpty, !members.contains(where: { $0.key == "format" }),
            members.allSatisfy({ if case .string = $0.value { true } else { false } })
        {
            var lines: [Line] = []
            for member in members {
                guard case .string(let value) = member.value else { continue }
                let entry = try Self.decodeEntry(key: member.key, .object([("value", .string(value))]))
                lines.append(Line(key: member.key, entry: entry))
            }
            lines.sort { Self.precedes($0.key, $1.key) }
            self.init(sortedLines: lines)
            return
        }
        if !members.contains(where: { ["format", "version", "overrides"].contains($0.key) }),
            let bad = members.first(where: { if case .string = $0.value { false } else { true } })
        {
            throw DocumentError(
                "the value of \"\(bad.key)\" must be a string (wire format), found \(bad.value.typeDescription)"
            )
        }
        var format: String?
        var version: Int?
        var overrides: [(key: String, value: JSONValue)]?
        for member in members {
            switch (member.key, member.value) {
            case ("format", .string(let name)): format = name
            case ("version", .number(let literal)):
                guard let number = Int(literal) else {
                    throw DocumentError("\"version\" must be a whole number, found \(literal)")
                }
                version = number
            case ("overrides", .object(let entries)): overrides = entries
            case ("format", let other), ("version", let other), ("overrides", let other):
                let expected =
                    member.key == "overrides" ? "an object" : member.key == "version" ? "a number" : "a string"
                throw DocumentError("\"\(member.key)\" must be \(expected), found \(other.typeDescription)")
            default:
                throw DocumentError("unknown top-level field \"\(member.key)\"; expected format, version, overrides")
            }
        }
        guard format == Self.formatName else {
            throw DocumentError(
                format.map { "\"format\" is \"\($0)\", not \"\(Self.formatName)\"" }
                    ?? "missing \"format\": \"\(Self.formatName)\"; this is not an override store"
            )
        }
        guard let version else { throw DocumentError("missing \"version\"") }
        guard version <= Self.version else {
            throw DocumentError(
                "written by a newer version of the format (version \(version); this build reads up to \(Self.version))"
            )
        }
        guard version >= 1 else { throw DocumentError("unsupported format version \(version)") }
        guard let overrides else { throw DocumentError("missing \"overrides\"") }
        var lines: [Line] = []
        lines.reserveCapacity(overrides.count)
        for (key, value) in overrides {
            lines.append(Line(key: key, entry: try Self.decodeEntry(key: key, value)))
        }
        lines.sort { Self.precedes($0.key, $1.key) }
        self.init(sortedLines: lines)
    }

    private static func decodeEntry(key: String, _ value: JSONValue) throws(DocumentError) -> OverrideEntry {
        func problem(_ text: String) -> DocumentError {
            DocumentError("override \"\(key.count > 80 ? key.prefix(77) + "..." : key)\"\(text)")
        }
        guard !key.isEmpty else { throw DocumentError("an override has an empty key name") }
        guard key.utf8.count <= maximumKeySize else { throw problem(": the key name is longer than 1 KiB") }
        guard case .object(let fields) = value else {
            throw problem(" must be an object, found \(value.typeDescription)")
        }
        var raw: String?
        var setAtText: String?
        var serverValue: String?
        var note: String?
        for field in fields {
            let text: String?
            switch field.value {
            case .string(let string): text = string
            case .null where field.key != "value": text = nil
            default: throw problem(": \"\(field.key)\" must be a string, found \(field.value.typeDescription)")
            }
            switch field.key {
            case "value": raw = text
            case "setAt": setAtText = text
            case "serverValueWhenSet": serverValue = text
            case "note": note = text
            default:
                throw problem(" has an unknown field \"\(field.key)\"; expected value, setAt, serverValueWhenSet, note")
            }
        }
        guard let raw else { throw problem(" has no \"value\"") }
        guard raw.utf8.count <= maximumValueSize else {
            throw problem(": the value is \(raw.utf8.count >> 10) KiB; the limit is \(maximumValueSize >> 10) KiB")
        }
        if let note, note.utf8.count > maximumNoteSize {
            throw problem(": the note is longer than \(maximumNoteSize >> 10) KiB")
        }
        var setAt: Date?
        if let setAtText {
            guard let date = Timestamp.parse(setAtText) else {
                throw problem(": \"setAt\" is not a UTC timestamp like 2026-11-29T14:05:00.000Z")
            }
            setAt = date
        }
        return OverrideEntry(value: raw, setAt: setAt, serverValueWhenSet: serverValue, note: note)
    }

    /// Why a file's contents were refused.
    struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
