extension KeyList {
    /// The rows for `data` under `filters`: scope headings and keys in catalog order, or ranked matches of the
    /// query, then orphaned overrides (when no scope is selected).
    mutating func computeRows(data: MenuData, filters: KeyFilters) -> [Row] {
        let scope = filters.effectiveScope
        let table = data.table
        let statuses = data.statuses
        func passes(_ key: Int) -> Bool {
            (!filters.onlyOverridden || statuses[key].override != nil)
                && (!filters.onlyProblems || statuses[key].hasProblem
                    || data.coverage.rejectsOverride(of: statuses[key]))
                && (!filters.onlySyncChanged || data.syncChanges[table.keys[key].descriptor.name] != nil)
                && (!filters.onlyUnread || data.coverage.read(named: table.keys[key].descriptor.name) == nil)
        }
        let matcher = FuzzyMatcher(query: filters.query)
        var rows: [Row] = []
        textMatches = [:]
        if matcher.isEmpty {
            cache = nil
            let scopes = scope.map { [$0] } ?? Array(table.scopes.indices)
            for scope in scopes {
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
            let matches = matcher.rank(table, candidates: candidates).map(\.key)
            let named = Set(matches)
            let search = TextSearch(query: filters.query)
            var found: [Int] = []
            for key in candidates ?? Array(table.keys.indices) where !named.contains(key) {
                if let field = search.match(key, table: table, status: statuses[key]) {
                    textMatches[key] = field
                    found.append(key)
                }
            }
            found.sort()
            cache = FilterCache(query: filters.query, scope: scope, keys: matches + found)
            rows = (matches + found).lazy.filter(passes).map { .key($0) }
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
