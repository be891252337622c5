import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The history journal beside the store: every change, hand edits, undo, limits")
struct JournalTests {
    typealias Fixture = ConfigurationScopes.Fixture
    let count = Fixture.CountKey.name
    let flag = Fixture.FlagKey.name

    func service(_ store: FileOverrideStore, server: [String: String] = [:]) throws -> LiveConfigurationService {
        LiveConfigurationService(
            serverValues: server, catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil,
            overridePolicy: .allBuilds)
    }

    func journalLines(_ folder: TemporaryFolder) throws -> [String] {
        try String(contentsOf: URL(fileURLWithPath: folder.storeURL().path + ".journal"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
    }

    @Test("every change is journaled once, after the save: origin, reason, each key's entry before and after")
    func everyChange() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .cli)
        let service = try service(store, server: [count: "4"])
        try service.setOverride(rawValue: "9", forKeyNamed: count, note: "QA 12")
        try service.setOverride(rawValue: "9", forKeyNamed: count)  // no change: nothing journaled
        try service.updateOverrides([flag: "Y", count: nil])
        let profile = folder.url.appendingPathComponent("scenario.json")
        try Data(#"{"test.feature.greeting": "hey"}"#.utf8).write(to: profile)
        try store.apply(store.planImport(from: profile, mode: .merge, catalog: nil))
        try service.removeAllOverrides()
        let history = store.history()
        #expect(history.records.map(\.reason.action) == [.set, .set, .importProfile, .reset])
        #expect(history.records.allSatisfy { $0.origin == .cli })
        #expect(history.unrecorded == nil)
        #expect(history.unreadableLines == 0)
        let first = history.records[0]
        #expect(first.changes.count == 1)
        #expect(first.changes[0].old == nil)
        #expect(first.changes[0].new?.value == "9")
        #expect(first.changes[0].new?.note == "QA 12")
        #expect(first.changes[0].new?.serverValueWhenSet == "4")
        #expect(first.changes[0].new == store.history().records[1].changes.first { $0.key == count }?.old)
        #expect(history.records[2].reason.detail == "scenario.json")
        #expect(history.records[3].keys.sorted() == [flag, Fixture.GreetingKey.name])
        #expect(try journalLines(folder).count == 4)
        #expect(history.changes(forKey: count).count == 2)
        #expect(history.records[1].summary == "set 2 overrides: \(flag), \(count)")
    }

    @Test("revert to a change: every later change undone at once, as one restore record that u undoes")
    func revertToHere() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .cli)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count)
        try service.setOverride(rawValue: "2", forKeyNamed: count)
        try service.setOverride(rawValue: "Y", forKeyNamed: flag)
        let history = store.history()
        let revert = try history.revertProposal(to: history.records[0], current: store.entries)
        #expect(revert.laterChanges.map(\.id) == history.records[1...].map(\.id))
        #expect(revert.restores[count] == .some(history.records[0].changes[0].new), "what the first change left")
        #expect(revert.restores[flag] == .some(nil), "no override before the later change set it")
        try service.restoreOverrides(revert.restores, reason: revert.reason, expecting: revert.expected)
        #expect(store.entry(forKey: count)?.value == "1" && store.entry(forKey: flag) == nil)
        let after = store.history()
        #expect(after.records.count == 4 && after.records[3].reason.action == .restore)
        #expect(after.records[3].summary.hasPrefix("restore to 20"), "\(after.records[3].summary)")
        // The revert is one change: one undo puts both keys back.
        let undo = try #require(after.undoProposal(current: store.entries))
        #expect(undo.record.id == after.records[3].id)
        try service.undoOverrideChange(undo)
        #expect(store.entry(forKey: count)?.value == "2" && store.entry(forKey: flag)?.value == "Y")
        // A revert proposed before another change is refused when saved, naming the key; nothing changes.
        let stale = try store.history().revertProposal(to: history.records[0], current: store.entries)
        try service.setOverride(rawValue: "7", forKeyNamed: count)
        #expect(throws: OverrideChangeConflict.self) {
            try service.restoreOverrides(stale.restores, reason: stale.reason, expecting: stale.expected)
        }
        #expect(store.entry(forKey: count)?.value == "7" && store.entry(forKey: flag)?.value == "Y")
        // A change the history no longer holds cannot be reverted to.
        var gone = history.records[0]
        gone.id = "not-there"
        #expect(throws: OverrideRevertRefusal.self) { try store.history().revertProposal(to: gone, current: [:]) }
    }

    @Test("a long value is shortened in a summary, with its length; the record keeps it whole")
    func longValueSummary() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .cli)
        let service = try service(store)
        let long = String(repeating: "x", count: 300)
        try service.setOverride(rawValue: long, forKeyNamed: Fixture.GreetingKey.name)
        try service.setOverride(rawValue: "short\u{200B}", forKeyNamed: Fixture.GreetingKey.name)
        let records = store.history().records
        let first = String(repeating: "x", count: 40)
        #expect(records[0].summary == "set \(Fixture.GreetingKey.name) = \"\(first)…\" (300 characters)")
        #expect(records[0].changes[0].new?.value == long, "the history keeps the value whole")
        #expect(
            records[1].summary
                == "set \(Fixture.GreetingKey.name) = \"short\\u{200B}\" (was \"\(first)…\" (300 characters))")
    }

    @Test("a hand edit: readers show it as unrecorded and write nothing; the next writer records it before its own")
    func handEdit() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url, origin: .menu)
        let service = try service(store)
        try service.setOverride(rawValue: "9", forKeyNamed: count)
        let journalBefore = try Data(contentsOf: URL(fileURLWithPath: url.path + ".journal"))
        // A person edits the file by hand: 9 becomes 10, a flag is added.
        var text = try String(contentsOf: url, encoding: .utf8)
        text = text.replacingOccurrences(of: #""value": "9""#, with: #""value": "10""#)
        text = text.replacingOccurrences(
            of: "\"overrides\": {\n", with: "\"overrides\": {\n    \"\(flag)\": {\"value\": \"Y\"},\n")
        try writeStore(text, at: url)
        let reader = FileOverrideStore(url: url)
        let seen = reader.history()
        let unrecorded = try #require(seen.unrecorded)
        #expect(unrecorded.origin == .outside)
        #expect(unrecorded.reason.action == .outside)
        #expect(unrecorded.keys.sorted() == [flag, count])
        #expect(unrecorded.changes.first { $0.key == count }?.old?.value == "9")
        #expect(unrecorded.changes.first { $0.key == count }?.new?.value == "10")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: url.path + ".journal")) == journalBefore, "readers write nothing")
        // The next writer records the hand edit, with the same id, then its own change.
        try FileOverrideStore(url: url, origin: .cli).set("hello", forKey: Fixture.GreetingKey.name)
        let after = reader.history()
        #expect(after.unrecorded == nil)
        #expect(after.records.map(\.reason.action) == [.set, .outside, .set])
        #expect(after.records[1].id == unrecorded.id)
        #expect(after.records[1].changes == unrecorded.changes)
        #expect(after.records[2].origin.kind == .cli)
    }

    @Test("undo walks back: the last change first, then the one before; an undo names what it undid")
    func undoWalksBack() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .menu)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count, note: "first")
        try service.setOverride(rawValue: "2", forKeyNamed: count)
        try service.setOverride(rawValue: "Y", forKeyNamed: flag)
        func undo() throws -> OverrideJournalRecord {
            let proposal = try #require(store.history().undoProposal(current: store.entries))
            #expect(proposal.changedSince.isEmpty)
            try service.undoOverrideChange(proposal)
            return proposal.record
        }
        #expect(try undo().keys == [flag])
        #expect(service.overrides == [count: "2"])
        #expect(try undo().changes[0].new?.value == "2")
        #expect(service.overrides == [count: "1"])
        #expect(store.entry(forKey: count)?.note == "first", "the entry comes back with its metadata")
        #expect(try undo().changes[0].new?.value == "1")
        #expect(service.overrides.isEmpty)
        #expect(store.history().lastUndoable == nil, "only undos are left")
        let undos = store.history().records.filter { $0.reason.action == .undo }
        #expect(undos.count == 3)
        #expect(Set(undos.compactMap(\.reason.undoes)).count == 3)
    }

    @Test("undo of a chosen change: exactly it when nothing later touched its keys; else the later ones are named")
    func undoChosenChange() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .menu)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count, note: "first")
        try service.setOverride(rawValue: "Y", forKeyNamed: flag)
        try service.setOverride(rawValue: "2", forKeyNamed: count)
        try service.pruneExpiredOverrides()  // nothing expired: nothing recorded
        let records = store.history().records
        #expect(records.count == 3)

        // The flag's change, older than the newest: nothing later touched the flag, so it is undone alone.
        let flagChange = records[1]
        let exact = store.history().undoProposal(for: flagChange, current: store.entries)
        #expect(exact.laterChanges.isEmpty && exact.changedSince.isEmpty && !exact.includesLaterChanges)
        #expect(exact.restores == [flag: OverrideEntry?.none])
        #expect(exact.reason == OverrideChangeReason(.undo, undoes: flagChange.id))
        try service.undoOverrideChange(exact)
        #expect(service.overrides == [count: "2"], "the newer change of another key stays")
        #expect(store.history().undo(of: flagChange)?.reason.undoes == flagChange.id)
        #expect(store.history().undo(of: records[0]) == nil)

        // The first change of the count: the third one changed the count later; it is in the way.
        let first = records[0]
        let blocked = store.history().undoProposal(for: first, current: store.entries)
        #expect(blocked.laterChanges.map(\.id) == [records[2].id])
        #expect(blocked.changedSince == [count])
        let back = store.history().undoProposal(backTo: first, current: store.entries)
        #expect(back.includesLaterChanges && back.laterChanges == blocked.laterChanges)
        #expect(back.restores == [count: OverrideEntry?.none], "the count goes back to what it held before it")
        #expect(back.reason.detail == "back to before it, with 1 later change")
        #expect(!back.changesNothing)
        try service.undoOverrideChange(back)
        #expect(service.overrides.isEmpty)
        let recorded = try #require(store.history().records.last)
        #expect(recorded.reason.undoes == first.id)
        #expect(recorded.summary == #"undo back to before it, with 1 later change \#(count) (was "2")"#)
        // Undoing it again would change nothing.
        #expect(store.history().undoProposal(backTo: first, current: store.entries).changesNothing)
        // An id that is not in the history has no change.
        #expect(store.history().change(id: "no-such-id") == nil)
        #expect(store.history().change(id: first.id) == first)
    }

    @Test("an undo over a newer change is refused under the lock; nothing changes; the conflict names the key")
    func undoConflict() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL(), origin: .menu)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count)
        let proposal = try #require(store.history().undoProposal(current: store.entries))
        // Another process changes the key after the proposal was made.
        try FileOverrideStore(url: folder.storeURL(), origin: .cli).set("5", forKey: count)
        #expect(throws: OverrideChangeConflict.self) { try service.undoOverrideChange(proposal) }
        store.reload()
        #expect(store.entry(forKey: count)?.value == "5")
        // A new proposal sees the newer change and says the key changed since the one it undoes, if aimed there.
        let fresh = try #require(store.history().undoProposal(current: store.entries))
        #expect(fresh.record.origin.kind == .cli)
        let old = OverrideUndoProposal(record: proposal.record, current: store.entries)
        #expect(old.changedSince == [count])
    }

    @Test("undo of another process's change: it says whose, and puts back what was there before it")
    func undoAnotherProcess() throws {
        let folder = TemporaryFolder()
        let url = folder.storeURL()
        let store = FileOverrideStore(url: url, origin: .menu)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count, note: "mine")
        let helper = try runStoreHelper(["set", url.path, count, "5000"])
        #expect(helper.status == 0, "\(helper.error)")
        let identity = try runStoreHelper(["pid"]).output.split(separator: " ")
        store.reload()
        let proposal = try #require(store.history().undoProposal(current: store.entries))
        #expect(proposal.record.origin.kind == .program)
        #expect(proposal.record.origin.name == identity.last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(proposal.record.origin.pid != getpid())
        #expect(proposal.restores[count]??.value == "1")
        try service.undoOverrideChange(proposal)
        #expect(service.count == 1)
        #expect(store.entry(forKey: count)?.note == "mine")
        #expect(store.history().records.last?.reason.undoes == proposal.record.id)
    }

    @Test("a change past the record limit keeps its keys only and cannot be undone")
    func recordLimit() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        let big = String(repeating: "x", count: 300 << 10)
        try store.modify { entries in
            for index in 0..<3 { entries["big.\(index)"] = OverrideEntry(value: big) }
        }
        let record = try #require(store.history().records.last)
        #expect(record.entriesOmitted)
        #expect(record.keys == ["big.0", "big.1", "big.2"])
        #expect(!record.canBeUndone)
        let service = try service(store)
        let proposal = try #require(store.history().undoProposal(current: store.entries))
        #expect(throws: ConfigurationError.self) { try service.undoOverrideChange(proposal) }
        #expect(try journalLines(folder).allSatisfy { $0.utf8.count <= OverrideJournal.maximumRecordSize })
    }

    @Test("the journal rotates past 1 MiB; the history reads the previous file too")
    func rotation() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        let value = String(repeating: "v", count: 200 << 10)
        for round in 0..<4 { try store.set(value + String(round), forKey: "k") }
        let rotated = URL(fileURLWithPath: folder.storeURL().path + ".journal.1")
        #expect(FileManager.default.fileExists(atPath: rotated.path))
        #expect(store.history().records.count == 4)
        for round in 4..<12 { try store.set(value + String(round), forKey: "k") }
        let history = store.history()
        #expect(history.records.count < 12, "the oldest are gone")
        #expect(history.records.last?.changes[0].new?.value == value + "11")
        let sizes = try [rotated, URL(fileURLWithPath: folder.storeURL().path + ".journal")].map {
            try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as! Int
        }
        #expect(sizes.allSatisfy { $0 <= OverrideJournal.rotationSize + OverrideJournal.maximumRecordSize })
    }

    @Test("a line cut short by a killed writer loses only that line; the next line starts fresh")
    func tornLine() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("1", forKey: "a")
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.storeURL().path + ".journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data(#"{"v": 1, "id": "cut", "time": "2026-"#.utf8))
        try journal.close()
        try store.set("2", forKey: "b")
        let history = store.history()
        #expect(history.records.map { $0.keys } == [["a"], ["b"]])
        #expect(history.unreadableLines == 1)
    }

    @Test("a journal that cannot be written does not fail the change; the next change records it as made outside")
    func journalFailure() throws {
        let folder = TemporaryFolder()
        try FileOverrideStore(url: folder.storeURL()).set("1", forKey: "a")
        // The line cannot be written (a full disk, a journal made unwritable): the base stays as it was.
        let failing = FileOverrideStore(url: folder.storeURL(), faults: { $0 == .journalAppend ? ENOSPC : nil })
        try failing.set("2", forKey: "a")
        #expect(failing.journalProblem?.contains("No space left on device") == true)
        #expect(failing.entry(forKey: "a")?.value == "2", "the change itself was saved")
        let store = FileOverrideStore(url: folder.storeURL())
        #expect(store.history().unrecorded?.changes.first?.new?.value == "2")
        try store.set("3", forKey: "b")
        #expect(store.history().records.map(\.reason.action) == [.set, .outside, .set])
    }

    @Test("a journal others can write is refused, never written or believed")
    func hostileJournal() throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("1", forKey: "a")
        let path = folder.storeURL().path + ".journal"
        chmod(path, 0o666)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try store.set("2", forKey: "a")
        #expect(store.journalProblem?.contains("others can write") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(store.history().problem != nil)
    }

    @Test("four processes writing at once: every change journaled exactly once, every line readable")
    func fourWriters() async throws {
        let folder = TemporaryFolder()
        let path = folder.storeURL().path
        let perProcess = 25
        try await withThrowingTaskGroup(of: (Int32, String).self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let result = try runStoreHelper(["hammer", path, "writer\(writer)", String(perProcess)])
                    return (result.status, result.error)
                }
            }
            for try await (status, error) in group { #expect(status == 0, "helper failed: \(error)") }
        }
        let store = FileOverrideStore(url: folder.storeURL())
        #expect(store.reload() == nil)
        let history = store.history()
        #expect(history.unreadableLines == 0)
        #expect(history.unrecorded == nil)
        #expect(history.records.count == 4 * perProcess)
        #expect(history.records.allSatisfy { $0.reason.action == .set && $0.changes.count == 1 })
        let keys = history.records.map { $0.keys[0] }
        #expect(Set(keys).count == keys.count, "each change once")
        #expect(Set(keys) == Set(store.entries.keys))
        #expect(Set(history.records.compactMap(\.origin.pid)).count == 4)
        // Each process's own changes are in its order.
        for writer in 0..<4 {
            let mine = keys.filter { $0.hasPrefix("writer\(writer).") }.map { Int($0.split(separator: ".")[1])! }
            #expect(mine == Array(0..<perProcess))
        }
    }

    @Test("SIGKILL between the save and the journal: the change stays; the next writer records it as made outside")
    func killedBeforeJournal() throws {
        for point in ["base", "append"] {
            let folder = TemporaryFolder()
            let path = folder.storeURL().path
            try FileOverrideStore(url: folder.storeURL()).set("1", forKey: "before")
            // Without a snapshot the killed writer's save must write one, so it reaches that point.
            if point == "base" { #expect(unlink(path + ".journaled") == 0) }
            let result = try runStoreHelper(["crash-after-save", path, "k", "saved", point])
            #expect(result.status == SIGKILL || result.status == 128 + SIGKILL || result.status == 9, "\(point)")
            let store = FileOverrideStore(url: folder.storeURL())
            #expect(store.reload() == nil)
            #expect(store.entry(forKey: "k")?.value == "saved", "\(point): the store change is kept")
            // The line is written before the snapshot: killed before the line, it is missing; killed between the
            // two, it is there.
            #expect(store.history().records.contains { $0.keys == ["k"] } == (point == "base"), "\(point)")
            try store.set("2", forKey: "after")
            let history = store.history()
            #expect(history.records.last?.keys == ["after"])
            #expect(history.unreadableLines == 0)
            let outside = history.records.filter { $0.reason.action == .outside }
            if point == "base" {
                // The line names the file as the change left it: the change is recorded once, not again as made
                // outside, although the snapshot was never written.
                #expect(outside.isEmpty)
                #expect(history.records.map(\.keys) == [["before"], ["k"], ["after"]])
            } else {
                // Without its line, the next writer finds the change (the snapshot and the records leave the store
                // without it) and records it as made outside, so the history never silently misses it (an undo
                // would then undo an older change).
                #expect(outside.map(\.keys) == [["k"]])
                #expect(outside.first?.changes[0].new?.value == "saved")
            }
        }
    }
}
