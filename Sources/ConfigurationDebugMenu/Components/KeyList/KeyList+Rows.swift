extension KeyList {
    /// The rows for `data` under `filters`: scope headings and keys in catalog order, or ranked matches of the
    /// query, then orphaned overrides (when no scope is selected).
    mutating func computeRows(data: MenuData, filters: KeyFilters) -> [Row] {
        let table = data.table
        let statuses = data.statuses
        func passes(_ key: Int) -> Bool {
            (!filters.onlyOverridden || statuses[key].override != nil)
                && (!filters.onlyProblems || statuses[key].hasProblem)
        }
        let matcher = FuzzyMatcher(query: filters.query)
        var rows: [Row] = []
        if matcher.isEmpty {
            cache = nil
            let scopes = filters.scope.map { [$0] } ?? Array(table.scopes.indices)
            for scope in scopes {
                let keys = table.scopes[scope].range.filter(passes)
                if keys.isEmpty { continue }
                rows.append(.heading(scope: scope))
                rows.append(contentsOf: keys.map { .key($0) })
            }
        } else {
            let candidates: [Int]?
            if let cache, cache.scope == filters.scope, filters.query.hasPrefix(cache.query) {
                candidates = cache.keys
            } else {
                candidates = filters.scope.map { Array(table.scopes[$0].range) }
            }
            let matches = matcher.rank(table, candidates: candidates)
            cache = FilterCache(query: filters.query, scope: filters.scope, keys: matches.map(\.key))
            rows = matches.lazy.map(\.key).filter(passes).map { .key($0) }
        }
        if filters.scope == nil {
            let query = filters.query.lowercased().filter { $0 != " " }
            let orphans = data.orphans.indices.filter { index in
                query.isEmpty || data.orphans[index].name.lowercased().containsSubsequence(query)
            }
            if !orphans.isEmpty {
                rows.append(.orphanHeading)
                rows.append(contentsOf: orphans.map { .orphan($0) })
            }
        }
        return rows
    }
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
