/// Derives a readable title from a wire name, for keys that do not set ``ConfigurationKey/debugTitle``.
///
/// The heuristic, in order:
/// 1. Split the name on `.`; drop a leading generic segment (`function`, `feature`, `config`, `settings`, `flag`,
///    `app`, `client`) when more than one segment remains.
/// 2. Take the last segment. If it is only a qualifier (`enabled`, `mode`, `limit`, `interval_ms`, ...), put the
///    segment before it in front, so `function.album.like.enabled` reads "Like Enabled", not "Enabled".
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
        var segments = name.split(separator: ".").map(String.init)
        if segments.count > 1, genericPrefixes.contains(segments[0].lowercased()) {
            segments.removeFirst()
        }
        guard var last = segments.last else { return name }
        var lastWords = words(in: last)
        let unitless = lastWords.filter { units[$0.lowercased()] == nil }
        if segments.count > 1, !unitless.isEmpty, unitless.allSatisfy({ qualifiers.contains($0.lowercased()) }) {
            last = segments[segments.count - 2]
            lastWords = words(in: last) + lastWords
        }
        var unit: String?
        if lastWords.count > 1, let found = units[lastWords[lastWords.count - 1].lowercased()] {
            unit = found
            lastWords.removeLast()
        }
        let title = lastWords.map(capitalized).joined(separator: " ")
        guard !title.isEmpty else { return name }
        return unit.map { "\(title) (\($0))" } ?? title
    }

    static let genericPrefixes: Set<String> = [
        "function", "functions", "feature", "features", "config", "configuration", "settings", "setting", "flag",
        "flags", "app", "client",
    ]
    static let qualifiers: Set<String> = [
        "enabled", "enable", "disabled", "disable", "on", "off", "mode", "type", "kind", "variant", "version", "count",
        "limit", "max", "min", "size", "interval", "timeout", "delay", "level", "ratio", "rate", "percent",
        "threshold", "url", "value", "ab", "test",
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

    /// Splits `segment` into words at `_`, `-`, spaces and lower-to-upper case humps.
    static func words(in segment: String) -> [String] {
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

    static func capitalized(_ word: String) -> String {
        if let acronym = acronyms[word.lowercased()] { return acronym }
        return word.prefix(1).uppercased() + word.dropFirst()
    }
}
