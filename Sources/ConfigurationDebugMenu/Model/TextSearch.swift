package import ServiceConfiguration
import ServiceConfigurationFileStore

/// Finds keys by what they say and hold, not only by their names: the summary (description), the value, the server
/// value and the override's note. Every term of the query must appear, case-insensitively, in the same field, as
/// it is stored or as the screen shows it (an invisible character is found by its escape: `\u{200B}`, `\t`).
/// Matches found here rank below the fuzzy matches on titles and names (exact and prefix matches on a value rank
/// above them), and the list shows where they matched.
package struct TextSearch: Sendable {
    /// Where a key matched.
    package enum Field: String, Equatable, Sendable {
        case summary = "description"
        case value
        case server = "server value"
        case note
    }

    private let terms: [[UInt8]]

    /// Prepares a query; an empty one matches nothing.
    package init(query: String) {
        terms = query.split(separator: " ").map { term in term.utf8.map(Self.lower) }
    }

    /// The first field of `key` that holds every term, if any.
    package func match(_ key: Int, table: KeyTable, status: ConfigurationKeyStatus) -> Field? {
        guard !terms.isEmpty else { return nil }
        let summary = table.summaryText[table.summaryOffsets[key]..<table.summaryOffsets[key + 1]]
        if terms.allSatisfy({ Self.contains(summary, $0) }) { return .summary }
        for (field, text) in [
            (Field.value, status.value), (.server, status.serverValue), (.note, status.override?.note),
        ] {
            guard let text else { continue }
            let bytes = Array(text.utf8)
            if terms.allSatisfy({ Self.contains(bytes[...], $0, lowering: true) }) { return field }
            if VisibleText.needsEscaping(text) {
                let shown = Array(VisibleText.escaped(text).utf8)
                if terms.allSatisfy({ Self.contains(shown[...], $0, lowering: true) }) { return field }
            }
        }
        return nil
    }

    /// Whether `text` holds a character the screen shows escaped: a control character, an invisible one (zero
    /// width, bidirectional controls), or invalid text — what the "invisible characters" filter lists.
    package static func holdsInvisible(_ text: String?) -> Bool {
        guard let text else { return false }
        return VisibleText.needsEscaping(text)
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Whether `needle` occurs in `haystack` (lower-casing the haystack's ASCII letters when asked).
    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8], lowering: Bool = false) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while start <= last {
            if (lowering ? lower(haystack[start]) : haystack[start]) == first {
                var offset = 1
                while offset < needle.count,
                    (lowering ? lower(haystack[start + offset]) : haystack[start + offset]) == needle[offset]
                {
                    offset += 1
                }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
