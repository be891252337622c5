/// One HTTP/1.1 request as `config-menu serve` accepts it: a request line, header fields, and a body of the
/// `Content-Length` given. Everything a client sends is bounded and checked before it is used; a refusal carries the
/// status to answer with and a reason a person can act on.
package struct HTTPServerRequest: Sendable, Equatable {
    /// `GET`, `POST`, ...
    package var method: String
    /// The path, percent-decoded, without the query.
    package var path: String
    /// Header fields by lower-case name (a repeated field keeps its values joined by ", ").
    package var headers: [String: String]
    /// The body (`Content-Length` bytes).
    package var body: [UInt8]

    /// What the parser accepts at most.
    package struct Limits: Sendable {
        /// The request line and header fields together, in bytes.
        package var head = 16 * 1024
        /// Header fields.
        package var fields = 64
        /// The body, in bytes.
        package var body = 64 * 1024

        /// The defaults.
        package init() {}
    }

    /// Why a request was refused: the status to answer with and what was wrong.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// 400, 413, 431, 501, ...
        package var status: Int
        /// What was wrong, for the answer's body.
        package var reason: String
        package var description: String { "\(status): \(reason)" }

        package init(_ status: Int, _ reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    /// The end of the head (the index just past `\r\n\r\n`) in `bytes`, or `nil` when it has not arrived yet; throws
    /// when the head is already longer than `limits.head`.
    package static func headEnd(in bytes: [UInt8], limits: Limits = Limits()) throws(Refusal) -> Int? {
        if bytes.count >= 4 {
            for index in 3..<min(bytes.count, limits.head + 4)
            where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
                return index + 1
            }
        }
        if bytes.count > limits.head {
            throw Refusal(431, "the request line and header fields are over \(limits.head) bytes")
        }
        return nil
    }

    /// Parses a head (everything before the blank line, without it) into a request with an empty body, and returns the
    /// body length `Content-Length` announces.
    package static func parseHead(_ head: ArraySlice<UInt8>, limits: Limits = Limits()) throws(Refusal) -> (
        request: HTTPServerRequest, bodyLength: Int
    ) {
        guard let text = String(validating: head, as: UTF8.self) else {
            throw Refusal(400, "the request head is not UTF-8 text")
        }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, !requestLine.isEmpty else { throw Refusal(400, "no request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw Refusal(400, "the request line is not METHOD TARGET HTTP/1.1")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw Refusal(505, "only HTTP/1.1 and HTTP/1.0 are served")
        }
        let target = parts[1]
        guard target.hasPrefix("/") else { throw Refusal(400, "the request target is not a path") }
        let rawPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let path = percentDecoded(rawPath) else {
            throw Refusal(400, "the path has a bad percent escape or is not UTF-8 once decoded")
        }
        var headers: [String: String] = [:]
        let fields = lines.dropFirst()
        guard fields.count <= limits.fields else {
            throw Refusal(431, "\(fields.count) header fields; at most \(limits.fields) are accepted")
        }
        for line in fields {
            guard let colon = line.firstIndex(of: ":") else {
                throw Refusal(400, "a header field without a colon")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                throw Refusal(400, "a header field name with a space or a character a name cannot hold")
            }
            let value = line[line.index(after: colon)...].trimmingSpacesAndTabs
            guard value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }) else {
                throw Refusal(400, "the value of \(name) holds a control character")
            }
            let key = name.lowercased()
            if let earlier = headers[key] {
                guard key != "content-length" || earlier == value else {
                    throw Refusal(400, "two different Content-Length fields")
                }
                if key != "content-length" { headers[key] = earlier + ", " + value }
            } else {
                headers[key] = String(value)
            }
        }
        if headers["transfer-encoding"] != nil {
            throw Refusal(501, "a Transfer-Encoding body is not accepted; send Content-Length")
        }
        var bodyLength = 0
        if let length = headers["content-length"] {
            guard !length.isEmpty, length.count <= 19, length.allSatisfy(\.isASCIIDigit), let count = Int(length) else {
                throw Refusal(400, "Content-Length is not a number of bytes")
            }
            guard count <= limits.body else {
                throw Refusal(413, "a body of \(count) bytes; at most \(limits.body) are accepted")
            }
            bodyLength = count
        }
        return (
            HTTPServerRequest(method: String(parts[0]), path: path, headers: headers, body: []), bodyLength
        )
    }

    /// `%XX` escapes decoded; `nil` for a broken escape, a decoded NUL, or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            let decoded = high << 4 | low
            guard decoded != 0 else { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let value = character.asciiValue, value > 0x20, value < 0x7F else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Substring {
    fileprivate var trimmingSpacesAndTabs: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
