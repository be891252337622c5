import ServiceConfigurationCore
import SharedTestSupport
import Testing

/// `ASCIIRun` looks at eight bytes at a time; it must stop exactly where a byte-by-byte look does.
@Suite("ASCII runs: the word-at-a-time scan stops where the byte-by-byte one does")
struct ASCIIRunTests {
    /// Printable bytes mostly, with every kind of byte that ends a run somewhere among them.
    static func bytes(using generator: inout SeededGenerator) -> [UInt8] {
        let enders: [UInt8] = [0x22, 0x5C, 0x00, 0x09, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x20, 0x7E, 0x21, 0x5B, 0x5D]
        return (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            Int.random(in: 0..<12, using: &generator) == 0
                ? enders[Int.random(in: 0..<enders.count, using: &generator)]
                : UInt8.random(in: 0x20...0x7E, using: &generator)
        }
    }

    @Test("seeded fuzz: the end of a JSON string's plain part, from any start")
    func plainJSONString() {
        var generator = SeededGenerator(seed: 0x4153_4349_49)
        for _ in 0..<fuzzIterations(default: 5000) {
            let bytes = Self.bytes(using: &generator)
            let start = Int.random(in: 0...bytes.count, using: &generator)
            let expected =
                bytes[start...].firstIndex { !(0x20..<0x7F).contains($0) || $0 == 0x22 || $0 == 0x5C } ?? bytes.count
            let found = bytes.withUnsafeBytes { ASCIIRun.endOfPlainJSONString(in: $0, from: start) }
            #expect(found == expected, "\(bytes) from \(start)")
        }
    }

    @Test("seeded fuzz: the printable prefix")
    func printablePrefix() {
        var generator = SeededGenerator(seed: 0x5052_494E_54)
        for _ in 0..<fuzzIterations(default: 5000) {
            let bytes = Self.bytes(using: &generator)
            let expected = bytes.firstIndex { !(0x20..<0x7F).contains($0) } ?? bytes.count
            #expect(bytes.withUnsafeBufferPointer { ASCIIRun.printablePrefix(of: $0) } == expected, "\(bytes)")
        }
    }
}
