/// Finds the known names nearest to a mistyped one, for "did you mean" hints.
package enum NameSuggestions {
    /// Up to `limit` names from `candidates`: names containing `name` (or contained in it) first, then by edit
    /// distance (at most a quarter of the name's length, capped at 6), keeping only names nearly as close as the
    /// closest one.
    package static func nearest(to name: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let target = Array(name.lowercased().utf8)
        let budget = max(2, min(target.count / 4, 6))
        var scored: [(distance: Int, name: String)] = []
        for candidate in candidates {
            let lowered = candidate.lowercased()
            if !target.isEmpty, lowered.contains(name.lowercased()) || name.lowercased().contains(lowered) {
                scored.append((0, candidate))
            } else if let distance = editDistance(target, Array(lowered.utf8), limit: budget) {
                scored.append((distance, candidate))
            }
        }
        guard let best = scored.map(\.distance).min() else { return [] }
        return scored.filter { $0.distance <= best + 2 }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(limit).map(\.name)
    }

    /// Levenshtein distance, or `nil` once it must exceed `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int? {
        if abs(a.count - b.count) > limit { return nil }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        let distance = a.isEmpty ? b.count : previous[b.count]
        return distance <= limit ? distance : nil
    }
}
