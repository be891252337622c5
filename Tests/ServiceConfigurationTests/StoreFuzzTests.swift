import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore reader fuzzing (seeded; FUZZ_ITERATIONS sets the count)")
struct StoreFuzzTests {
    /// A valid store with every kind of member: known fields, unknown fields, escapes, a quarantined entry.
    static let seedDocument = storeText(
        #""a.flag": {"note": "n\u00e9\n", "serverValueWhenSet": "N", "setAt": "2026-11-29T14:05:00.000Z", "value": "Y"}, "#
            + #""b.json": {"value": "{\"x\": [1, 2.5e3, true, null]}", "extra": {"deep": [[1]]}}, "#
            + #""c.bad": {"value": 1}, "d.emoji": {"value": "👨‍👩‍👧 \ud83d\ude00"}"#,
        extra: #""generator": "fuzz", "#)

    /// Tokens that make mutations reach deeper into the parser than random bytes do.
    static let tokens: [[UInt8]] =
        [
            "{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "null", "true", "1e", "-", "\"value\"",
            "\"setAt\"", "\"format\"", "\"overrides\"", "\"version\": 2", "\u{FEFF}", "\n",
        ].map { Array($0.utf8) } + [[0xC3, 0x28], [0xFF], [0x00], [0xE2, 0x80, 0xA8], [0xC2, 0x9B]]

    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8.random(in: 1...255, using: &random)
            case 1 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 2: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.insert(
                    contentsOf: Array(bytes[position..<end]), at: Int.random(in: 0...bytes.count, using: &random))
            case 4: bytes.removeSubrange(position...)
            default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            }
        }
        return bytes
    }

    /// The folder's names with inode, size and modification time: any move, rename or rewrite changes it.
    static func snapshot(_ folder: String) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var info = stat()
            lstat(folder + "/" + name, &info)
            result[name] = [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return result
    }

    /// Messages a refusal may carry: each says what is wrong, most with a position.
    static func isPrecise(_ error: OverrideStoreError) -> Bool {
        guard error.kind == .corrupt, error.preservedAt == nil else { return false }
        let problem = error.problem
        if problem.hasPrefix("not valid JSON: ") { return problem.contains(" at line ") }
        return [
            "the file is empty", "expected a JSON object at the top level", "must be a string", "must be an object",
            "must be a number", "must be a whole number", "missing \"", "\"format\" is ", "newer version",
            "unsupported format version",
        ].contains { problem.contains($0) }
    }

    @Test("random mutations of a valid store: never a crash, never a write; parse or a precise error")
    func mutations() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try writeStore(Self.seedDocument, at: url)
        let state = url.deletingLastPathComponent().path
        var random = SeededGenerator(seed: 0x5EED_0008)
        let seed = Array(Self.seedDocument.utf8)
        var parsed = 0
        for iteration in 0..<fuzzIterations(default: 400) {
            let bytes =
                iteration % 10 == 9
                ? (0..<Int.random(in: 0..<64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                : Self.mutate(seed, using: &random)
            try Data(bytes).write(to: url)
            let before = Self.snapshot(state)
            let store = FileOverrideStore(url: url)
            let error = store.reload()
            #expect(Self.snapshot(state) == before, "iteration \(iteration) changed the folder")
            #expect(try [UInt8](Data(contentsOf: url)) == bytes)
            if let error {
                #expect(Self.isPrecise(error), "iteration \(iteration): \(error.problem)")
                #expect(store.entries.isEmpty)
            } else {
                parsed += 1
                // What was read survives a save of another key: the same entries and the same problems.
                let entries = store.entries
                let problems = store.problems.map(\.key)
                try store.set("1", forKey: "zz.fuzz.probe")
                let again = FileOverrideStore(url: url)
                #expect(again.reload() == nil, "iteration \(iteration): the saved file is refused")
                var expected = entries
                expected["zz.fuzz.probe"] = again.entries["zz.fuzz.probe"]
                #expect(again.entries.mapValues(\.value) == expected.mapValues(\.value), "iteration \(iteration)")
                #expect(
                    again.problems.map(\.key) == problems.filter { $0 != "zz.fuzz.probe" }, "iteration \(iteration)")
            }
        }
        #expect(parsed > 0)
    }
}
