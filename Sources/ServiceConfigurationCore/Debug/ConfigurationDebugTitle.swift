/// Derives a readable title from a wire name, for keys that do not set ``ConfigurationKey/debugTitle``.
///
/// The heuristic, in order:
/// 1. Split the name on `.`; drop a leading generic segment (`function`, `feature`, `config`, `settings`, `flag`,
///    `app`, `client`) when more than one segment remains.
/// 2. Take the last segment. While it holds only generic words (qualifiers such as `enabled`, `mode`, `limit`,
///    `max_length`, `interval_ms`), put the segment before it in front, so `function.album.like.enabled` reads
///    "Like Enabled", not "Enabled", and `function.profile.bio.max_length` reads "Bio Max Length", not "Max Length".
/// 3. Split words on `_`, `-` and lowerCamel humps; capitalise each word; spell known acronyms in capitals (`URL`,
///    `ID`, `JSON`, `HTTP`, `API`, `UI`, `AB` as `A/B`); turn a trailing unit (`ms`, `sec`, `kb`, `mb`, `px`,
///    `pct`) into a parenthesised suffix, as in "Typing Interval (ms)".
///
/// ```swift
/// ConfigurationDebugTitle.derive(from: "function.album.like.enabled")   // "Like Enabled"
/// ConfigurationDebugTitle.derive(from: "function.media.image_medium")   // "Image Medium"
/// ConfigurationDebugTitle.derive(from: "chat.typing_interval_ms")       // "Typing Interval (ms)"
/// ```
public enum ConfigurationDebugTitle {
    /// Returns the title for `name` by the rules above; never empty (falls back to the name itself).
    public static func derive(from name: String) -> String {
        var segments = segments(of: name)
        if segments.count > 1, genericPrefixes.contains(lowercased(segments[0])) {
            segments.removeFirst()
        }
        guard let last = segments.last else { return name }
        var lastWords = words(in: last)
        var used = 1
        while used < segments.count, isGeneric(lastWords) {
            used += 1
            lastWords = words(in: segments[segments.count - used]) + lastWords
        }
        var unit: String?
        if lastWords.count > 1, let found = units[lowercased(lastWords[lastWords.count - 1])] {
            unit = found
            lastWords.removeLast()
        }
        let title = lastWords.map(capitalized).joined(separator: " ")
        guard !title.isEmpty else { return name }
        return unit.map { "\(title) (\($0))" } ?? title
    }

    /// Whether `words` say nothing that tells one key from another: only qualifiers and units.
    private static func isGeneric(_ words: [String]) -> Bool {
        let unitless = words.filter { units[lowercased($0)] == nil }
        return !unitless.isEmpty && unitless.allSatisfy { qualifiers.contains(lowercased($0)) }
    }

    static let genericPrefixes: Set<String> = [
        "function", "functions", "feature", "features", "config", "configuration", "settings", "setting", "flag",
        "flags", "app", "client",
    ]
    static let qualifiers: Set<String> = [
        "enabled", "enable", "disabled", "disable", "on", "off", "mode", "type", "kind", "variant", "version", "count",
        "limit", "max", "min", "size", "interval", "timeout", "delay", "level", "ratio", "rate", "percent",
        "threshold", "url", "value", "ab", "test", "length", "duration", "width", "height", "age", "ttl", "default",
        "minimum", "maximum", "number", "amount", "items",
    ]
    static let units: [String: String] = [
        "ms": "ms", "msec": "ms", "sec": "s", "secs": "s", "seconds": "s", "kb": "KB", "mb": "MB", "px": "px",
        "pct": "%",
    ]
    static let acronyms: [String: String] = [
        "url": "URL", "id": "ID", "json": "JSON", "http": "HTTP", "https": "HTTPS", "api": "API", "ui": "UI",
        "ab": "A/B", "cdn": "CDN", "hd": "HD", "sd": "SD", "hdr": "HDR", "jpeg": "JPEG", "gif": "GIF", "vip": "VIP",
        "qa": "QA", "ttl": "TTL", "p2p": "P2P", "sdk": "SDK", "ios": "iOS", "http3": "HTTP/3", "stun": "STUN",
    ]

    /// `word` in lower case, without allocating when it already is (the common case for wire names).
    private static func lowercased(_ word: String) -> String {
        word.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 }
            ? word.lowercased() : word
    }

    /// The non-empty dot-separated parts of `name`.
    private static func segments(of name: String) -> [String] {
        var result: [String] = []
        var start = name.utf8.startIndex
        for index in name.utf8.indices where name.utf8[index] == UInt8(ascii: ".") {
            if start < index { result.append(String(name.utf8[start..<index])!) }
            start = name.utf8.index(after: index)
        }
        if start < name.utf8.endIndex { result.append(String(name.utf8[start...])!) }
        return result
    }

    /// Splits `segment` into words at `_`, `-`, spaces and lower-to-upper case humps.
    static func words(in segment: String) -> [String] {
        if segment.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(in: segment) }
        var result: [String] = []
        var current = ""
        var previousWasLower = false
        for character in segment {
            if character == "_" || character == "-" || character == " " {
                if !current.isEmpty { result.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower, !current.isEmpty {
                result.append(current)
                current = ""
            }
            current.append(character)
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// ``words(in:)`` for ASCII text, on bytes: catalogs derive a title for every key, so this runs 100,000 times
    /// for a large one.
    private static func asciiWords(in segment: String) -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        var previousWasLower = false
        for byte in segment.utf8 {
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") {
                if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
                previousWasLower = false
                continue
            }
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            if isUpper, previousWasLower, !current.isEmpty {
                result.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
            current.append(byte)
            previousWasLower =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
        return result
    }

    static func capitalized(_ word: String) -> String {
        if let acronym = acronyms[lowercased(word)] { return acronym }
        if let first = word.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") {
            var bytes = Array(word.utf8)
            bytes[0] -= 32
            return String(decoding: bytes, as: UTF8.self)
        }
        return word.prefix(1).uppercased() + word.dropFirst()
    }
}
