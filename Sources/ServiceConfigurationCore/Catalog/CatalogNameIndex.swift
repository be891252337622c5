/// A catalog's index from wire name to key: where each key is, found by its name's hash.
///
/// A dictionary from name to position keeps a copy of every name and a position in each bucket, 24 bytes a bucket
/// and a bucket and a third a key; this index keeps one 8-byte slot a key's two, and reads names from the catalog's
/// own descriptors. A slot is empty (0) or holds a key's ordinal plus one in its low 32 bits and 32 bits of its
/// name's hash in its high ones, so a probe that meets another name almost never reads that name. Linear probing, at
/// most half full.
struct CatalogNameIndex: Sendable {
    private var slots: [UInt64]
    /// For each scope, the ordinal of its first key; the number of keys last.
    private let scopeStarts: [Int]

    /// Indexes every key of `scopes`; throws for a name two keys share, naming the scope of each.
    init(scopes: [ConfigurationCatalog.Scope]) throws(ConfigurationError) {
        var starts: [Int] = []
        starts.reserveCapacity(scopes.count + 1)
        var total = 0
        for scope in scopes {
            starts.append(total)
            total += scope.keys.count
        }
        starts.append(total)
        precondition(total < Int(UInt32.max), "a catalog holds fewer than 2³² keys")
        scopeStarts = starts
        var size = 2
        while size < total * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        var ordinal = 0
        for (scopeIndex, scope) in scopes.enumerated() {
            for key in scope.keys {
                let name = key.name
                let hash = Self.hash(of: name)
                let (slot, found) = find(name, hash: hash, in: scopes)
                if let found {
                    throw .duplicateKeyName(
                        name, firstScope: scopes[locate(found).scope].name, secondScope: scopes[scopeIndex].name)
                }
                slots[slot] = Self.tag(of: hash) << 32 | UInt64(ordinal + 1)
                ordinal += 1
            }
        }
    }

    /// The number of keys.
    var count: Int { scopeStarts[scopeStarts.count - 1] }

    /// Where the key named `name` is in `scopes` (the scopes the index was built from): its scope's index and its
    /// index in that scope.
    func position(of name: String, in scopes: [ConfigurationCatalog.Scope]) -> (scope: Int, key: Int)? {
        find(name, hash: Self.hash(of: name), in: scopes).ordinal.map(locate)
    }

    /// The slot holding `name`'s ordinal, or the empty slot where it would go.
    private func find(
        _ name: String, hash: UInt64, in scopes: [ConfigurationCatalog.Scope]
    ) -> (slot: Int, ordinal: Int?) {
        let tag = Self.tag(of: hash)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (slot, nil) }
            if entry >> 32 == tag {
                let ordinal = Int(entry & 0xFFFF_FFFF) - 1
                let (scope, key) = locate(ordinal)
                if scopes[scope].keys[key].hasName(name) { return (slot, ordinal) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The name's hash (the one `String`'s equality agrees with: canonically equivalent names hash alike).
    private static func hash(of name: String) -> UInt64 { UInt64(UInt(bitPattern: name.hashValue)) }

    /// The high 32 bits of a slot for a name with this hash: never 0, so a full slot is never 0.
    private static func tag(of hash: UInt64) -> UInt64 { max(hash >> 32, 1) }

    /// The scope and index in it of the key with this ordinal: the first scope that ends after it.
    private func locate(_ ordinal: Int) -> (scope: Int, key: Int) {
        var low = 0
        var high = scopeStarts.count - 1
        while low < high {
            let middle = (low + high) / 2
            if scopeStarts[middle + 1] > ordinal { high = middle } else { low = middle + 1 }
        }
        return (low, ordinal - scopeStarts[low])
    }
}
