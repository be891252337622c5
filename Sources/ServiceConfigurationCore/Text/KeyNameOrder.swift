#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The order key names are written and listed in: by UTF-8 bytes, independent of Unicode normalisation and locale
/// (the override document, the journal's records).
package enum KeyNameOrder {
    /// UTF-8 byte order: the order keys are written in (independent of Unicode normalisation and locale).
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { compare(left, $0) < 0 } }
    }

    /// The same order on two keys' UTF-8 bytes: negative when `lhs` comes first, zero when they are the same bytes.
    package static func compare(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(lhs.count, rhs.count)
        let order = common == 0 ? 0 : Int(memcmp(lhs.baseAddress!, rhs.baseAddress!, common))
        return order != 0 ? order : lhs.count - rhs.count
    }
}
