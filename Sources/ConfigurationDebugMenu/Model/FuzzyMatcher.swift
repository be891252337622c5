/// fzf-style fuzzy matching of a query against each key's title, wire name and scope.
///
/// The query is split on spaces into terms; every term must match as a subsequence (case-insensitive for ASCII)
/// within one field (the title, the wire name or the scope), so "typ" does not match "quality · Photos".
/// A match scores points per matched character, with bonuses where a character starts a word (at the start of a
/// field, or after `.`, `_`, `-`, `/` or a space) and for consecutive characters, and penalties for gaps; each
/// term takes the shortest window ending at its first complete match (fzf's "v1" algorithm). Results are ranked by
/// score, then by catalog order.
package struct FuzzyMatcher: Sendable {
    /// One key that matched.
    package struct Match: Equatable, Sendable {
        /// The key's index in the ``KeyTable``.
        package var key: Int
        /// Higher is better.
        package var score: Int
    }

    private let terms: [[UInt8]]

    /// Prepares a query; an empty or all-space query matches everything with score 0.
    package init(query: String) {
        terms = query.split(separator: " ").map { term in
            term.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        }
    }

    /// Whether the query has no terms.
    package var isEmpty: Bool { terms.isEmpty }

    /// How many keys a search looks at between two questions whether to stop (a few hundred microseconds' work).
    static let stopCheckInterval = 4096

    /// Matches the keys `candidates` (all keys when `nil`) of `table`; ranked best first.
    package func rank(_ table: KeyTable, candidates: [Int]? = nil) -> [Match] {
        rank(table, candidates: candidates, shouldStop: { false }) ?? []
    }

    /// Matches the keys `candidates` (all keys when `nil`) of `table`, ranked best first; `nil` as soon as
    /// `shouldStop` says so (it is asked every ``stopCheckInterval`` keys).
    package func rank(_ table: KeyTable, candidates: [Int]?, shouldStop: () -> Bool) -> [Match]? {
        var matches: [Match] = []
        let finished = table.searchText.withUnsafeBufferPointer { text in
            table.searchOffsets.withUnsafeBufferPointer { offsets in
                let count = candidates?.count ?? (offsets.count - 1)
                for index in 0..<count {
                    if index % Self.stopCheckInterval == 0, shouldStop() { return false }
                    let key = candidates?[index] ?? index
                    if let score = score(text, offsets[key]..<offsets[key + 1]) {
                        matches.append(Match(key: key, score: score))
                    }
                }
                return true
            }
        }
        guard finished else { return nil }
        guard !terms.isEmpty else { return matches }
        // Pack (score descending, key ascending) into one integer and sort that: much faster than a tuple sort.
        var packed = matches.map {
            (UInt64(UInt32(bitPattern: Int32(clamping: 1_000_000 - $0.score))) << 32) | UInt64($0.key)
        }
        packed.sort()
        return packed.map {
            Match(key: Int($0 & 0xFFFF_FFFF), score: 1_000_000 - Int(Int32(bitPattern: UInt32($0 >> 32))))
        }
    }

    /// The byte positions (in the key's search text) of the characters the query matched, for highlighting.
    package func positions(in table: KeyTable, key: Int) -> [Int] {
        let range = table.searchOffsets[key]..<table.searchOffsets[key + 1]
        var result: [Int] = []
        table.searchText.withUnsafeBufferPointer { text in
            for term in terms {
                guard let window = window(of: term, in: text, range) else { return }
                var termIndex = 0
                for position in window where termIndex < term.count && text[position] == term[termIndex] {
                    result.append(position - range.lowerBound)
                    termIndex += 1
                }
            }
        }
        return result.sorted()
    }

    private func score(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var total = 0
        for term in terms {
            guard let window = window(of: term, in: text, range) else { return nil }
            total += score(term, in: text, window, from: range.lowerBound)
        }
        return total
    }

    /// The shortest window that ends where the first forward match of `term` ends.
    private func window(of term: [UInt8], in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
        guard !term.isEmpty else { return range.lowerBound..<range.lowerBound }
        var termIndex = 0
        var position = range.lowerBound
        let first = term[0]
        // Skip quickly to the first occurrence of the term's first byte.
        while position < range.upperBound, text[position] != first { position += 1 }
        while position < range.upperBound {
            if text[position] == 1 {
                termIndex = 0  // a term matches within one field
            } else if text[position] == term[termIndex] {
                termIndex += 1
                if termIndex == term.count { break }
            }
            position += 1
        }
        guard termIndex == term.count else { return nil }
        let end = position + 1
        var start = position
        termIndex = term.count - 1
        while true {
            if text[start] == term[termIndex] {
                if termIndex == 0 { break }
                termIndex -= 1
            }
            start -= 1
        }
        return start..<end
    }

    private func score(_ term: [UInt8], in text: UnsafeBufferPointer<UInt8>, _ window: Range<Int>, from origin: Int)
        -> Int
    {
        var score = 0
        var termIndex = 0
        var consecutive = 0
        var inGap = false
        for position in window {
            let byte = text[position]
            if termIndex < term.count, byte == term[termIndex] {
                var points = 16
                let previous = position > origin ? text[position - 1] : 1
                if previous == 1 || previous == UInt8(ascii: ".") || previous == UInt8(ascii: "_")
                    || previous == UInt8(ascii: "-") || previous == UInt8(ascii: " ") || previous == UInt8(ascii: "/")
                {
                    points += position == origin ? 10 : 8
                }
                consecutive += 1
                if consecutive > 1 { points += 4 }
                score += points
                termIndex += 1
                inGap = false
            } else {
                consecutive = 0
                score -= inGap ? 1 : 3
                inGap = true
            }
        }
        return score
    }
}
