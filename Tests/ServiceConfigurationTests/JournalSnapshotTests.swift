import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The journal's snapshot of the store (`overrides.json.journaled`) is kept incrementally: a change writes its record
/// and not a second copy of the store, and a hand edit is still found and recorded exactly.
@Suite("Journal snapshot: a change writes no second copy of the store; hand edits are still recorded exactly")
struct JournalSnapshotTests {
    private static func identity(_ path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
    }

    /// Writes `text` as a person's editor would: into the same file, or as a new file renamed over it.
    private static func edit(_ url: URL, to text: String, inPlace: Bool) throws {
        guard inPlace else {
            try Data(text.utf8).write(to: url, options: .atomic)
            chmod(url.path, 0o600)
            return
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// The entries the history's records leave, applied in order from an empty store.
    private static func replayed(_ records: [OverrideJournalRecord]) -> [String: OverrideEntry] {
        var entries: [String: OverrideEntry] = [:]
        for record in records {
            for change in record.changes { entries[change.key] = change.new }
        }
        return entries
    }

    /// A store in a new folder (kept while the caller holds it), after its first change (which writes the snapshot).
    private static func started() throws -> (TemporaryFolder, URL, FileOverrideStore) {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url, origin: .cli)
        try store.set("1", forKey: "a")
        return (folder, url, store)
    }

    @Test("after the first change the snapshot is not written again; each record names the file it left")
    func noSecondCopy() throws {
        let (folder, url, store) = try Self.started()
        defer { withExtendedLifetime(folder) {} }
        let snapshot = try #require(Self.identity(url.path + ".journaled"))
        for value in 2...20 { try store.set(String(value), forKey: "k\(value % 4)") }
        #expect(Self.identity(url.path + ".journaled") == snapshot, "no change after the first wrote the snapshot")
        let journal = try String(contentsOf: URL(fileURLWithPath: url.path + ".journal"), encoding: .utf8)
        #expect(journal.split(separator: "\n").allSatisfy { $0.contains(#""store": {"device":"#) })
        let history = store.history()
        #expect(history.unrecorded == nil)
        #expect(history.records.count == 20)
        #expect(Self.replayed(history.records) == store.entries)
    }

    @Test(
        "a hand edit after changes the snapshot does not hold is recorded exactly, by the id readers showed",
        arguments: [false, true])
    func handEdit(inPlace: Bool) throws {
        let (folder, url, store) = try Self.started()
        defer { withExtendedLifetime(folder) {} }
        try store.set("2", forKey: "b")
        try store.set("3", forKey: "c")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #""value": "2""#, with: #""value": "two""#)
        text = text.replacingOccurrences(of: "}\n  }\n}", with: "},\n    \"d\": {\"value\": \"4\"}\n  }\n}")
        // In place: an editor that writes into the same file (the snapshot is another file: it keeps what it held).
        let inode = Self.identity(url.path)?.first
        try Self.edit(url, to: text, inPlace: inPlace)
        #expect((Self.identity(url.path)?.first == inode) == inPlace)
        let reader = FileOverrideStore(url: url, origin: .cli)
        let unrecorded = try #require(reader.history().unrecorded)
        #expect(unrecorded.changes.map(\.key) == ["b", "d"], "only the hand edit, not the changes recorded before it")
        #expect(unrecorded.changes.map { [$0.old?.value, $0.new?.value] } == [["2", "two"], [nil, "4"]])
        try reader.set("5", forKey: "e")
        let history = reader.history()
        #expect(history.unrecorded == nil)
        #expect(history.records.map(\.reason.action) == [.set, .set, .set, .outside, .set])
        #expect(history.records[3].id == unrecorded.id)
        #expect(Self.replayed(history.records) == reader.entries)
    }

    @Test("a snapshot is written again after enough records, and when a record cannot carry its entries")
    func snapshotsWhenDue() throws {
        let (folder, url, store) = try Self.started()
        defer { withExtendedLifetime(folder) {} }
        let first = try #require(Self.identity(url.path + ".journaled"))
        // Notes of 4 KiB make each record about 8 KiB: the snapshot is due after 32 of them.
        let note = String(repeating: "n", count: 4000)
        var rewritten = 0
        var last = first
        for value in 0..<80 {
            try store.set(String(value), forKey: "k", note: note)
            let now = try #require(Self.identity(url.path + ".journaled"))
            if now != last { rewritten += 1 }
            last = now
        }
        #expect((2...3).contains(rewritten), "once per 256 KiB of records: \(rewritten)")
        // A change too large to record with its entries (600 KiB of new values) writes a snapshot at once.
        let before = try #require(Self.identity(url.path + ".journaled"))
        try store.modify(OverrideChangeReason(.set)) { entries in
            for index in 0..<150 { entries["big\(index)"] = OverrideEntry(value: String(repeating: "v", count: 4000)) }
        }
        #expect(store.history().records.last?.entriesOmitted == true)
        #expect(Self.identity(url.path + ".journaled") != before)
        let history = store.history()
        #expect(history.unrecorded == nil)
        // A hand edit after it is still found exactly.
        try FileOverrideStore(url: url).set("x", forKey: "z")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #""value": "x""#, with: #""value": "y""#)
        try writeStore(text, at: url)
        let unrecorded = try #require(FileOverrideStore(url: url).history().unrecorded)
        #expect(unrecorded.changes.map(\.key) == ["z"])
    }

    @Test("a snapshot that cannot be written: the change is said to be in the history, and it is, once")
    func snapshotFailure() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        // The first change must write a snapshot; the disk is full for it only.
        let failing = FileOverrideStore(url: url, faults: { $0 == .journalBase ? ENOSPC : nil })
        try failing.set("1", forKey: "a")
        let problem = try #require(failing.journalProblem)
        #expect(problem.contains("No space left on device"))
        #expect(problem.contains("the change was recorded in the history, the snapshot beside it not updated"))
        #expect(!problem.contains("not recorded"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".journaled"))
        let store = FileOverrideStore(url: url, origin: .cli)
        #expect(store.history().unrecorded == nil)
        try store.set("2", forKey: "b")
        #expect(store.journalProblem == nil)
        #expect(store.history().records.map(\.keys) == [["a"], ["b"]], "recorded once, not again as made outside")
    }

    @Test("a snapshot written by an earlier build (no `through`) stands for the store as of the last record")
    func earlierBuildSnapshot() throws {
        let (folder, url, store) = try Self.started()
        defer { withExtendedLifetime(folder) {} }
        // This build's snapshot starts with a line earlier builds cannot read (so they fall back to the records).
        let base = url.path + ".journaled"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: base))
        let magic = try #require(bytes.firstIndex(of: 0x0A))
        #expect(String(decoding: bytes[..<magic], as: UTF8.self) == "service-configuration-journal-snapshot 2")
        #expect((try? JSONSerialization.jsonObject(with: bytes[..<magic], options: [.fragmentsAllowed])) == nil)
        // Rewrite it as an earlier build wrote it: the header alone on the first line, without `through`.
        let newline = try #require(bytes[(magic + 1)...].firstIndex(of: 0x0A))
        var header = try #require(
            try JSONSerialization.jsonObject(with: bytes[(magic + 1)..<newline]) as? [String: Any])
        header["through"] = nil
        header["journal"] = nil
        header["format"] = "service-configuration-journal-base"
        header["version"] = 1
        var old = try JSONSerialization.data(withJSONObject: header)
        old.append(bytes[newline...])
        try old.write(to: URL(fileURLWithPath: base))
        chmod(base, 0o600)
        #expect(FileOverrideStore(url: url).history().unrecorded == nil, "read as the store after the last record")
        // The next change writes a snapshot of this build; no change is taken for one made outside.
        try store.set("2", forKey: "b")
        let again = try Data(contentsOf: URL(fileURLWithPath: base))
        #expect(String(decoding: again.prefix(400), as: UTF8.self).contains(#""through""#))
        #expect(store.history().records.map(\.reason.action) == [.set, .set])
    }

    /// Hostile last journal lines, by name (the bytes are made in the test: a 3 MiB argument would be printed whole
    /// in the test log).
    private static func hostileTail(_ name: String) -> [UInt8] {
        switch name {
        case "cut": Array(#"{"v": 1, "id": "x", "store": {"device": 1"#.utf8)
        case "binary": [0x00, 0xFF, 0xFE, 0x0A]
        case "store not an object": Array(#"{"store": "not an object"}"#.utf8) + [0x0A]
        case "odd store":
            Array(#"{"store": {"device": -1, "inode": 1e99, "size": "7", "modified": null, "changed": []}}"#.utf8)
                + [0x0A]
        default: Array(repeating: UInt8(ascii: "a"), count: 3 << 20) + [0x0A]
        }
    }

    @Test(
        "a hostile last journal line (cut, binary, a `store` that names no file, huge) never hides a hand edit",
        arguments: ["cut", "binary", "store not an object", "odd store", "3 MiB line"])
    func hostileJournalTail(name: String) throws {
        let tail = Self.hostileTail(name)
        let (folder, url, store) = try Self.started()
        defer { withExtendedLifetime(folder) {} }
        try store.set("2", forKey: "b")
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #""value": "2""#, with: #""value": "two""#)
        try Self.edit(url, to: text, inPlace: true)
        let journal = FileHandle(forWritingAtPath: url.path + ".journal")
        try journal?.seekToEnd()
        try journal?.write(contentsOf: Data(tail))
        try journal?.close()
        let writer = FileOverrideStore(url: url, origin: .cli)
        try writer.set("3", forKey: "c")
        let history = writer.history()
        let outside = try #require(history.records.last { $0.reason.action == .outside })
        #expect(outside.changes.first { $0.key == "b" }.map { [$0.old?.value, $0.new?.value] } == ["2", "two"])
        #expect(history.records.last?.keys == ["c"])
    }

    @Test("seeded fuzz: changes, hand edits in place and by rename, new store objects: no change goes unrecorded")
    func fuzz() throws {
        var random = SeededGenerator(seed: 0x736E_6170)
        for round in 0..<fuzzIterations(default: 12) {
            let folder = TemporaryFolder()
            let url = folder.storeURL()
            var store = FileOverrideStore(url: url, origin: .cli)
            for step in 0..<30 {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let key = "k\(Int.random(in: 0..<6, using: &random))"
                    if Bool.random(using: &random) {
                        try store.set(String(step), forKey: key)
                    } else {
                        try store.removeValue(forKey: key)
                    }
                case 5..<8 where FileManager.default.fileExists(atPath: url.path):
                    // A hand edit: one entry changed, added or removed, written in place or replaced.
                    var entries =
                        (try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])?[
                            "overrides"] as? [String: Any] ?? [:]
                    let key = "k\(Int.random(in: 0..<6, using: &random))"
                    entries[key] = Bool.random(using: &random) ? nil : ["value": "hand\(step)"]
                    let text = storeText(
                        entries.keys.sorted().map {
                            #""\#($0)": {"value": "\#(((entries[$0] as? [String: Any])?["value"] as? String) ?? "")"}"#
                        }
                        .joined(separator: ", "))
                    try Self.edit(url, to: text, inPlace: Bool.random(using: &random))
                case 8: store = FileOverrideStore(url: url, origin: .cli)
                default: try store.set("final\(step)", forKey: "last")
                }
            }
            try store.set("end", forKey: "end")
            let history = store.history()
            #expect(history.unrecorded == nil, "round \(round)")
            #expect(history.unreadableLines == 0)
            let fresh = FileOverrideStore(url: url)
            #expect(fresh.reload() == nil)
            #expect(Self.replayed(history.records) == fresh.entries, "round \(round): the records leave the store")
        }
    }
}
