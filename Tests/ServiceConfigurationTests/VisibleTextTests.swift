import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationCore

@Suite("VisibleText: nothing a value holds reaches the terminal raw")
struct VisibleTextTests {
    @Test(
        "control, invisible and formatting characters become escapes",
        arguments: [
            ("a\tb", "a\\tb"),
            ("line\nnext\r", "line\\nnext\\r"),
            ("\u{1B}]52;c;SGVsbG8=\u{07}", "\\u{001B}]52;c;SGVsbG8=\\u{0007}"),
            ("\u{1B}]0;title\u{1B}\\", "\\u{001B}]0;title\\u{001B}\\"),
            ("zero\u{200B}width", "zero\\u{200B}width"),
            ("soft\u{00AD}hyphen", "soft\\u{00AD}hyphen"),
            ("del\u{7F}", "del\\u{007F}"),
            ("csi\u{9B}31m", "csi\\u{009B}31m"),
            ("\u{01}", "\\u{0001}"),
            ("nul\0", "nul\\0"),
            ("\u{202E}evil", "\\u{202E}evil"),
            ("1\u{00A0}000", "1\\u{00A0}000"),
            ("\u{FEFF}bom", "\\u{FEFF}bom"),
            ("para\u{2029}", "para\\u{2029}"),
            ("unassigned\u{0378}", "unassigned\\u{0378}"),
        ])
    func escapes(input: String, expected: String) {
        #expect(VisibleText.escaped(input) == expected)
        #expect(VisibleText.needsEscaping(input))
        #expect(
            !VisibleText.escaped(input).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test(
        "ordinary text, CJK, accents and emoji sequences are shown as they are",
        arguments: [
            "function.album.like.enabled", "こんにちは", "café", "e\u{301}", "👍", "❤️", "👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🇯🇵", "a\\nb",
            "全角\u{3000}スペース", "",
        ])
    func unchanged(input: String) {
        #expect(VisibleText.escaped(input) == input)
        #expect(!VisibleText.needsEscaping(input))
    }

    @Test("pieces mark which parts are escapes, and join back to the escaped text")
    func pieces() {
        let pieces = VisibleText.pieces(of: "a\u{200B}b\tc")
        #expect(
            pieces == [
                .init(text: "a", isEscape: false), .init(text: "\\u{200B}", isEscape: true),
                .init(text: "b", isEscape: false), .init(text: "\\t", isEscape: true),
                .init(text: "c", isEscape: false),
            ])
        #expect(pieces.map(\.text).joined() == VisibleText.escaped("a\u{200B}b\tc"))
        #expect(VisibleText.pieces(of: "") == [])
    }

    @Test("a control character inside a grapheme cluster is escaped and its base letter kept")
    func insideCluster() {
        // "e" + combining acute + ZWSP: one Character in Swift.
        #expect(VisibleText.escaped("e\u{301}\u{200B}x") == "e\u{301}\\u{200B}x")
    }

    @Test("random scalars never leave a control character in the output (seeded)")
    func fuzz() {
        var generator = SeededGenerator(seed: 0x5EED_7E47)
        for _ in 0..<fuzzIterations(default: 2_000) {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                let value: UInt32
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: value = UInt32.random(in: 0...0xA0, using: &generator)
                case 1: value = UInt32.random(in: 0x2000...0x206F, using: &generator)
                case 2: value = UInt32.random(in: 0x1F300...0x1FAFF, using: &generator)
                default: value = UInt32.random(in: 0...0x10FFFF, using: &generator)
                }
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
            let escaped = VisibleText.escaped(String(text))
            #expect(
                !escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "\(String(text).unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
