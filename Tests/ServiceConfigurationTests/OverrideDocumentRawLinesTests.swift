import Foundation
import ServiceConfigurationCore
import SharedTestSupport
import Testing

@testable import ServiceConfigurationFileStore

/// A store file's lines are kept raw (offsets into the file's bytes, read again when asked for) when they need
/// nothing more than their text. Each generated file is read both ways, raw and with every line made as it is read,
/// and everything the document answers must be the same.
@Suite("Override documents: raw lines answer as lines made when read")
struct OverrideDocumentRawLinesTests {
    static let plainKeys = ["a", "a.b", "album.like.enabled", "b", "b1", "k.long.name.of.a.key", "z", "Z_9"]
    /// Keys that cannot be raw: escapes, beyond ASCII (precomposed and decomposed), too long, empty.
    static let otherKeys = [
        "\\u0061.escaped", "caf\u{E9}", "cafe\u{301}", "\u{212A}elvin", "\u{1F600}",
        String(repeating: "k", count: 1025),
        "",
    ]
    static let entries = [
        #"{"value": "Y"}"#, #"{"value": "7"}"#, #"{"setAt": "2026-11-29T14:05:00.000Z", "value": "N"}"#,
        #"{"note": "scenario \"12\"", "serverValueWhenSet": "N", "value": "Y"}"#,
        #"{"value":"compact"}"#, #"{ "value" : "spaced" }"#, #"{"value": "caf\u00e9 \ud83d\ude00"}"#,
        #"{"expiresAt": "2026-11-29T16:05:00.000Z", "untilServerChanges": true, "untilVersion": "14.2", "value": "Y"}"#,
        #"{"extra": [1, {"a": null}], "value": "Y"}"#, #"{"value": "Y", "zz": "kept"}"#,
        // Usable with a problem field, quarantined, spread over lines: never raw.
        #"{"setAt": "yesterday", "value": "Y"}"#, #"{"untilServerChanges": "yes", "value": "Y"}"#,
        #"{"value": 5}"#, #"{"value": null}"#, #"{}"#, #""Y""#, "[1, 2]", "{\n      \"value\": \"Y\"\n    }",
        #"{"note": ""# + String(repeating: "n", count: 4097) + #"", "value": "Y"}"#,
    ]

    /// Entries a file cannot hold at all (invalid UTF-8, written as `INVALID` and replaced by bytes; a raw control
    /// character): the whole file is refused, by both readings with the same message.
    static let hostileEntries = [
        #"{"value": "INVALID"}"#, #"{"note": "INVALID", "value": "Y"}"#, "{\"value\": \"a\u{1}b\"}",
        "{\"value\": \"\u{1B}[31m\", \"x\": \"INVALID\"}",
    ]

    /// A file's keys (mostly sorted and unique, as this package writes them; sometimes in any order, or with a
    /// duplicate) and entries' text.
    static func randomLines(_ random: inout SeededGenerator) -> [(key: String, entry: String)] {
        var keys: [String] = []
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            let pool = Int.random(in: 0..<5, using: &random) == 0 ? otherKeys : plainKeys
            var key = pool.randomElement(using: &random)!
            if Bool.random(using: &random) { key += ".\(Int.random(in: 0...20, using: &random))" }
            keys.append(key)
        }
        if Int.random(in: 0..<4, using: &random) > 0 {
            keys = Array(Set(keys)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return keys.map {
            let hostile = Int.random(in: 0..<40, using: &random) == 0
            return ($0, (hostile ? hostileEntries : entries).randomElement(using: &random)!)
        }
    }

    static func file(_ lines: [(key: String, entry: String)], _ random: inout SeededGenerator) -> [UInt8] {
        var text = "{\n  \"format\": \"service-configuration-overrides\",\n  \"version\": 1,\n"
        if Int.random(in: 0..<5, using: &random) == 0 { text += "  \"later\": {\"a\": [true]},\n" }
        text += "  \"overrides\": {"
        for (index, line) in lines.enumerated() {
            let separator = ["\n    ", "\n    ", "\n    ", " ", "\n\n  "].randomElement(using: &random)!
            text += (index == 0 ? "" : ",") + separator + "\"\(line.key)\": " + line.entry
        }
        text += lines.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        // `INVALID` becomes a byte sequence that is not UTF-8 (a lead byte without its continuation).
        var bytes = Array(text.utf8)
        while let range = bytes.firstRange(of: Array("INVALID".utf8)) {
            bytes.replaceSubrange(range, with: [0xC3, 0x28])
        }
        return bytes
    }

    /// Both readings of `bytes`: raw lines kept, and every line made when read.
    static func read(_ bytes: [UInt8]) -> (
        raw: Result<OverrideDocument, OverrideDocument.DocumentError>,
        lines: Result<OverrideDocument, OverrideDocument.DocumentError>
    ) {
        (
            Result { () throws(OverrideDocument.DocumentError) in try OverrideDocument(parsing: bytes) },
            Result { () throws(OverrideDocument.DocumentError) in
                try OverrideDocument(parsing: bytes, keepingRaw: false)
            }
        )
    }

    /// Names to look up: the file's keys, other spellings of them, and names it does not have.
    static func probes(_ document: OverrideDocument, _ random: inout SeededGenerator) -> [String] {
        var names = document.lines.map(\.key)
        names += ["", "a.c", "album", "caf\u{E9}", "cafe\u{301}", "K" + "elvin", "zz", "\u{0}"]
        names += plainKeys + otherKeys.map { $0.replacingOccurrences(of: "\\u0061", with: "a") }
        names.shuffle(using: &random)
        return names
    }

    @Test(
        "seeded fuzz: entries, lines, problems, lookups, equality, encoding and edits agree with lines made when read")
    func rawLinesAgree() throws {
        var random = SeededGenerator(seed: 0x5241_574C_494E)
        var rawLinesSeen = 0
        var refusedSeen = 0
        var refusedReasons: Set<String> = []
        for round in 0..<fuzzIterations(default: 1500) {
            let generated = Self.randomLines(&random)
            switch Self.read(Self.file(generated, &random)) {
            case (.failure(let raw), .failure(let lines)):
                #expect(raw.description == lines.description, "round \(round)")
                refusedSeen += 1
                for reason in ["invalid UTF-8", "control character", "duplicate key"]
                where raw.description.contains(reason) {
                    refusedReasons.insert(reason)
                }
                continue
            case (.success(var raw), .success(var lines)):
                rawLinesSeen += raw.rawLineCount
                #expect(lines.rawLineCount == 0)
                #expect(raw.count == lines.count, "round \(round)")
                #expect(raw.entries == lines.entries, "round \(round)")
                #expect(raw.problems == lines.problems, "round \(round)")
                #expect(raw.lines == lines.lines, "round \(round)")
                #expect(raw == lines && lines == raw, "round \(round)")
                #expect(raw.encoded() == lines.encoded(), "round \(round)")
                #expect(raw.changedKeys(comparedTo: lines).isEmpty, "round \(round)")
                for name in Self.probes(raw, &random) {
                    #expect(raw[name] == lines[name], "round \(round): \(name.debugDescription)")
                    #expect(
                        raw.line(forKey: name) == lines.line(forKey: name), "round \(round): \(name.debugDescription)")
                }
                // The same edits on both; then each against the other, and against what each was.
                let before = (raw, lines)
                // Names that read back as they are set (no empty or overlong name, no second spelling of a key).
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let name =
                        Self.plainKeys.randomElement(using: &random)! + ".\(Int.random(in: 0...20, using: &random))"
                    let entry: OverrideEntry? =
                        Bool.random(using: &random) ? nil : OverrideEntry(value: "v\(round)", setAt: nil)
                    raw[name] = entry
                    lines[name] = entry
                }
                #expect(raw.encoded() == lines.encoded(), "round \(round)")
                #expect(raw == lines, "round \(round)")
                #expect(raw.entries == lines.entries, "round \(round)")
                #expect(
                    before.0.changedKeys(comparedTo: raw) == before.1.changedKeys(comparedTo: lines), "round \(round)")
                #expect(before.0.changedKeys(comparedTo: lines) == before.1.changedKeys(comparedTo: raw))
                // Another file with the same keys, some entries changed: both readings see the same changes.
                let other = Self.read(
                    Self.file(
                        generated.map {
                            Int.random(in: 0..<3, using: &random) > 0
                                ? $0 : ($0.key, Self.entries.randomElement(using: &random)!)
                        },
                        &random))
                if case .success(let otherRaw) = other.raw, case .success(let otherLines) = other.lines {
                    #expect(
                        before.0.changedKeys(comparedTo: otherRaw) == before.1.changedKeys(comparedTo: otherLines),
                        "round \(round)")
                    #expect(otherRaw.changedKeys(comparedTo: before.0) == otherLines.changedKeys(comparedTo: before.1))
                    #expect((before.0 == otherRaw) == (before.1 == otherLines), "round \(round)")
                    #expect((otherRaw == before.0) == (otherLines == before.1), "round \(round)")
                }
                // What was saved reads back to the same document, raw lines and all.
                if case .success(let again) = Self.read(raw.encoded()).raw {
                    #expect(again == raw && again.changedKeys(comparedTo: raw).isEmpty, "round \(round)")
                } else {
                    Issue.record("round \(round): the saved file does not read back")
                }
            default:
                Issue.record("round \(round): one reading refused the file, the other did not")
            }
        }
        // The generator made both kinds: files with raw lines, and files refused whole.
        #expect(rawLinesSeen > 1000)
        #expect(refusedSeen > 0)
        #expect(refusedReasons == ["invalid UTF-8", "control character", "duplicate key"])
    }

    @Test("a file this package writes keeps its plain lines raw, and a save writes their text as it was")
    func plainLinesStayRaw() throws {
        var document = OverrideDocument()
        for index in 0..<500 { document["key.\(index)"] = OverrideEntry(value: "\(index)", setAt: nil) }
        document["caf\u{E9}"] = OverrideEntry(value: "Y", setAt: nil)
        let bytes = document.encoded()
        var read = try OverrideDocument(parsing: bytes)
        #expect(read.rawLineCount == 500)
        #expect(read.encoded() == bytes)
        read["key.250"] = OverrideEntry(value: "changed", setAt: nil)
        #expect(read.rawLineCount == 499)
        let changed = try OverrideDocument(parsing: read.encoded())
        #expect(changed["key.250"]?.value == "changed")
        #expect(changed["key.251"]?.value == "251")
        #expect(changed.changedKeys(comparedTo: try OverrideDocument(parsing: bytes)) == ["key.250"])
    }

    @Test("another spelling of a key is found as a dictionary finds it, whether the key's line is raw or not")
    func otherSpellings() throws {
        // Each file holds one key; the name looked up is canonically equivalent to it and sorts before it.
        for (key, name) in [("caf\u{E9}", "cafe\u{301}"), ("\u{212A}elvin", "Kelvin"), ("plain", "plain")] {
            let bytes = Array(
                "{\"format\": \"service-configuration-overrides\", \"version\": 1, \"overrides\": {\"\(key)\": {\"value\": \"Y\"}}}"
                    .utf8)
            for document in [
                try OverrideDocument(parsing: bytes), try OverrideDocument(parsing: bytes, keepingRaw: false),
            ] {
                #expect(document.entries[name]?.value == "Y")
                #expect(document[name]?.value == "Y", "\(name.debugDescription) for \(key.debugDescription)")
                #expect(document.line(forKey: name)?.key == key)
                // A file naming the key by the other spelling holds the same override: no key changed.
                let respelled = try OverrideDocument(
                    parsing: Array(
                        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: key, with: name).utf8))
                #expect(document == respelled)
                #expect(document.changedKeys(comparedTo: respelled).isEmpty)
            }
        }
    }

    @Test(
        "seeded fuzz: entries built before another writer's change are right after the reload, observed or not",
        arguments: [false, true])
    func entriesAfterReload(observed: Bool) throws {
        var random = SeededGenerator(seed: observed ? 0x4F42_5345_5256 : 0x524C_4F41_44)
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let reader = FileOverrideStore(url: url)
        let writer = FileOverrideStore(url: url)
        let observation = observed ? reader.observe { _ in } : nil
        defer { withExtendedLifetime(observation) {} }
        for round in 0..<fuzzIterations(default: 200) {
            _ = reader.entries
            if Bool.random(using: &random) {
                // A hand edit: any file the generator makes, written whole (a new file renamed over the old one).
                try Data(Self.file(Self.randomLines(&random), &random)).write(to: url, options: .atomic)
            } else {
                // A writer of this package: one key set or removed.
                let key = (Self.plainKeys + ["caf\u{E9}", "cafe\u{301}"]).randomElement(using: &random)!
                let value: String? = Bool.random(using: &random) ? nil : "w\(round)"
                try? writer.modify { $0[key] = value.map { OverrideEntry(value: $0, setAt: nil) } }
            }
            reader.reload()
            let fresh = FileOverrideStore(url: url)
            fresh.reload()
            #expect(reader.entries == fresh.entries, "round \(round)")
            #expect(reader.problems == fresh.problems, "round \(round)")
        }
    }

    @Test("a hand edit that respells a key beyond ASCII and changes its value: entries built before are right after it")
    func respelledAndChanged() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        func write(_ lines: [(key: String, entry: String)]) throws {
            var random = SeededGenerator(seed: 1)
            try Data(Self.file(lines, &random)).write(to: url, options: .atomic)
        }
        try write([("caf\u{E9}", #"{"value": "Y"}"#), ("z", #"{"value": "Y"}"#)])
        let reader = FileOverrideStore(url: url)
        reader.reload()
        #expect(reader.entries["caf\u{E9}"]?.value == "Y")
        try write([("cafe\u{301}", #"{"value": "N"}"#), ("z", #"{"value": "Y"}"#)])
        reader.reload()
        #expect(reader.entries["caf\u{E9}"]?.value == "N")
        #expect(reader.entries["cafe\u{301}"]?.value == "N")
        #expect(reader.entries.count == 2)
    }

    @Test(
        "setting a key by another spelling changes its line, wherever the spellings' bytes sort: one line, read back",
        arguments: ["caff", "cafe\u{302}", "b"])
    func respelledSet(neighbour: String) throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.modify {
            $0[neighbour] = OverrideEntry(value: "Y", setAt: nil)
            $0["caf\u{E9}"] = OverrideEntry(value: "Y", setAt: nil)
            $0["\u{212A}elvin"] = OverrideEntry(value: "Y", setAt: nil)
        }
        try store.set("N", forKey: "cafe\u{301}")
        try store.set("N", forKey: "Kelvin")
        let fresh = FileOverrideStore(url: folder.storeURL())
        #expect(fresh.reload() == nil)
        #expect(fresh.entries.count == 3)
        #expect(fresh.entries["caf\u{E9}"]?.value == "N")
        #expect(fresh.entries["Kelvin"]?.value == "N")
        #expect(fresh.entries[neighbour]?.value == "Y")
        // The file keeps the spellings it had (compared as bytes: strings would take either spelling for the other).
        let bytes = try [UInt8](Data(contentsOf: folder.storeURL()))
        #expect(bytes.firstRange(of: Array("\"caf\u{E9}\": {".utf8)) != nil)
        #expect(bytes.firstRange(of: Array("\"\u{212A}elvin\": {".utf8)) != nil)
        #expect(bytes.firstRange(of: Array("cafe\u{301}".utf8)) == nil)
        #expect(bytes.firstRange(of: Array("\"Kelvin".utf8)) == nil)
    }

    @Test("a value past the size limit under a plain key is quarantined, not raw, by both readings")
    func oversizedValue() throws {
        let value = String(repeating: "x", count: OverrideStoreLimits.maximumValueSize + 1)
        let text = """
            {"format": "service-configuration-overrides", "version": 1, "overrides": {
                "a": {"value": "Y"},
                "big": {"value": "\(value)"}
            }}
            """
        for document in [
            try OverrideDocument(parsing: Array(text.utf8)),
            try OverrideDocument(parsing: Array(text.utf8), keepingRaw: false),
        ] {
            #expect(document.entries.keys.sorted() == ["a"])
            #expect(document.problems.map(\.key) == ["big"])
            #expect(document.problems.first?.isApplied == false)
            #expect(document.problems.first?.reason.contains("the limit is") == true)
        }
        #expect(try OverrideDocument(parsing: Array(text.utf8)).rawLineCount == 1)
    }
}
