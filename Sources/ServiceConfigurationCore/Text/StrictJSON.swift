import Foundation

/// A JSON value as parsed by ``StrictJSON``: objects keep their member order.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, kept as its literal text so no precision is lost.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The JSON type's name for error messages: "an object", "a string", ...
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A strict JSON parser for files people and other programs edit: it refuses what Foundation's parser accepts or
/// silently resolves (duplicate object keys, invalid UTF-8, a leading byte-order mark is allowed but nothing else),
/// bounds nesting depth, and reports errors with line and column.
package struct StrictJSON {
    /// Why a document was refused.
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var message: String
        package var line: Int
        package var column: Int
        package var description: String { "\(message) at line \(line), column \(column)" }
    }

    package static let defaultMaximumDepth = 64

    /// Parses a whole document.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(ParseError) -> JSONValue
    {
        try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
            var cursor = JSONCursor(buffer, maximumDepth: maximumDepth)
            cursor.skipByteOrderMark()
            cursor.skipWhitespace()
            guard !cursor.atEnd else { throw cursor.error("the document is empty") }
            let value = try cursor.parseValue()
            cursor.skipWhitespace()
            guard cursor.atEnd else { throw cursor.error("unexpected content after the end of the document") }
            return value
        }
    }
}

/// The strict parser's reading position in a document, for parsers that read a known shape straight into their own
/// types (the override store) and build ``JSONValue`` only where they must. Valid only inside the closure that
/// lends the buffer.
package struct JSONCursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    package var index = 0
    private var depth = 0
    private let maximumDepth: Int
    /// Whether the last string ``parseString()`` read was all ASCII.
    package private(set) var lastStringIsASCII = true

    package init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = StrictJSON.defaultMaximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Whether every byte has been read.
    package var atEnd: Bool { index >= bytes.count }

    /// The next byte, or `nil` at the end.
    package var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The bytes of `range`, for keeping a value's text exactly as found.
    package func text(_ range: Range<Int>) -> [UInt8] { Array(UnsafeBufferPointer(rebasing: bytes[range])) }

    /// Skips a UTF-8 byte-order mark at the start.
    package mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// An error at `position` (default: here), with its line and column.
    package func error(_ message: String, at position: Int? = nil) -> StrictJSON.ParseError {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<end where bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        return StrictJSON.ParseError(message: message, line: line, column: end - lineStart + 1)
    }

    /// Records `key`, read at `keyStart`, among the member names of one object (`seen`: each name with where it
    /// was read); a name the object already has throws.
    ///
    /// Names are compared as Swift compares strings, by Unicode canonical equivalence, because that is how every
    /// key is looked up afterwards (catalog, server values, overrides): `"café"` written precomposed (`U+00E9`) and
    /// decomposed (`e` + `U+0301`) is one key, and a document naming both would have a reader silently keep one.
    /// The error then shows both spellings, scalar by scalar.
    package func checkNewName(_ key: String, at keyStart: Int, among seen: inout [String: Int])
        throws(StrictJSON.ParseError)
    {
        guard let index = seen.index(forKey: key) else {
            seen[key] = keyStart
            return
        }
        let (first, offset) = seen[index]
        guard !first.unicodeScalars.elementsEqual(key.unicodeScalars) else {
            throw error("duplicate key \"\(key)\"", at: keyStart)
        }
        let earlier = error("", at: offset)
        throw error(
            "duplicate key \"\(Self.scalars(key))\" (another spelling of \"\(Self.scalars(first))\" at line "
                + "\(earlier.line), column \(earlier.column): Unicode-equivalent names are one key, everywhere keys are "
                + "compared)", at: keyStart)
    }

    /// Reads the object that starts here, member by member: `body` gets each member's name (checked against the
    /// others with ``checkNewName(_:at:among:)``) with the cursor at the member's value, which it must read.
    package mutating func readObject(_ body: (inout JSONCursor, String) throws -> Void) throws {
        try enter()
        defer { leave() }
        index += 1
        if consume(UInt8(ascii: "}")) { return }
        var seen: [String: Int] = [:]
        repeat {
            skipWhitespace()
            guard next == UInt8(ascii: "\"") else { throw memberNameError() }
            let nameStart = index
            let name = try parseString()
            try checkNewName(name, at: nameStart, among: &seen)
            try expect(UInt8(ascii: ":"), "expected ':'")
            skipWhitespace()
            try body(&self, name)
        } while try separator(close: UInt8(ascii: "}"))
    }

    /// `text` with every scalar outside printable ASCII written `\u{XXXX}`, so two spellings that look alike read
    /// apart.
    static func scalars(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            if (0x20..<0x7F).contains(scalar.value), scalar != "\\", scalar != "\"" { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
        }.joined()
    }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after whitespace) or throws `message`.
    package mutating func expect(_ byte: UInt8, _ message: @autoclosure () -> String) throws(StrictJSON.ParseError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { throw error(message()) }
        index += 1
    }

    /// Consumes `byte` (after whitespace) if it is next.
    package mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Whether the next bytes are the string literal `"name"` (no escapes); consumes it if so.
    package mutating func consumeLiteralName(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count - index >= count + 2, bytes[index] == UInt8(ascii: "\""),
            bytes[index + count + 1] == UInt8(ascii: "\"")
        else { return false }
        let matches = name.withUTF8Buffer { expected in
            memcmp(bytes.baseAddress! + index + 1, expected.baseAddress!, count) == 0
        }
        if matches { index += count + 2 }
        return matches
    }

    /// Enters an object or array, refusing nesting deeper than the maximum.
    package mutating func enter() throws(StrictJSON.ParseError) {
        depth += 1
        if depth > maximumDepth { throw error("nesting is deeper than \(maximumDepth) levels") }
    }

    /// Leaves an object or array.
    package mutating func leave() { depth -= 1 }

    package mutating func parseValue() throws(StrictJSON.ParseError) -> JSONValue {
        guard index < bytes.count else { throw error("the document ends too early") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value")
        }
    }

    /// Reads one value (checking it as strictly as ``parseValue()``) and returns the byte range it spans.
    package mutating func skipValue() throws(StrictJSON.ParseError) -> Range<Int> {
        let start = index
        switch next ?? 0 {
        case UInt8(ascii: "\""): _ = try parseString()
        case UInt8(ascii: "{"):
            try enter()
            defer { leave() }
            index += 1
            if consume(UInt8(ascii: "}")) { return start..<index }
            var seen: [String: Int] = [:]
            repeat {
                skipWhitespace()
                guard next == UInt8(ascii: "\"") else { throw memberNameError() }
                let keyStart = index
                let key = try parseString()
                try checkNewName(key, at: keyStart, among: &seen)
                try expect(UInt8(ascii: ":"), "expected ':'")
                skipWhitespace()
                _ = try skipValue()
            } while try separator(close: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            try enter()
            defer { leave() }
            index += 1
            if consume(UInt8(ascii: "]")) { return start..<index }
            repeat {
                skipWhitespace()
                _ = try skipValue()
            } while try separator(close: UInt8(ascii: "]"))
        default: _ = try parseValue()
        }
        return start..<index
    }

    /// After a member or element: true after a comma, false after `close`; anything else throws.
    package mutating func separator(close: UInt8) throws(StrictJSON.ParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw error("the document ends inside \(close == UInt8(ascii: "}") ? "an object" : "an array")")
        }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if bytes[index] == close {
            index += 1
            return false
        }
        throw error(close == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
    }

    /// The error for a missing member name.
    package func memberNameError() -> StrictJSON.ParseError {
        index < bytes.count
            ? error("expected a member name in double quotes") : error("the document ends inside an object")
    }

    private mutating func parseObject() throws(StrictJSON.ParseError) -> JSONValue {
        try enter()
        defer { leave() }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen: [String: Int] = [:]
        if consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard next == UInt8(ascii: "\"") else { throw memberNameError() }
            let keyStart = index
            let key = try parseString()
            try checkNewName(key, at: keyStart, among: &seen)
            try expect(UInt8(ascii: ":"), "expected ':'")
            skipWhitespace()
            members.append((key, try parseValue()))
        } while try separator(close: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func parseArray() throws(StrictJSON.ParseError) -> JSONValue {
        try enter()
        defer { leave() }
        index += 1
        var elements: [JSONValue] = []
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            skipWhitespace()
            guard index < bytes.count else { throw error("the document ends inside an array") }
            elements.append(try parseValue())
        } while try separator(close: UInt8(ascii: "]"))
        return .array(elements)
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(StrictJSON.ParseError)
        -> JSONValue
    {
        let count = word.utf8CodeUnitCount
        let matches =
            bytes.count - index >= count
            && word.withUTF8Buffer { memcmp(bytes.baseAddress! + index, $0.baseAddress!, count) == 0 }
        guard matches else { throw error("expected a value") }
        index += count
        return value
    }

    private mutating func parseNumber() throws(StrictJSON.ParseError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number: digits must follow '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("invalid number: digits must follow the exponent") }
        }
        return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// The bytes between the quotes of the string literal that starts here, when it holds no escape and no control
    /// character (then it is consumed, and its UTF-8 is not yet checked); `nil` (and nothing consumed) otherwise.
    package mutating func consumePlainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var scan = index + 1
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<scan])
                index = scan + 1
                return content
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            scan += 1
        }
        return nil
    }

    package mutating func parseString() throws(StrictJSON.ParseError) -> String {
        let start = index
        // Fast path: no escapes, no control characters; validate the UTF-8 once (not at all for ASCII, the common
        // case) and make the string directly.
        var scan = index + 1
        var high: UInt8 = 0
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            scan += 1
        }
        if scan < bytes.count, bytes[scan] == UInt8(ascii: "\"") {
            let content = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<scan])
            let string: String
            lastStringIsASCII = high < 0x80
            if high < 0x80 {
                string = String(decoding: content, as: UTF8.self)
            } else {
                guard let valid = String(validating: content, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: index + 1)
                }
                string = valid
            }
            index = scan + 1
            return string
        }
        index += 1
        lastStringIsASCII = false
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() throws(StrictJSON.ParseError) {
            guard runStart < index else { return }
            guard let run = String(validating: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
            else {
                throw error("invalid UTF-8 in a string", at: runStart)
            }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun()
                index += 1
                return String(scalars)
            } else if byte == UInt8(ascii: "\\") {
                try flushRun()
                index += 1
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
                default: throw error("invalid escape sequence", at: index - 2)
                }
                runStart = index
            } else if byte < 0x20 {
                throw error("unescaped control character in a string")
            } else {
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(StrictJSON.ParseError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(StrictJSON.ParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error("unpaired surrogate in a \\u escape")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("unpaired surrogate in a \\u escape") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate in a \\u escape") }
        return scalar
    }
}
