package import ServiceConfiguration

/// Every key's status, in a ``KeyTable``'s order, kept compactly: a key with nothing but its default (no server
/// value, override, launch value or problem: at a million keys read from a manifest, nearly every key) costs four
/// bytes instead of a whole status (104 bytes), and its status is made again from its descriptor when asked for
/// (``ConfigurationKeyStatus/init(defaultOf:)``). Reads and writes see exactly the statuses given.
package struct KeyStatuses: RandomAccessCollection, Equatable, Sendable {
    /// The statuses apart from the table they belong to: what a thread reads while another builds the table.
    package struct Kept: Sendable {
        /// For each key, 0 when its status is its default, else 1 + its index in ``others``.
        fileprivate var slots: [UInt32] = []
        /// The statuses that are not a default, in no particular order.
        fileprivate var others: [ConfigurationKeyStatus] = []
        /// Indices of ``others`` no key uses any more, for the next status that needs one.
        fileprivate var free: [UInt32] = []

        /// No statuses yet, with room for `capacity`.
        package init(capacity: Int = 0) {
            slots.reserveCapacity(capacity)
        }

        /// Appends the status `reading` gives the next key, `descriptor`; a reading with nothing in it gives every
        /// key its default status, kept as such without making it.
        package mutating func append(
            statusIn reading: ConfigurationLayersReading, of descriptor: ConfigurationKeyDescriptor
        ) {
            if reading.isEmpty {
                slots.append(0)
            } else {
                append(reading.status(of: descriptor), of: descriptor)
            }
        }

        /// Appends the next key's status; `descriptor` is that key's.
        package mutating func append(_ status: ConfigurationKeyStatus, of descriptor: ConfigurationKeyDescriptor) {
            if status.isDefault(of: descriptor) {
                slots.append(0)
            } else {
                others.append(status)
                slots.append(UInt32(truncatingIfNeeded: others.count))
            }
        }
    }

    /// The table whose keys these are (their descriptors make the default statuses).
    package let table: KeyTable
    private var kept: Kept

    /// The statuses `kept` holds, of `table`'s keys (one for each, in its order).
    package init(table: KeyTable, kept: Kept) {
        precondition(kept.slots.count == table.keys.count, "one status per key of the table")
        self.table = table
        self.kept = kept
    }

    /// `statuses`, one per key of `table` in its order.
    package init(table: KeyTable, statuses: [ConfigurationKeyStatus]) {
        var kept = Kept(capacity: statuses.count)
        for (index, status) in statuses.enumerated() { kept.append(status, of: table.keys[index].descriptor) }
        self.init(table: table, kept: kept)
    }

    /// The first key's index (0).
    package var startIndex: Int { 0 }
    /// One past the last key's index.
    package var endIndex: Int { kept.slots.count }

    /// The status of the key at `index`.
    package subscript(index: Int) -> ConfigurationKeyStatus {
        let slot = kept.slots[index]
        return slot == 0
            ? ConfigurationKeyStatus(defaultOf: table.keys[index].descriptor) : kept.others[Int(slot) - 1]
    }

    /// Replaces the status of the key at `index`.
    package mutating func set(_ status: ConfigurationKeyStatus, at index: Int) {
        let descriptor = table.keys[index].descriptor
        let slot = kept.slots[index]
        if status.isDefault(of: descriptor) {
            guard slot != 0 else { return }
            // The status it held is dropped (a default of the same key stands in its place until reused).
            kept.others[Int(slot) - 1] = status
            kept.free.append(slot)
            kept.slots[index] = 0
        } else if slot != 0 {
            kept.others[Int(slot) - 1] = status
        } else if let reused = kept.free.popLast() {
            kept.others[Int(reused) - 1] = status
            kept.slots[index] = reused
        } else {
            kept.others.append(status)
            kept.slots[index] = UInt32(truncatingIfNeeded: kept.others.count)
        }
    }

    /// Whether the key at `index` has nothing but its default.
    package func isDefault(at index: Int) -> Bool { kept.slots[index] == 0 }

    /// The effective value of the key at `index` (``ConfigurationKeyStatus/value``), without making its status.
    package func value(at index: Int) -> String? {
        let slot = kept.slots[index]
        return slot == 0 ? table.keys[index].descriptor.defaultValueString : kept.others[Int(slot) - 1].value
    }

    /// The server value of the key at `index` (``ConfigurationKeyStatus/serverValue``), without making its status.
    package func serverValue(at index: Int) -> String? {
        let slot = kept.slots[index]
        return slot == 0 ? nil : kept.others[Int(slot) - 1].serverValue
    }

    /// The stored override of the key at `index` (``ConfigurationKeyStatus/override``), without making its status.
    package func override(at index: Int) -> OverrideEntry? {
        let slot = kept.slots[index]
        return slot == 0 ? nil : kept.others[Int(slot) - 1].override
    }

    /// Calls `body` with each key that has more than its default (every other key's status is its default), in
    /// order: the index and the status.
    package func forEachNotDefault(_ body: (Int, ConfigurationKeyStatus) throws -> Void) rethrows {
        for (index, slot) in kept.slots.enumerated() where slot != 0 { try body(index, kept.others[Int(slot) - 1]) }
    }

    /// Equal when they hold equal statuses, in order (whatever the tables, or where each keeps them).
    package static func == (lhs: KeyStatuses, rhs: KeyStatuses) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.table === rhs.table, lhs.kept.slots == rhs.kept.slots, lhs.kept.others == rhs.kept.others {
            return true
        }
        return lhs.elementsEqual(rhs)
    }
}
