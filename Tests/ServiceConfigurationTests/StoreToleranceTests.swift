import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore: what it does not understand is kept, one bad entry harms no other")
struct StoreToleranceTests {
    typealias Fixture = ConfigurationScopes.Fixture

    static let tolerable: [String] =
        (try? FileManager.default.contentsOfDirectory(atPath: tolerableStoreFixtures.path))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    /// For each tolerable file: the reason reported, and whether the override still applies.
    static let expected: [String: (reason: String, applied: Bool)] = [
        "wrong-types.json": ("\"value\" must be a string, found a boolean", false),
        "unknown-field.json": ("the entry has no \"value\"", false),
        "bad-timestamp.json": ("\"setAt\" is not an ISO 8601 time", true),
    ]

    @Test(
        "every file with a problem in one entry is read; the problem is reported, nothing moves", arguments: tolerable)
    func tolerableFile(name: String) throws {
        let (reason, applied) = try #require(Self.expected[name], "add \(name) to expected")
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let bytes = try Data(contentsOf: tolerableStoreFixtures.appendingPathComponent(name))
        try writeStore(String(decoding: bytes, as: UTF8.self), at: url)
        let store = FileOverrideStore(url: url)
        let service = LiveConfigurationService(
            serverValues: [Fixture.FlagKey.name: "N"], catalog: try fixtureCatalog(), overrideStore: store,
            watchMode: nil)
        #expect(store.lastError == nil)
        let problem = try #require(store.problems.first)
        #expect(store.problems.count == 1)
        #expect(problem.key == "function.album.like.enabled")
        #expect(problem.reason.contains(reason), "reason was: \(problem.reason)")
        #expect(problem.isApplied == applied)
        #expect(store.problem(forKey: "function.album.like.enabled") == problem)
        #expect((store.entries["function.album.like.enabled"] != nil) == applied)
        // Writing another key keeps the entry exactly as found.
        try service.setOverride(5, for: Fixture.CountKey.self)
        let after = try String(contentsOf: url, encoding: .utf8)
        let original = String(decoding: bytes, as: UTF8.self)
        let entryText = try #require(original.firstRange(of: "{\"", options: [], after: "\"overrides\": {"))
        #expect(after.contains(entryText), "\(entryText) missing from:\n\(after)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
                == ["overrides.json", "overrides.json.journal", "overrides.json.journaled", "overrides.json.lock"])
    }

    @Test("the tolerable corpus is complete")
    func tolerableComplete() {
        #expect(Set(Self.tolerable) == Set(Self.expected.keys))
    }

    @Test("bad entries are quarantined alone; the others apply; the warning counts them")
    func quarantine() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let text = storeText(
            #""a.number": {"value": 1}, "b.null": {"value": null}, "c.missing": {"note": "x"}, "#
                + #""d.string": "Y", "e.good": {"value": "Y"}, "\#(String(repeating: "k", count: 1_100))": {"value": "Y"}"#
        )
        try writeStore(text, at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.entries == ["e.good": OverrideEntry(value: "Y", setAt: nil)])
        let reasons = Dictionary(uniqueKeysWithValues: store.problems.map { ($0.key.prefix(9), $0.reason) })
        #expect(reasons["a.number"] == "\"value\" must be a string, found a number")
        #expect(reasons["b.null"] == "\"value\" must be a string, found null")
        #expect(reasons["c.missing"] == "the entry has no \"value\"")
        #expect(reasons["d.string"] == "an override must be an object like {\"value\": \"Y\"}, found a string")
        #expect(reasons["kkkkkkkkk"] == "the key name is 1100 bytes (1.0 KiB); the limit is 1 KiB")
        #expect(store.problems.allSatisfy { !$0.isApplied })
        #expect(store.problem(forKey: "a.number")?.storedJSON == #"{"value": 1}"#)
        // A change elsewhere writes every quarantined entry back as found.
        try store.set("N", forKey: "f.new")
        let saved = try String(contentsOf: url, encoding: .utf8)
        for fragment in [#""a.number": {"value": 1}"#, #""b.null": {"value": null}"#, #""d.string": "Y""#] {
            #expect(saved.contains(fragment))
        }
        // Setting a quarantined key replaces the bad entry; removing one removes it from the file.
        try store.set("7", forKey: "a.number")
        try store.removeValue(forKey: "b.null")
        let reader = FileOverrideStore(url: url)
        #expect(reader.reload() == nil)
        #expect(reader.entries["a.number"]?.value == "7")
        #expect(
            reader.problems.map(\.key).sorted().map { String($0.prefix(9)) } == ["c.missing", "d.string", "kkkkkkkkk"])
        // removeAll removes quarantined entries too.
        try reader.removeAll()
        #expect(try String(contentsOf: url, encoding: .utf8).contains(#""overrides": {}"#))
    }

    @Test("unknown fields, at the top level and in entries, are written back unchanged")
    func unknownFieldsKept() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let text = storeText(
            #""k": {"auditedAt": "2027-01-01T00:00:00Z", "history": [{"value": "N", "by": "qa"}], "value": "Y", "zeta": {"a": 1}}"#,
            extra: #""generator": {"name": "ci", "build": 7}, "#)
        try writeStore(text, at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.problems.isEmpty)
        let entry = try #require(store.entries["k"])
        #expect(entry.value == "Y")
        #expect(entry.preservedFields["auditedAt"] == #""2027-01-01T00:00:00Z""#)
        #expect(entry.preservedFields["history"] == #"[{"value": "N", "by": "qa"}]"#)
        try store.set("1", forKey: "other")
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved.contains(#"  "generator": {"name": "ci", "build": 7},"#))
        #expect(
            saved.contains(
                #""k": {"auditedAt": "2027-01-01T00:00:00Z", "history": [{"value": "N", "by": "qa"}], "value": "Y", "zeta": {"a": 1}}"#
            ))
        // And they survive a second round trip.
        let again = FileOverrideStore(url: url)
        #expect(again.reload() == nil)
        try again.set("2", forKey: "other")
        let resaved = try String(contentsOf: url, encoding: .utf8)
        #expect(resaved.contains(#"  "generator": {"name": "ci", "build": 7},"#))
        #expect(resaved.contains(#""history": [{"value": "N", "by": "qa"}], "value": "Y", "zeta": {"a": 1}}"#))
    }

    @Test("bad metadata never drops the override: it applies, the field is kept as found and reported")
    func badMetadata() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let text = storeText(
            #""month13": {"setAt": "2026-13-01T00:00:00Z", "value": "Y"}, "#
                + #""feb30": {"setAt": "2026-02-30T00:00:00Z", "value": "Y"}, "#
                + #""numeric": {"note": 5, "setAt": 12, "value": "Y"}, "#
                + #""offset": {"setAt": "2026-11-29T23:05:00+09:00", "value": "Y"}"#)
        try writeStore(text, at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload() == nil)
        #expect(store.entries.keys.sorted() == ["feb30", "month13", "numeric", "offset"])
        #expect(store.entries["offset"]?.setAt == Date(timeIntervalSince1970: 1_795_961_100))
        #expect(store.problems.allSatisfy { $0.isApplied })
        #expect(
            store.problems.map { "\($0.key).\($0.field ?? "")" }.sorted()
                == ["feb30.setAt", "month13.setAt", "numeric.note", "numeric.setAt"])
        #expect(store.problem(forKey: "month13")?.storedJSON == #""2026-13-01T00:00:00Z""#)
        try store.set("N", forKey: "x")
        let saved = try String(contentsOf: url, encoding: .utf8)
        #expect(saved.contains(#""month13": {"setAt": "2026-13-01T00:00:00Z", "value": "Y"}"#))
        #expect(saved.contains(#""numeric": {"note": 5, "setAt": 12, "value": "Y"}"#))
    }

    @Test("timestamps: Z, offsets, fractions; impossible dates refused")
    func timestamps() {
        #expect(Timestamp.parse("2026-11-29T14:05:00.123Z") == Date(timeIntervalSince1970: 1_795_961_100.123))
        #expect(Timestamp.parse("2026-11-29T23:05:00+09:00") == Date(timeIntervalSince1970: 1_795_961_100))
        #expect(Timestamp.parse("2026-11-29T09:05:00-0500") == Date(timeIntervalSince1970: 1_795_961_100))
        #expect(Timestamp.parse("2026-11-29T14:05:00+00") == Date(timeIntervalSince1970: 1_795_961_100))
        #expect(Timestamp.parse("2024-02-29T00:00:00Z") != nil)
        for bad in [
            "2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-29T14:05:00",
            "2026-11-29T14:05:00+9:00", "2026-11-29T14:05:00.Z", "yesterday", "2026-11-29T14:05:00+09:00junk",
        ] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("writers share the readers' limits: nothing past them is written, and the limit is named")
    func writerLimits() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url)
        try store.set("Y", forKey: "keep")
        let before = try Data(contentsOf: url)
        let cases: [(() throws -> Void, String)] = [
            (
                { try store.set("Y", forKey: "k", note: String(repeating: "n", count: 5_000)) },
                "the note of k is 5000 bytes (4.8 KiB); the limit is 4 KiB"
            ),
            (
                { try store.set("Y", forKey: String(repeating: "k", count: 1_100)) },
                "the key name is 1100 bytes (1.0 KiB); the limit is 1 KiB"
            ),
            (
                { try store.set(String(repeating: "v", count: (1 << 20) + 1), forKey: "k") },
                "the value of k is 1048577 bytes (1.0 MiB); the limit is 1 MiB"
            ),
            (
                {
                    try store.modify { $0["k"] = OverrideEntry(value: "Y", note: String(repeating: "n", count: 4_097)) }
                },
                "the note of k is 4097 bytes (4.0 KiB); the limit is 4 KiB"
            ),
            (
                { try store.modify { $0["k"] = OverrideEntry(value: "Y", preservedFields: ["extra": "{not json"]) } },
                "the preserved field \"extra\" of k is not valid JSON"
            ),
            (
                {
                    try store.modify { entries in
                        for index in 0..<9 {
                            entries["big\(index)"] = OverrideEntry(value: String(repeating: "v", count: 1_000_000))
                        }
                    }
                }, "the file would be 9000"
            ),
        ]
        for (change, message) in cases {
            let error = #expect(throws: OverrideStoreError.self) { try change() }
            #expect(error?.kind == .limitExceeded)
            #expect(error?.problem.contains(message) == true, "problem was: \(error?.problem ?? "none")")
            #expect(error?.problem.hasSuffix("nothing was saved") == true)
            #expect(try Data(contentsOf: url) == before)
        }
        let reader = FileOverrideStore(url: url)
        #expect(reader.reload() == nil)
        #expect(reader.entries.keys.sorted() == ["keep"])
    }

    @Test("a change that changes nothing leaves a refused file where it is, and still refused")
    func noOpOnCorruptFile() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try writeStore("{ broken", at: url)
        let store = FileOverrideStore(url: url)
        #expect(store.reload()?.kind == .corrupt)
        try store.removeValue(forKey: "absent")
        #expect(try String(contentsOf: url, encoding: .utf8) == "{ broken")
        #expect(store.lastError?.kind == .corrupt)
        #expect(store.lastError?.preservedAt == nil)
        #expect(store.reload() == nil)
        #expect(store.lastError?.kind == .corrupt)
    }

    @Test("two 5 MB imports: the second is refused before anything is written")
    func largeImports() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url)
        for round in 0..<2 {
            let profile = folder.url.appendingPathComponent("profile\(round).json")
            let entries = (0..<5).map {
                #""p\#(round).\#($0)": {"value": "\#(String(repeating: "x", count: 1_000_000))"}"#
            }
            try Data(storeText(entries.joined(separator: ", ")).utf8).write(to: profile)
            let plan = try store.planImport(from: profile, mode: .merge, catalog: nil)
            if round == 0 {
                try store.apply(plan)
                continue
            }
            let before = try Data(contentsOf: url)
            let error = #expect(throws: OverrideStoreError.self) { try store.apply(plan) }
            #expect(error?.kind == .limitExceeded)
            #expect(error?.problem.contains("; the limit is 8 MiB; nothing was saved") == true)
            #expect(try Data(contentsOf: url) == before)
        }
        let reader = FileOverrideStore(url: url)
        #expect(reader.reload() == nil)
        #expect(reader.entries.count == 5)
    }

    @Test("sizes are described exactly")
    func sizes() {
        #expect(ByteCount.describe(512) == "512 bytes")
        #expect(ByteCount.describe(8 << 20) == "8 MiB")
        #expect(ByteCount.describe(10_200_000) == "10200000 bytes (9.7 MiB)")
        #expect(ByteCount.describe(10_695_476) == "10695476 bytes (10.2 MiB)")
        #expect(ByteCount.describe(10_695_475) == "10695475 bytes (10.1 MiB)")
        #expect(ByteCount.describe((8 << 20) + 1) == "8388609 bytes (8.0 MiB)")
    }

    @Test("JSON output escapes DEL, C1 controls and line separators")
    func jsonEscapes() {
        let text = "a\u{1B}]52;c;SGVsbG8=\u{07}b\u{7F}c\u{9B}d\u{2028}e\u{2029}f\u{85}é€"
        let written = JSONWriter.string(.string(text))
        #expect(written == #""a\u001b]52;c;SGVsbG8=\u0007b\u007fc\u009bd\u2028e\u2029f\u0085é€""#)
        #expect((try? StrictJSON.parse(Array(written.utf8))) == .string(text))
    }
}

extension String {
    /// The first range of `substring` after the first occurrence of `marker`, as text.
    fileprivate func firstRange(of substring: String, options: String.CompareOptions, after marker: String) -> String? {
        guard let start = range(of: marker)?.upperBound,
            let found = range(of: substring, options: options, range: start..<endIndex)
        else { return nil }
        // The whole entry object: up to the matching closing brace on the same line.
        let line = self[found.lowerBound...].prefix { $0 != "\n" }
        var depth = 0
        var end = line.startIndex
        for index in line.indices {
            if line[index] == "{" { depth += 1 }
            if line[index] == "}" {
                depth -= 1
                if depth == 0 {
                    end = line.index(after: index)
                    break
                }
            }
        }
        return String(line[..<end])
    }
}
