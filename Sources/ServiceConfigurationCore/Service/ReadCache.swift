/// One stripe of the cache of resolved values behind the fast read path (see ``StripedMutex``: each thread reads
/// through the stripe its identity hashes to, so two threads almost never share a table or a lock).
///
/// Maps a key type to the box holding its resolution and the engine generation the box was valid for. A reader
/// uses the entry only when its generation equals the engine's current one, so any write (which bumps the
/// generation) invalidates every cached entry at once; the next read revalidates against the engine's shared
/// decoded-value table, which re-decodes only when the key's wire strings actually changed.
@usableFromInline
struct ReadCacheTable {
    @usableFromInline
    struct Slot {
        /// The key type's metadata address; 0 marks an empty slot.
        @usableFromInline var key: UInt
        @usableFromInline var generation: UInt64
        @usableFromInline var box: AnyObject?
    }

    @usableFromInline var slots: [Slot] = []
    @usableFromInline var count = 0

    @usableFromInline
    init() {}

    @inlinable
    static func identity(of key: Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(key, to: Int.self))
    }

    @inlinable
    static func home(of identity: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(identity) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The value cached for `identity` at `generation`, if any.
    ///
    /// The box is read in place, never copied out, so a hit touches no reference count: two threads reading the
    /// same key never write to a shared cache line.
    @inlinable
    func value<Value: Sendable>(for identity: UInt, generation: UInt64, as type: Value.Type) -> Value? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Self.home(of: identity, mask: mask)
        while true {
            let key = slots[index].key
            if key == identity {
                guard slots[index].generation == generation else { return nil }
                return unsafeDowncast(slots[index].box.unsafelyUnwrapped, to: ResolutionBox<Value>.self).resolution
                    .value
            }
            if key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Caches `box` for `identity`, unless a newer generation is already cached.
    @usableFromInline
    mutating func store(_ box: AnyObject, for identity: UInt, generation: UInt64) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = Self.home(of: identity, mask: mask)
        while slots[index].key != 0 && slots[index].key != identity { index = (index + 1) & mask }
        if slots[index].key == 0 {
            count += 1
        } else if slots[index].generation > generation {
            return
        }
        slots[index] = Slot(key: identity, generation: generation, box: box)
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: 0, generation: 0, box: nil), count: max(16, old.count * 2))
        count = 0
        for slot in old where slot.key != 0 {
            store(slot.box!, for: slot.key, generation: slot.generation)
        }
    }
}

/// An immutable, shareable resolution of one key.
@usableFromInline
final class ResolutionBox<Value: Sendable>: Sendable {
    @usableFromInline let resolution: ConfigurationResolution<Value>

    @usableFromInline
    init(_ resolution: ConfigurationResolution<Value>) {
        self.resolution = resolution
    }
}
