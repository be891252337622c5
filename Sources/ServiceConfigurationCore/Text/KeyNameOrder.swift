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
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order < 0 || order == 0 && left.count < right.count
            }
        }
    }
}
