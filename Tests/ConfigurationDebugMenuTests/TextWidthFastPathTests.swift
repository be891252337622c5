import ConfigurationDebugMenu
import SharedTestSupport
import Testing

/// `TextWidth.of` counts plain ASCII text by its bytes and everything else character by character; both must agree.
@Suite("Text width: the ASCII count agrees with the character-by-character rule")
struct TextWidthFastPathTests {
    @Test("seeded fuzz: ASCII with control characters, DEL and CR LF, then with a non-ASCII character added")
    func agrees() {
        var generator = SeededGenerator(seed: 0x5749_4454_48)
        let pieces: [String] = ["a", "Z", " ", "~", "\t", "\r\n", "\u{7F}", "\u{1B}", "\0", ".", "é", "👍", "\u{301}"]
        for _ in 0..<fuzzIterations(default: 2000) {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                pieces[Int.random(in: 0..<(Bool.random(using: &generator) ? 10 : pieces.count), using: &generator)]
            }.joined()
            let characterByCharacter = text.reduce(0) { $0 + TextWidth.of($1) }
            #expect(TextWidth.of(text) == characterByCharacter, "\(Array(text.unicodeScalars))")
            var copy = text
            #expect(
                copy.withUTF8 { TextWidth.of(utf8: $0) } == characterByCharacter, "bytes: \(Array(text.unicodeScalars))"
            )
        }
    }
}
