import ServiceConfiguration
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

    /// The first field of `key` that holds every term, if any (`statuses` by key, as in ``MenuData/statuses``).
    package func match(_ key: Int, table: KeyTable, statuses: KeyStatuses) -> Field? {
        guard !terms.isEmpty else { return nil }
        let summary = table.summary(of: key)
        if terms.allSatisfy({ Self.contains(summary, $0) }) { return .summary }
        // Field by field, without making the whole status or an array of the fields.
        if statuses.isDefault(at: key) {
            // The default, read from the table (a key without one has an empty text there, which holds no term).
            if holdsEveryTerm(table.defaultValueBytes(of: key)) { return .value }
            return nil
        }
        if let value = statuses.value(at: key), holdsEveryTerm(value) { return .value }
        if let server = statuses.serverValue(at: key), holdsEveryTerm(server) { return .server }
        if let note = statuses.override(at: key)?.note, holdsEveryTerm(note) { return .note }
        return nil
    }

    /// ``holdsEveryTerm(_:)-(String)`` of a value's UTF-8, making the string only when the screen would show it
    /// escaped.
    private func holdsEveryTerm(_ text: ArraySlice<UInt8>) -> Bool {
        if terms.allSatisfy({ Self.contains(text, $0, lowering: true) }) { return true }
        // Only bytes outside printable ASCII can be shown escaped.
        guard text.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
        return holdsEveryTerm(String(decoding: text, as: UTF8.self))
    }

    /// Whether `text` holds every term, as it is or as the screen shows it, searched in place.
    private func holdsEveryTerm(_ text: String) -> Bool {
        var text = text
        if text.withUTF8({ bytes in terms.allSatisfy { Self.contains(bytes, $0, lowering: true) } }) { return true }
        guard VisibleText.needsEscaping(text) else { return false }
        let shown = Array(VisibleText.escaped(text).utf8)
        return terms.allSatisfy { Self.contains(shown[...], $0, lowering: true) }
    }

    /// Whether `text` holds a character the screen shows escaped: a control character, an invisible one (zero
    /// width, bidirectional controls), or invalid text — what the "invisible characters" filter lists.
    package static func holdsInvisible(_ text: String?) -> Bool {
        guard let text else { return false }
        return VisibleText.needsEscaping(text)
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Whether `needle` occurs in `haystack` (lower-casing the haystack's ASCII letters when asked).
    private static func contains<Bytes: RandomAccessCollection<UInt8>>(
        _ haystack: Bytes, _ needle: [UInt8], lowering: Bool = false
    ) -> Bool where Bytes.Index == Int {
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
