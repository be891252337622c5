/// Runs of plain ASCII found eight bytes at a time (one 64-bit word per step instead of a comparison per byte):
/// most of the bytes the manifest reader and the menu's key table scan are runs of printable ASCII in names and
/// titles.
///
/// Each mask below marks (in a byte's high bit) the bytes of a word that are special. A mask may also mark bytes
/// above the first special one that are not (a borrow carries upward), never one below it, so its lowest mark is
/// exactly the first special byte of the word (the words are read little-endian).
package enum ASCIIRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Marks the bytes of `word` below `limit` (at most 128).
    @inline(__always)
    private static func bytes(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// Marks the bytes of `word` that are `byte`.
    @inline(__always)
    private static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        bytes(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// Marks the bytes of `word` that are not printable ASCII (0x20 through 0x7E).
    @inline(__always)
    private static func unprintable(_ word: UInt64) -> UInt64 {
        word & highBits | bytes(below: 0x20, in: word) | bytes(equalTo: 0x7F, in: word)
    }

    /// The index of the first byte at or after `start` that is not printable ASCII, or is `"` or `\` (what ends a
    /// JSON string's plain part); the bytes before it need no decoding.
    package static func endOfPlainJSONString(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let special =
                unprintable(word) | Self.bytes(equalTo: 0x22, in: word) | Self.bytes(equalTo: 0x5C, in: word)
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C else { break }
            index += 1
        }
        return index
    }

    /// The number of leading bytes of `bytes` that are printable ASCII.
    package static func printablePrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index + 8 <= raw.count {
            let special = unprintable(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < raw.count, raw[index] >= 0x20, raw[index] < 0x7F { index += 1 }
        return index
    }
}
