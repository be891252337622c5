import Foundation
import Synchronization

/// The manifest's written form and its fast reader.
///
/// Written: compact JSON with one key per line (members in alphabetical order), built byte by byte from the
/// descriptors, so writing a catalog of a million keys holds one key's entry at a time besides the output (about 170
/// bytes a key for the synthetic catalog, where indented JSON took 370).
///
/// Read: a single pass over the bytes, a scope at a time, for documents in the plain form every writer of this format
/// produces. Anything else (a `null`, a duplicate member where the reader interprets one, a number where a
/// string belongs, invalid JSON, a byte-order mark…) makes the fast reader give up, and Foundation's `JSONDecoder`
/// reads the document instead, so what is accepted and every error message stay those of the decoder.
enum ManifestCompactForm {
    /// The manifest of `scopes` as compact JSON, one key per line, ending in a newline.
    static func write(
        scopes: [ConfigurationCatalog.Scope], requiresOwners: Bool, estimatedKeys: Int
    ) -> [UInt8] {
        var out = Writer()
        out.bytes.reserveCapacity(128 + estimatedKeys * 180)
        out.raw(#"{"format":"#)
        out.string(ConfigurationManifest.formatName)
        if requiresOwners { out.raw(#","requiresOwners":true"#) }
        out.raw(#","scopes":["#)
        for (scopeIndex, scope) in scopes.enumerated() {
            out.raw(scopeIndex == 0 ? "\n" : ",\n")
            out.raw(#"{"keys":["#)
            for (keyIndex, key) in scope.keys.enumerated() {
                out.raw(keyIndex == 0 ? "\n" : ",\n")
                out.key(ManifestDocument.Key(key))
            }
            out.raw(scope.keys.isEmpty ? #"],"name":"# : "\n],\"name\":")
            out.string(scope.name)
            out.raw("}")
        }
        out.raw(scopes.isEmpty ? "]," : "\n],")
        out.raw(#""version":\#(ConfigurationManifest.version)}"#)
        out.raw("\n")
        return out.bytes
    }

    /// What a manifest says besides its scopes.
    struct Header {
        var format: String
        var version: Int
        var requiresOwners: Bool?
    }

    /// Reads the document in `bytes`, handing each scope to `scope` as soon as it is read (so a caller that turns it
    /// into descriptors never holds every key twice); `nil` when the document is not in the plain form this reader
    /// takes or `scope` returned `false` (the caller then decodes it with `JSONDecoder`, which accepts or refuses it
    /// and says why).
    ///
    /// With a `selection`, only its part of the document is read: every byte is checked for well-formed JSON and the
    /// document's outline (format, version, scopes with keys and names, each key an object with a name), but only the
    /// selected keys are made into values and handed over (a scope without any is not).
    static func read(
        _ bytes: UnsafeRawBufferPointer, selecting selection: ManifestSelection? = nil,
        scope: (ManifestDocument.Scope) -> Bool
    ) -> Header? {
        var reader = Reader(bytes: bytes)
        let names = selection?.keyNames.map { Array($0.utf8) } ?? []
        let header = reader.document { reader in
            guard let selection else { return reader.scope().map(scope) ?? false }
            guard let (name, keys) = reader.selectedScope(selection, keyNames: names) else { return false }
            return keys.isEmpty || scope(ManifestDocument.Scope(name: name, keys: keys))
        }
        guard let header, reader.atEnd() else { return nil }
        return header
    }

    /// ``read(_:selecting:scope:)`` of a whole document, turning each scope into a `T` with `convert` (`nil`: give
    /// up, as `scope` returning `false` does), on two threads when the document is large (a manifest of 100,000 keys
    /// is 17 MB) and the machine has a second core: a helper reads the scopes from one that starts near the middle
    /// while this thread reads up to it. The helper's start is a guess, taken where the writer puts a scope (`,` and
    /// a newline before `{"keys":[`); its work is used only if this thread's reading arrives exactly there, at the
    /// start of an element of `scopes` (the reader carries no other state between scopes, so the helper then read
    /// what this thread would have). Otherwise it is dropped and this thread reads on, so the result is always the
    /// single-threaded one.
    ///
    /// From a ``ManifestBuffer``, each thread gives back the pages it has read as it goes, so the document and its
    /// descriptors are not held whole at once; the reader then gives up (`nil`) rather than read on where the helper
    /// may have given pages back, and whoever called it reads the file again for the decoder.
    ///
    /// `helped` says whether the helper's scopes were used.
    static func readConcurrently<T: Sendable>(
        _ source: ManifestSource, convert: @escaping @Sendable (ManifestDocument.Scope) -> T?
    ) -> (header: Header, scopes: [T], helped: Bool)? {
        var scopes: [T] = []
        var helped = false
        let split =
            source.count >= 1 << 20 && ProcessInfo.processInfo.activeProcessorCount > 1
            ? source.withUnsafeBytes(splitGuess) : nil
        let helper = HelperResult<T>()
        let group = DispatchGroup()
        if let split {
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                helper.set(
                    source.withUnsafeBytes { raw -> (scopes: [T], end: Int)? in
                        var reader = Reader(bytes: raw)
                        reader.index = split
                        var read: [T] = []
                        var released = split
                        repeat {
                            guard let scope = reader.scope(), let converted = convert(scope) else { return nil }
                            read.append(converted)
                            released = source.release(from: released, to: reader.index)
                        } while reader.take(0x2C)
                        return (read, reader.index)
                    })
            }
        }
        // The helper reads the source: it is not let go of (nor its pages given back) before the helper is done.
        defer { group.wait() }
        var released = 0
        let header = source.withUnsafeBytes { raw -> Header? in
            var reader = Reader(bytes: raw)
            guard
                let header = reader.document(scope: { reader in
                    if let split, reader.startsElement(at: split) {
                        group.wait()
                        // The helper read from here on: its scopes, and on from where it stopped.
                        guard let (read, end) = helper.value else { return false }
                        scopes.append(contentsOf: read)
                        reader.index = end
                        helped = true
                        return true
                    }
                    // Past the helper's start without arriving there: its pages may have been given back.
                    if let split, !helped, reader.index > split, source.releases { return false }
                    guard let scope = reader.scope(), let converted = convert(scope) else { return false }
                    scopes.append(converted)
                    released = source.release(from: released, to: min(reader.index, split ?? reader.index))
                    return true
                }), reader.atEnd()
            else { return nil }
            return header
        }
        return header.map { ($0, scopes, helped) }
    }

    /// Where a scope likely starts in the second half of `bytes`, as the writer lays scopes out.
    private static func splitGuess(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let pattern = Array(",\n{\"keys\":[".utf8)
        return bytes.withMemoryRebound(to: UInt8.self) { buffer -> Int? in
            var index = buffer.count / 2
            while index + pattern.count <= buffer.count {
                guard let comma = buffer[index...].firstIndex(of: 0x2C) else { return nil }
                if comma + pattern.count <= buffer.count,
                    buffer[comma..<(comma + pattern.count)].elementsEqual(pattern)
                {
                    return comma + 2
                }
                index = comma + 1
            }
            return nil
        }
    }

    /// What the helper of ``readConcurrently(_:convert:)`` read, handed to the reading thread.
    private final class HelperResult<T: Sendable>: Sendable {
        private let result = Mutex<(scopes: [T], end: Int)?>(nil)

        func set(_ value: (scopes: [T], end: Int)?) { result.withLock { $0 = value } }

        var value: (scopes: [T], end: Int)? { result.withLock { $0 } }
    }

    /// Appends JSON to a byte array.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func raw(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// A JSON string: quotes, backslashes and control characters escaped, everything else as it is.
        mutating func string(_ text: String) {
            bytes.append(0x22)
            for byte in text.utf8 {
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
                case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
            bytes.append(0x22)
        }

        /// `,"name":"value"` when `value` is not `nil`.
        mutating func member(_ name: StaticString, _ value: String?) {
            guard let value else { return }
            raw(",\"")
            raw(name)
            raw("\":")
            string(value)
        }

        mutating func key(_ key: ManifestDocument.Key) {
            raw(#"{"control":"#)
            control(key.control)
            member("default", key.default)
            member("format", key.format)
            member("name", key.name)
            member("owner", key.owner)
            member("pattern", key.pattern)
            if let removeBy = key.removeBy {
                raw(#","removeBy":{"#)
                if let date = removeBy.date {
                    raw(#""date":"#)
                    string(date)
                } else if let version = removeBy.version {
                    raw(#""version":"#)
                    string(version)
                }
                raw("}")
            }
            member("summary", key.summary)
            member("ticket", key.ticket)
            member("title", key.title)
            member("type", key.type)
            raw("}")
        }

        mutating func control(_ control: ManifestDocument.Control) {
            raw("{")
            if let choices = control.choices {
                raw(#""choices":["#)
                for (index, choice) in choices.enumerated() {
                    raw(index == 0 ? "{" : ",{")
                    if let enabled = choice.enabled { raw(enabled ? #""enabled":true,"# : #""enabled":false,"#) }
                    if let title = choice.title {
                        raw(#""title":"#)
                        string(title)
                        raw(",")
                    }
                    raw(#""value":"#)
                    string(choice.value)
                    raw("}")
                }
                raw("],")
            }
            raw(#""kind":"#)
            string(control.kind)
            member("maximum", control.maximum)
            member("minimum", control.minimum)
            member("number", control.number)
            member("off", control.off)
            member("on", control.on)
            member("step", control.step)
            raw("}")
        }
    }

    /// A pull reader over a manifest's bytes; every function returns `nil` (or `false`) at the first thing it does not
    /// take, and the whole read gives up.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        /// Objects and arrays nested deeper than this inside an unknown member are not read here.
        static let maximumDepth = 64

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// The document, each scope read and handled by `scope` (`false`: give up).
        mutating func document(scope handle: (inout Reader) -> Bool) -> Header? {
            var format: String?
            var version: Int?
            var scopes: Int?
            var requiresOwners: Bool?
            let read = object { reader, member in
                switch member {
                case "format": return once(&format, reader.string())
                case "version": return once(&version, reader.integer())
                case "requiresOwners": return once(&requiresOwners, reader.bool())
                case "scopes":
                    let handled: [Bool]? = reader.array { reader in handle(&reader) ? true : nil }
                    return once(&scopes, handled?.count)
                default: return reader.skipValue(depth: 1)
                }
            }
            guard read, let format, let version, scopes != nil else { return nil }
            return Header(format: format, version: version, requiresOwners: requiresOwners)
        }

        mutating func scope() -> ManifestDocument.Scope? {
            var name: String?
            var keys: [ManifestDocument.Key]?
            let read = object { reader, member in
                switch member {
                case "name": return once(&name, reader.string())
                case "keys": return once(&keys, reader.array { $0.key() })
                default: return reader.skipValue(depth: 3)
                }
            }
            guard read, let name, let keys else { return nil }
            return ManifestDocument.Scope(name: name, keys: keys)
        }

        /// A scope with only the keys `selection` names (`keyNames`: the names it selects, as UTF-8): every key
        /// named, or every key when the scope's name is the one selected (ignoring case); the others are checked and
        /// skipped.
        mutating func selectedScope(
            _ selection: ManifestSelection, keyNames: [[UInt8]]
        ) -> (name: String, keys: [ManifestDocument.Key])? {
            var name: String?
            var keysStart: Int?
            var keys: [ManifestDocument.Key] = []
            let read = object { reader, member in
                switch member {
                case "name": return once(&name, reader.string())
                case "keys":
                    guard keysStart == nil else { return false }
                    keysStart = reader.index
                    let read: [Bool]? = reader.array { reader in
                        let start = reader.index
                        guard let named = reader.skipKey(matching: keyNames) else { return nil }
                        if named {
                            var again = reader
                            again.index = start
                            guard let key = again.key() else { return nil }
                            keys.append(key)
                        }
                        return true
                    }
                    return read != nil
                default: return reader.skipValue(depth: 3)
                }
            }
            guard read, let name, let keysStart else { return nil }
            if case .scope(let wanted) = selection, name.lowercased() == wanted.lowercased() {
                var again = self
                again.index = keysStart
                guard let all = again.array({ $0.key() }) else { return nil }
                return (name, all)
            }
            return (name, keys)
        }

        /// Checks and skips a key object, saying whether its name is one of `names` (`nil`: not a key object with
        /// a name, or not well-formed).
        mutating func skipKey(matching names: [[UInt8]]) -> Bool? {
            var matched: Bool?
            let read = object { reader, member in
                guard case "name" = member else { return reader.skipValue(depth: 5) }
                guard matched == nil else { return false }
                guard reader.take(0x22) else { return false }
                let start = reader.index
                // A name in the plain form is compared as written; one with an escape is decoded first.
                reader.index = ASCIIRun.endOfPlainJSONString(in: reader.bytes, from: start)
                while reader.index < reader.bytes.count, reader.bytes[reader.index] >= 0x20,
                    reader.bytes[reader.index] != 0x22, reader.bytes[reader.index] != 0x5C
                {
                    reader.index += 1
                }
                guard reader.index < reader.bytes.count else { return false }
                if reader.bytes[reader.index] == 0x22 {
                    let written = UnsafeRawBufferPointer(rebasing: reader.bytes[start..<reader.index])
                    reader.index += 1
                    matched = names.contains { $0.elementsEqual(written) }
                    return written.allSatisfy { $0 < 0x80 } || String(validating: written, as: UTF8.self) != nil
                }
                reader.index = start - 1
                guard let decoded = reader.string() else { return false }
                matched = names.contains { $0.elementsEqual(decoded.utf8) }
                return true
            }
            guard read, let matched else { return nil }
            return matched
        }

        mutating func key() -> ManifestDocument.Key? {
            // Each member into a variable of its own, the entry made from them at the end: reading them into an
            // entry that the closure captures made the compiler copy the whole entry (eleven members, each a
            // retain) to return it, and destroy the original.
            var name: String?
            var control: ManifestDocument.Control?
            var title: String?
            var type: String?
            var defaultValue: String?
            var summary: String?
            var pattern: String?
            var format: String?
            var owner: String?
            var ticket: String?
            var removeBy: ManifestDocument.RemoveBy?
            let read = object { reader, member in
                switch member {
                case "name": return once(&name, reader.string())
                case "control": return once(&control, reader.control())
                case "title": return once(&title, reader.string())
                case "type": return once(&type, reader.string())
                case "default": return once(&defaultValue, reader.string())
                case "summary": return once(&summary, reader.string())
                case "pattern": return once(&pattern, reader.string())
                case "format": return once(&format, reader.string())
                case "owner": return once(&owner, reader.string())
                case "ticket": return once(&ticket, reader.string())
                case "removeBy": return once(&removeBy, reader.removeBy())
                default: return reader.skipValue(depth: 5)
                }
            }
            guard read, let name, let control else { return nil }
            return ManifestDocument.Key(
                name: name, title: title, type: type, default: defaultValue, control: control, summary: summary,
                pattern: pattern, format: format, owner: owner, ticket: ticket, removeBy: removeBy)
        }

        mutating func control() -> ManifestDocument.Control? {
            // As in `key()`: variables of their own, not an entry the closure captures.
            var kind: String?
            var choices: [ManifestDocument.Choice]?
            var on: String?
            var off: String?
            var number: String?
            var minimum: String?
            var maximum: String?
            var step: String?
            let read = object { reader, member in
                switch member {
                case "kind": return once(&kind, reader.string())
                case "choices": return once(&choices, reader.array { $0.choice() })
                case "on": return once(&on, reader.string())
                case "off": return once(&off, reader.string())
                case "number": return once(&number, reader.string())
                case "minimum": return once(&minimum, reader.string())
                case "maximum": return once(&maximum, reader.string())
                case "step": return once(&step, reader.string())
                default: return reader.skipValue(depth: 6)
                }
            }
            guard read, let kind else { return nil }
            return ManifestDocument.Control(
                kind: kind, on: on, off: off, number: number, minimum: minimum, maximum: maximum, step: step,
                choices: choices)
        }

        mutating func choice() -> ManifestDocument.Choice? {
            var value: String?
            var title: String?
            var enabled: Bool?
            let read = object { reader, member in
                switch member {
                case "value": return once(&value, reader.string())
                case "title": return once(&title, reader.string())
                case "enabled": return once(&enabled, reader.bool())
                default: return reader.skipValue(depth: 8)
                }
            }
            guard read, let value else { return nil }
            return ManifestDocument.Choice(value: value, title: title, enabled: enabled)
        }

        mutating func removeBy() -> ManifestDocument.RemoveBy? {
            var date: String?
            var version: String?
            let read = object { reader, member in
                switch member {
                case "date": return once(&date, reader.string())
                case "version": return once(&version, reader.string())
                default: return reader.skipValue(depth: 6)
                }
            }
            return read ? ManifestDocument.RemoveBy(date: date, version: version) : nil
        }

        // MARK: JSON

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        /// Consumes `byte` after any white space.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func peek() -> UInt8? {
            skipSpace()
            return index < bytes.count ? bytes[index] : nil
        }

        /// Whether the next element (after any white space) starts at `offset`.
        mutating func startsElement(at offset: Int) -> Bool {
            skipSpace()
            return index == offset
        }

        /// Only white space is left.
        mutating func atEnd() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        /// An object, each member's value read by `member` (which must consume it). Member names are compared as
        /// written: a name with an escape or a byte outside ASCII is not the plain form.
        private mutating func object(_ member: (inout Reader, MemberName) -> Bool) -> Bool {
            guard take(0x7B) else { return false }
            if take(0x7D) { return true }
            repeat {
                guard take(0x22) else { return false }
                let start = index
                while index < bytes.count, (0x20..<0x80).contains(bytes[index]), bytes[index] != 0x22,
                    bytes[index] != 0x5C
                {
                    index += 1
                }
                guard index < bytes.count, bytes[index] == 0x22 else { return false }
                let name = MemberName(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                guard take(0x3A), member(&self, name) else { return false }
            } while take(0x2C)
            return take(0x7D)
        }

        /// An array, each element read by `element`.
        private mutating func array<Element>(_ element: (inout Reader) -> Element?) -> [Element]? {
            guard take(0x5B) else { return nil }
            var elements: [Element] = []
            if take(0x5D) { return elements }
            // Room for a picker's few choices at once (growing from one took two more allocations and copies).
            elements.reserveCapacity(4)
            repeat {
                guard let next = element(&self) else { return nil }
                elements.append(next)
            } while take(0x2C)
            return take(0x5D) ? elements : nil
        }

        private mutating func literal(_ text: StaticString) -> Bool {
            skipSpace()
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func bool() -> Bool? {
            if literal("true") { return true }
            if literal("false") { return false }
            return nil
        }

        /// A whole number written plainly (no fraction, exponent or leading zero).
        mutating func integer() -> Int? {
            skipSpace()
            let start = index
            if index < bytes.count, bytes[index] == 0x2D { index += 1 }
            let digits = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > digits, index - digits <= 18, bytes[digits] != 0x30 || index - digits == 1 else { return nil }
            if index < bytes.count, [0x2E, 0x65, 0x45].contains(bytes[index]) { return nil }
            return Int(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        /// A string: valid UTF-8, no raw control character, escapes decoded (a lone surrogate is not taken).
        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = index
            // The plain part, eight bytes at a time; the loop below takes the rest (and an end it stopped at).
            index = ASCIIRun.endOfPlainJSONString(in: bytes, from: index)
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 {
                    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    // Plain ASCII (nearly every string here) needs no validation.
                    return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if byte == 0x5C { return escapedString(from: start) }
                if byte < 0x20 { return nil }
                ascii = ascii && byte < 0x80
                index += 1
            }
            return nil
        }

        /// Checks and skips a string as ``string()`` reads it, without making one when it is plain ASCII.
        mutating func skipString() -> Bool {
            guard take(0x22) else { return false }
            let start = index
            index = ASCIIRun.endOfPlainJSONString(in: bytes, from: index)
            while index < bytes.count {
                switch bytes[index] {
                case 0x22:
                    index += 1
                    return true
                case 0x20..<0x80 where bytes[index] != 0x5C: index += 1
                default:
                    index = start - 1
                    return string() != nil
                }
            }
            return false
        }

        /// The rest of a string holding an escape, from its first byte at `start`.
        private mutating func escapedString(from start: Int) -> String? {
            var utf8 = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x22: return String(validating: utf8, as: UTF8.self)
                case ..<0x20: return nil
                case 0x5C:
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x22, 0x5C, 0x2F: utf8.append(escape)
                    case 0x62: utf8.append(0x08)
                    case 0x66: utf8.append(0x0C)
                    case 0x6E: utf8.append(0x0A)
                    case 0x72: utf8.append(0x0D)
                    case 0x74: utf8.append(0x09)
                    case 0x75:
                        guard let scalar = unicodeEscape() else { return nil }
                        utf8.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default: utf8.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `XXXX` (after `\u`), joining a surrogate pair.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            switch high {
            case 0xD800...0xDBFF:
                guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: return nil
            default: return Unicode.Scalar(high)
            }
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x30...0x39: value = value << 4 | UInt32(byte - 0x30)
                case 0x61...0x66: value = value << 4 | UInt32(byte - 0x61 + 10)
                case 0x41...0x46: value = value << 4 | UInt32(byte - 0x41 + 10)
                default: return nil
                }
            }
            return value
        }

        /// Any JSON value this format does not use, checked for well-formedness and skipped.
        mutating func skipValue(depth: Int) -> Bool {
            guard depth <= Self.maximumDepth, let next = peek() else { return false }
            switch next {
            case 0x22: return skipString()
            case 0x7B: return object { reader, _ in reader.skipValue(depth: depth + 1) }
            case 0x5B: return array { reader in reader.skipValue(depth: depth + 1) ? true : nil } != nil
            case 0x74, 0x66: return bool() != nil
            case 0x6E: return literal("null")
            default: return number()
            }
        }

        /// A JSON number of any form.
        private mutating func number() -> Bool {
            func digits() -> Bool {
                let start = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                return index > start
            }
            if index < bytes.count, bytes[index] == 0x2D { index += 1 }
            let whole = index
            guard digits(), bytes[whole] != 0x30 || index - whole == 1 else { return false }
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                guard digits() else { return false }
            }
            if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
                index += 1
                if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
                guard digits() else { return false }
            }
            return true
        }
    }
}

/// An object member's name as written in the document (plain ASCII), matched against the names the reader knows
/// without making a string.
private struct MemberName {
    let bytes: UnsafeRawBufferPointer

    static func ~= (known: StaticString, name: MemberName) -> Bool {
        // `withUTF8Buffer`, not `utf8Start`: a one-character literal may be stored as a scalar, without a pointer.
        known.withUTF8Buffer { known in
            known.count == name.bytes.count
                && (known.isEmpty || memcmp(known.baseAddress!, name.bytes.baseAddress!, known.count) == 0)
        }
    }
}

/// Sets `slot` to `value` when the member was not seen before and its value was read.
private func once<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
    guard slot == nil, let value else { return false }
    slot = value
    return true
}
