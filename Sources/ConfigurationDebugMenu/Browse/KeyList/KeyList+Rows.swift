import Foundation
import ServiceConfiguration

extension KeyList {
    /// The rows for `data` under `filters`: scope headings and keys in catalog order, or ranked matches of the
    /// query, then orphaned overrides (when no scope is selected); `nil` as soon as `shouldStop` says so.
    mutating func computeRows(data: MenuData, filters: KeyFilters, shouldStop: () -> Bool) -> [Row]? {
        let scope = filters.effectiveScope
        let table = data.table
        let statuses = data.statuses
        func passes(_ key: Int) -> Bool {
            (!filters.onlyOverridden || statuses.override(at: key) != nil)
                && (!filters.onlyProblems || statuses[key].hasProblem
                    || data.coverage.rejectsOverride(of: statuses[key]))
                && (!filters.onlySyncChanged || data.syncChanges[table.keys[key].descriptor.name] != nil)
                && (!filters.onlyUnread || data.coverage.read(named: table.keys[key].descriptor.name) == nil)
                && (!filters.onlyInvisible || TextSearch.holdsInvisible(statuses[key].value)
                    || TextSearch.holdsInvisible(statuses[key].serverValue)
                    || TextSearch.holdsInvisible(statuses[key].override?.value))
        }
        let matcher = FuzzyMatcher(query: filters.query)
        var rows: [Row] = []
        textMatches = [:]
        if matcher.isEmpty {
            cache = nil
            let scopes = scope.map { [$0] } ?? Array(table.scopes.indices)
            if !(filters.onlyOverridden || filters.onlyProblems || filters.onlySyncChanged || filters.onlyUnread
                || filters.onlyInvisible)
            {
                // Every key of the scopes: sized once (grown by doubling, a million keys' rows held twice as many).
                let extra = data.orphans.count + data.coverage.unregistered.count + 2
                rows.reserveCapacity(scopes.reduce(extra) { $0 + table.scopes[$1].range.count + 1 })
            }
            for scope in scopes {
                if scope % 256 == 0, shouldStop() { return nil }
                let keys = table.scopes[scope].range.filter(passes)
                if keys.isEmpty { continue }
                rows.append(.heading(scope: scope))
                rows.append(contentsOf: keys.map { .key($0) })
            }
        } else {
            let candidates: [Int]?
            if let cache, cache.scope == scope, filters.query.hasPrefix(cache.query) {
                candidates = cache.keys
            } else {
                candidates = scope.map { Array(table.scopes[$0].range) }
            }
            // Name matches first, ranked; then keys whose description, value or note holds the words.
            guard let ranked = matcher.rank(table, candidates: candidates, shouldStop: shouldStop) else { return nil }
            let matches = ranked.map(\.key)
            let named = Set(matches)
            let search = TextSearch(query: filters.query)
            var found: [Int] = []
            for (index, key) in (candidates ?? Array(table.keys.indices)).enumerated() where !named.contains(key) {
                if index % FuzzyMatcher.stopCheckInterval == 0, shouldStop() { return nil }
                if let field = search.match(key, table: table, statuses: statuses) {
                    textMatches[key] = field
                    found.append(key)
                }
            }
            found.sort()
            cache = FilterCache(query: filters.query, scope: scope, keys: matches + found)
            guard
                let ranked = Self.exactFirst(
                    matches + found, query: filters.query, table: table, statuses: statuses, shouldStop: shouldStop)
            else { return nil }
            rows = ranked.lazy.filter(passes).map { .key($0) }
        }
        if scope == nil {
            let query = filters.query.lowercased().filter { $0 != " " }
            let orphans = data.orphans.indices.filter { index in
                query.isEmpty || data.orphans[index].name.lowercased().containsSubsequence(query)
            }
            if !orphans.isEmpty {
                rows.append(.orphanHeading)
                rows.append(contentsOf: orphans.map { .orphan($0) })
            }
            rows += unregisteredRows(data: data, filters: filters)
        }
        return rows
    }
}

extension KeyList {
    /// `keys` with those whose value, title, name or last name component equals the query first, then those that
    /// start with it, each group in the order given: `opus` finds the codec whose value is `opus` before keys whose
    /// names merely hold o, p, u and s. Compared byte by byte, ASCII letters folded, without allocating: titles and
    /// names in the table's lower-cased search text, values as they are; `nil` as soon as `shouldStop` says so.
    static func exactFirst(
        _ keys: [Int], query: String, table: KeyTable, statuses: KeyStatuses, shouldStop: () -> Bool
    ) -> [Int]? {
        let needle = Array(query.trimmingCharacters(in: .whitespaces).utf8).map(foldASCII)
        guard !needle.isEmpty else { return keys }
        var exact: [Int] = []
        var prefix: [Int] = []
        var rest: [Int] = []
        let dot = UInt8(ascii: ".")
        let finished = table.searchText.withUnsafeBufferPointer { text in
            for (index, key) in keys.enumerated() {
                if index % FuzzyMatcher.stopCheckInterval == 0, shouldStop() { return false }
                // No array of candidates per key: each text is checked in turn, stopping at an exact match.
                // A key's default from the table's text (in order in memory), any other value from its status.
                var best =
                    statuses.isDefault(at: key)
                    ? startMatch(table.defaultValueBytes(of: key), needle)
                    : statuses.value(at: key).map { startMatch($0.utf8[...], needle) } ?? 0
                if best < 2 {
                    let start = table.searchOffsets[key]
                    let nameStart = start + Int(table.nameBounds[2 * key])
                    let nameEnd = start + Int(table.nameBounds[2 * key + 1])
                    best = max(best, startMatch(text[start..<max(start, nameStart - 1)], needle))
                    if best < 2 { best = max(best, startMatch(text[nameStart..<nameEnd], needle)) }
                    if best < 2, let index = text[nameStart..<nameEnd].lastIndex(of: dot) {
                        best = max(best, startMatch(text[(index + 1)..<nameEnd], needle))
                    }
                }
                switch best {
                case 2: exact.append(key)
                case 1: prefix.append(key)
                default: rest.append(key)
                }
            }
            return true
        }
        return finished ? exact + prefix + rest : nil
    }

    /// 2 when `text` equals `needle`, 1 when it starts with it, 0 otherwise (ASCII letters folded).
    private static func startMatch<Text: Collection<UInt8>>(_ text: Text, _ needle: [UInt8]) -> Int {
        guard let first = text.first, foldASCII(first) == needle[0] else { return 0 }
        var index = text.startIndex
        for byte in needle {
            guard index < text.endIndex, foldASCII(text[index]) == byte else { return 0 }
            index = text.index(after: index)
        }
        return index == text.endIndex ? 2 : 1
    }

    private static func foldASCII(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }
}

extension String {
    /// Whether `other`'s characters appear in this string in order.
    func containsSubsequence(_ other: String) -> Bool {
        var iterator = other.makeIterator()
        var next = iterator.next()
        for character in self where character == next {
            next = iterator.next()
            if next == nil { return true }
        }
        return next == nil
    }
}
