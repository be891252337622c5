/// Runs of plain ASCII found eight bytes at a time (one 64-bit word per step instead of a comparison per byte):
/// what the manifest reader and the menu's key table spend most of their time on is long runs of printable ASCII
/// in names and titles.
///
/// Each test below says only whether *some* byte of a word is special (exact as a yes or no, not which byte); a
/// caller that hears yes reads that word byte by byte.
package enum ASCIIRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is below `limit` (at most 128).
    @inline(__always)
    private static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    private static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// Whether every byte of `word` is printable ASCII (0x20 through 0x7E).
    @inline(__always)
    private static func isPrintable(_ word: UInt64) -> Bool {
        word & highBits == 0 && !hasByte(below: 0x20, in: word) && !hasByte(0x7F, in: word)
    }

    /// The index of the first byte at or after `start` that is not printable ASCII, or is `"` or `\` (what ends a
    /// JSON string's plain part), looking eight bytes at a time; the bytes before it need no decoding.
    package static func endOfPlainJSONString(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            guard isPrintable(word), !hasByte(0x22, in: word), !hasByte(0x5C, in: word) else { break }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C else { break }
            index += 1
        }
        return index
    }

    /// The number of leading bytes of `bytes` that are printable ASCII, looking eight bytes at a time.
    package static func printablePrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count, isPrintable(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        while index < raw.count, raw[index] >= 0x20, raw[index] < 0x7F { index += 1 }
        return index
    }
}
