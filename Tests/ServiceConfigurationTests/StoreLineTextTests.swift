import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A save writes an override it read from the file on one line as the file had it (the first save of a process then
/// encodes only what changed); one spread over several lines is written again on one line.
@Suite("Store line text: a save keeps each one-line override as written, and the file reads back the same")
struct StoreLineTextTests {
    private static func lines(of url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("a hand-written line stays as written, a line over several is rewritten on one, the change is encoded")
    func handWrittenLines() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("overrides.json")
        let spaced = #""a.one" :  { "value" : "Y",  "setAt": "2026-11-29T23:05:00.918+09:00" }"#
        let escaped = #""a.thr\u0065e": {"value": "3", "custom": [1, {"x": null}]}"#
        try writeStore(
            storeText(
                "\n  \(spaced),\n  \"a.two\": {\"value\": \"x\",\n     \"note\": \"multi\"},\n  \(escaped),\n"
                    + "  \"b.four\": {\"value\": \"4\"}\n"),
            at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        let before = store.entries
        #expect(before.count == 4)
        try store.modify(keys: ["b.four"], OverrideChangeReason(.set)) {
            $0["b.four"] = OverrideEntry(value: "5", setAt: Date(timeIntervalSince1970: 1_800_000_000))
        }
        let lines = try Self.lines(of: url)
        #expect(lines.contains("    " + spaced + ","))
        #expect(lines.contains("    " + escaped + ","))
        #expect(lines.contains(#"    "a.two": {"note": "multi", "value": "x"},"#))
        #expect(lines.contains(#"    "b.four": {"setAt": "2027-01-15T08:00:00.000Z", "value": "5"}"#))
        // The file reads back to what the store holds: the kept lines mean what they meant.
        let fresh = FileOverrideStore(url: url)
        #expect(fresh.reload() == nil)
        var expected = before
        expected["b.four"] = OverrideEntry(value: "5", setAt: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(fresh.entries == expected)
        #expect(fresh.entries["a.one"]?.setAt == before["a.one"]?.setAt)
        #expect(fresh.entries["a.three"]?.preservedFields.isEmpty == false)
    }

    @Test("seeded fuzz: after a keyed change, one-line overrides keep their text and the file reads back as expected")
    func fuzz() throws {
        var random = SeededGenerator(seed: 0x6C69_6E65_7465_7874)
        let folder = TemporaryFolder()
        let times = ["2026-11-29T14:05:00.918Z", "2026-11-29T23:05:00+09:00", "1999-12-31T23:59:59.5-01:30"]
        for round in 0..<fuzzIterations(default: 60) {
            let url = folder.url.appendingPathComponent("store-\(round)/overrides.json")
            var members: [String] = []
            var oneLine: [String] = []
            let count = Int.random(in: 1...12, using: &random)
            for index in 0..<count {
                var fields = [#""value": "v\#(Int.random(in: 0..<100, using: &random))""#]
                if Bool.random(using: &random) {
                    fields.append(#""setAt": "\#(times.randomElement(using: &random)!)""#)
                }
                if Bool.random(using: &random) { fields.append(#""note": "n\u00e9 \"\#(index)\"""#) }
                if Bool.random(using: &random) { fields.append(#""extra": [true, 1.5e3]"#) }
                fields.shuffle(using: &random)
                let key = Bool.random(using: &random) ? #""k\u002e\#(index)""# : #""k.\#(index)""#
                let separator = [",", ", ", " ,  ", ",\n      "].randomElement(using: &random)!
                let member =
                    key + [": ", ":", " : "].randomElement(using: &random)! + "{"
                    + fields.joined(separator: separator) + "}"
                members.append(member)
                if !member.contains("\n") { oneLine.append(member) }
            }
            try writeStore(storeText("\n  " + members.joined(separator: ",\n  ") + "\n"), at: url)
            let store = FileOverrideStore(url: url)
            #expect(store.reload() == nil)
            var expected = store.entries
            #expect(expected.count == count, "round \(round)")
            let changed = "k.\(Int.random(in: 0...count, using: &random))"
            let entry = Bool.random(using: &random) ? nil : OverrideEntry(value: "changed", setAt: nil)
            try store.modify(keys: [changed], OverrideChangeReason(.set)) { $0[changed] = entry }
            // Removing a key that is not there changes nothing, and nothing is written.
            guard expected[changed] != entry else { continue }
            expected[changed] = entry
            let lines = try Self.lines(of: url)
            for member in oneLine
            where !member.hasPrefix(#""k.\#(changed.dropFirst(2))""#)
                && !member.hasPrefix(#""k\u002e\#(changed.dropFirst(2))""#)
            {
                #expect(
                    lines.contains("    " + member) || lines.contains("    " + member + ","),
                    "round \(round): \(member) was rewritten")
            }
            #expect(lines.count == (expected.isEmpty ? 5 : 6 + expected.count), "round \(round): one override per line")
            let fresh = FileOverrideStore(url: url)
            #expect(fresh.reload() == nil)
            #expect(fresh.entries == expected, "round \(round)")
        }
    }
}
