package import ServiceConfigurationCore

/// Appends JSON text to a byte buffer; used where output must be fast and byte-for-byte deterministic.
package enum JSONWriter {
    /// `value` as text, pretty-printed with two-space indentation when `indent` is given.
    package static func string(_ value: JSONValue, indent: Int? = 2) -> String {
        var buffer: [UInt8] = []
        append(value, to: &buffer, indent: indent)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// `text` re-indented with two spaces, or unchanged when it is not valid JSON.
    package static func pretty(_ text: String) -> String {
        guard let value = try? StrictJSON.parse(Array(text.utf8)) else { return text }
        return string(value)
    }

    /// Appends `string` as a JSON string literal. Besides what JSON requires, DEL, the C1 controls (U+0080 to
    /// U+009F) and the line and paragraph separators (U+2028, U+2029) are written as `\\u` escapes, so the text is
    /// safe to show in a terminal and to embed in JavaScript.
    package static func appendString(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        let plain = string.withUTF8 { bytes in
            // 0xC2 starts U+0080...U+00BF (the C1 controls among them), 0xE2 starts U+2000...U+2FFF (the separators).
            for byte in bytes
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
                || byte == 0xC2 || byte == 0xE2
            {
                return false
            }
            buffer.append(contentsOf: bytes)
            return true
        }
        if plain {
            buffer.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                let value = Int(scalar.value)
                buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                for shift in [12, 8, 4, 0] { buffer.append(hex[(value >> shift) & 0xF]) }
            default: buffer.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends `value`, pretty-printed with two-space indentation when `indent` is given.
    package static func append(_ value: JSONValue, to buffer: inout [UInt8], indent: Int? = nil, level: Int = 0) {
        func newline(_ level: Int) {
            guard let indent else { return }
            buffer.append(0x0A)
            buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
        }
        switch value {
        case .null: buffer.append(contentsOf: Array("null".utf8))
        case .bool(let flag): buffer.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let literal): buffer.append(contentsOf: Array(literal.utf8))
        case .string(let string): appendString(string, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(level + 1)
                append(element, to: &buffer, indent: indent, level: level + 1)
            }
            if !elements.isEmpty { newline(level) }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (offset, member) in members.enumerated() {
                if offset > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(level + 1)
                appendString(member.key, to: &buffer)
                buffer.append(contentsOf: indent == nil ? [UInt8(ascii: ":")] : [UInt8(ascii: ":"), UInt8(ascii: " ")])
                append(member.value, to: &buffer, indent: indent, level: level + 1)
            }
            if !members.isEmpty { newline(level) }
            buffer.append(UInt8(ascii: "}"))
        }
    }
}
