import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The history journal when its files are missing, linked or cannot be rotated: it stays truthful and undo walks
/// back.
@Suite("The history journal without its base, through a link, past a failed rotation")
struct JournalHardeningTests {
    typealias Fixture = ConfigurationScopes.Fixture
    let count = Fixture.CountKey.name
    let flag = Fixture.FlagKey.name

    func service(_ store: FileOverrideStore) throws -> LiveConfigurationService {
        LiveConfigurationService(
            serverValues: [:], catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil,
            overridePolicy: .allBuilds)
    }

    /// Two changes, then a hand edit (the count removed, the flag changed) and the journal's base deleted.
    func handEditWithoutBase(_ folder: TemporaryFolder, baseMode: mode_t? = nil) throws -> URL {
        let url = folder.storeURL()
        let service = try service(FileOverrideStore(url: url, origin: .cli))
        try service.setOverride(rawValue: "N", forKeyNamed: flag)
        try service.setOverride(rawValue: "9", forKeyNamed: count)
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #""value": "N""#, with: #""value": "Y""#)
        try writeStore(text, at: url)
        let stored = try FileOverrideStore(url: url).reloadedEntries()
        #expect(stored[flag]?.value == "Y")
        try FileOverrideStore(url: url).modifyByHand { $0[count] = nil }
        let base = url.path + ".journaled"
        if let baseMode {
            chmod(base, baseMode)
        } else {
            #expect(unlink(base) == 0)
        }
        return url
    }

    @Test(
        "the base deleted after a hand edit: the hand edit shows, the next writer records it, undo walks back",
        arguments: [nil, 0o666] as [mode_t?])
    func missingBase(baseMode: mode_t?) throws {
        let folder = TemporaryFolder()
        let url = try handEditWithoutBase(folder, baseMode: baseMode)
        let store = FileOverrideStore(url: url, origin: .cli)
        let service = try service(store)
        let unrecorded = try #require(store.history().unrecorded, "the hand edit is seen without the base")
        #expect(unrecorded.origin == .outside)
        #expect(unrecorded.changes.first { $0.key == flag }.map { [$0.old?.value, $0.new?.value] } == ["N", "Y"])
        #expect(unrecorded.changes.first { $0.key == count }.map { [$0.old?.value, $0.new?.value] } == ["9", nil])

        var undone: [String] = []
        while let proposal = store.history().undoProposal(current: store.entries), undone.count < 5 {
            try service.undoOverrideChange(proposal)
            undone.append(proposal.record.id)
        }
        #expect(undone.count == 3, "the hand edit, the count, the flag: each once")
        #expect(Set(undone).count == 3)
        #expect(undone.first == unrecorded.id, "the hand edit is undone first, by the id readers showed")
        #expect(store.entries.isEmpty)
        let records = store.history().records
        #expect(records.map(\.reason.action) == [.set, .set, .outside, .undo, .undo, .undo])
        #expect(store.history().unrecorded == nil)
    }

    @Test("no base and no journal (a store written before journaling): nothing is taken for a change made outside")
    func noJournalAtAll() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        try writeStore(storeText(#""\#(flag)": {"value": "Y"}"#), at: url)
        let store = FileOverrideStore(url: url, origin: .cli)
        #expect(store.history().unrecorded == nil)
        try store.set("3", forKey: count)
        #expect(store.history().records.map(\.reason.action) == [.set])
    }

    @Test("a journal that is a symbolic link is refused by the history as by appends; its target is untouched")
    func linkedJournal() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url, origin: .cli)
        try store.set("1", forKey: count)
        let journal = url.path + ".journal"
        let elsewhere = folder.url.appendingPathComponent("elsewhere.journal")
        #expect(rename(journal, elsewhere.path) == 0)
        #expect(symlink(elsewhere.path, journal) == 0)
        let before = try Data(contentsOf: elsewhere)

        let history = FileOverrideStore(url: url).history()
        #expect(history.records.isEmpty, "nothing is read through the link")
        #expect(
            history.problem?.contains("\(journal) is a symbolic link") == true, "\(String(describing: history.problem))"
        )
        try store.set("2", forKey: count)
        #expect(store.journalProblem?.contains("cannot open the journal") == true)
        #expect(try Data(contentsOf: elsewhere) == before)
    }

    @Test("a rotation that fails after the line was written: the change is recorded once, and said to be")
    func failedRotation() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url, origin: .cli)
        let value = String(repeating: "v", count: 200 << 10)
        try store.set(value + "0", forKey: count)
        // The rotated journal's name is taken by a folder that is not empty: rename(2) fails with EISDIR.
        let rotated = URL(fileURLWithPath: url.path + ".journal.1")
        try FileManager.default.createDirectory(at: rotated, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: rotated.appendingPathComponent("keep"))
        for round in 1...4 { try store.set(value + String(round), forKey: count) }
        let problem = try #require(store.journalProblem)
        #expect(problem.contains("cannot rotate the journal"), "\(problem)")
        #expect(problem.contains("the change was recorded in the history"))
        #expect(!problem.contains("not recorded"))
        let history = FileOverrideStore(url: url).history()
        #expect(history.records.map { $0.changes.first?.new?.value } == (0...4).map { value + String($0) })
        #expect(history.unrecorded == nil, "no change is left to be recorded again as made outside")
        try store.set("small", forKey: flag)
        #expect(
            !FileOverrideStore(url: url).history().records.contains { $0.reason.action == .outside },
            "the next writer records no duplicate")
    }

    @Test("a change too large to record says what was left out, never none -> none")
    func tooLargeSaysWhat() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set(String(repeating: "x", count: 600 << 10), forKey: count)
        let record = try #require(store.history().records.last)
        #expect(record.entriesOmitted)
        #expect(record.summary == "set \(count) (values too large to record)")
        #expect(!record.summary.contains("none"))
    }

    /// Why `line` is refused; `nil` when it is read.
    func refusal(_ line: String) -> String? {
        do {
            _ = try Array(line.utf8).withUnsafeBufferPointer { try OverrideJournalRecord(line: $0) }
            return nil
        } catch OverrideJournalRecord.LineError.malformed(let reason) {
            return reason
        } catch {
            return "\(error)"
        }
    }

    /// The journal's one line after setting `a` to 1, and a way to append lines to the journal.
    func oneRecord(_ folder: TemporaryFolder) throws -> (
        store: FileOverrideStore, line: String, append: (String) throws -> Void
    ) {
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("1", forKey: "a")
        let journalURL = URL(fileURLWithPath: folder.storeURL().path + ".journal")
        let lines = try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count == 1 && refusal(lines[0]) == nil)
        return (
            store, lines[0],
            { line in
                let handle = try FileHandle(forWritingTo: journalURL)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data((line + "\n").utf8))
                try handle.close()
            }
        )
    }

    @Test("a journal line naming a field twice is refused with the field's name and counted, never read with either")
    func duplicateRecordField() throws {
        let folder = TemporaryFolder()
        let (store, line, append) = try oneRecord(folder)
        #expect(line.hasPrefix(#"{"v": 1, "id": "#))
        func twice(_ member: String) -> String { "{" + member + ", " + line.dropFirst() }
        #expect(refusal(twice(#""id": "forged""#)) == #"duplicate field "id""#)
        #expect(refusal(twice(#""v": 1"#)) == #"duplicate field "v""#)
        #expect(refusal(twice(#""action": "undo""#)) == #"duplicate field "action""#)
        #expect(refusal(twice(#""changes": []"#)) == #"duplicate field "changes""#)
        #expect(refusal(twice(#""origin": {"kind": "cli", "name": "x", "pid": null}"#)) == #"duplicate field "origin""#)
        #expect(refusal(twice(#""later": 1, "later": 2"#)) == #"duplicate field "later""#, "unknown fields too")
        #expect(refusal(twice(#""later": 1"#)) == nil, "an unknown field once is read past")
        // Inside a change as inside an entry.
        let change = line.replacingOccurrences(of: #"[{"key": "a""#, with: #"[{"key": "b", "key": "a""#)
        #expect(change != line)
        #expect(refusal(change) == #"duplicate field "key" in a change"#)

        // In the journal: counted as unreadable, not applied; the lines around it are read.
        try append(twice(#""id": "forged""#))
        try store.set("2", forKey: "b")
        let history = store.history()
        #expect(history.unreadableLines == 1)
        #expect(history.records.map(\.keys) == [["a"], ["b"]])
        #expect(!history.records.contains { $0.id == "forged" })
    }

    @Test("a journal line whose origin pid is no process identifier is refused, never read as no pid")
    func nonsensePid() throws {
        let folder = TemporaryFolder()
        let (store, line, append) = try oneRecord(folder)
        let pid = #/"pid":(null|-?[0-9]+)/#
        #expect(line.contains(pid))
        func with(_ value: String) -> String { line.replacing(pid, with: #""pid":"# + value, maxReplacements: 1) }
        for nonsense in [
            "2147483648", "99999999999999999999", "-2147483649", "4411.0", "4e3", #""4411""#, "true", "{}",
        ] {
            let reason = refusal(with(nonsense))
            #expect(
                reason?.hasPrefix(#""origin"."pid" must be a process identifier"#) == true,
                "\(nonsense): \(reason ?? "read")")
        }
        #expect(refusal(with("2147483648"))?.hasSuffix("found 2147483648") == true)
        // What this build writes is read: any Int32, or null.
        for written in ["null", "2147483647", "1", "0", "-1"] {
            #expect(refusal(with(written)) == nil, "\(written)")
        }
        try append(with("2147483648"))
        #expect(store.history().unreadableLines == 1)
        #expect(store.history().records.count == 1)
    }
}

extension FileOverrideStore {
    /// The entries after reading the file again.
    fileprivate func reloadedEntries() throws -> [String: OverrideEntry] {
        if let error = reload() { throw error }
        return entries
    }

    /// Changes the file as a person with an editor would: its text rewritten without the store's writer, so
    /// nothing is journaled.
    fileprivate func modifyByHand(_ change: (inout [String: Any]) -> Void) throws {
        let data = try Data(contentsOf: url)
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var overrides = root["overrides"] as? [String: Any] ?? [:]
        change(&overrides)
        root["overrides"] = overrides
        try writeStore(
            String(
                decoding: try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted]), as: UTF8.self),
            at: url)
    }
}
