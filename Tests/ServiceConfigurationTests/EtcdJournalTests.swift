import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The history journal of ``EtcdOverrideStore`` against a real etcd: records beside the prefix, written in the
/// transaction of their change, cut to the store's limit, read back oldest first; undo and redo through it.
@Suite(
    "The etcd store's history: records with each change, rotation, undo and redo",
    .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
struct EtcdJournalTests {
    typealias Fixture = ConfigurationScopes.Fixture
    let count = Fixture.CountKey.name
    let flag = Fixture.FlagKey.name

    /// A store on `prefix` recording its changes as made by `origin`, keeping `limit` records.
    func store(
        _ etcd: EtcdTestServer, prefix: String, origin: OverrideChangeOrigin = .cli,
        limit: Int = EtcdOverrideStore.defaultHistoryLimit
    ) throws -> EtcdOverrideStore {
        EtcdOverrideStore(
            endpoint: try EtcdEndpoint(url: etcd.url(prefix: prefix), environment: [:]), timeout: .seconds(5),
            origin: origin, historyLimit: limit)
    }

    func service(_ store: some OverrideStore) throws -> LiveConfigurationService {
        LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
    }

    @Test(
        "set, reset and undo are recorded oldest first with who made them (kind, pid, machine); keys beside the prefix")
    func recordsWithOrigin() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("journal")
        let store = try store(etcd, prefix: prefix)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count, note: "QA 12")
        try service.setOverride(rawValue: "Y", forKeyNamed: flag)
        try service.removeOverride(forKeyNamed: count)
        // Another machine's program on the same prefix.
        let other = try self.store(
            etcd, prefix: prefix,
            origin: OverrideChangeOrigin(
                kind: .program, name: "Shop", pid: 4242, host: "build-7"))
        try other.modify(OverrideChangeReason(.set)) { $0[flag] = OverrideEntry(value: "N") }
        store.reload()
        let proposal = try #require(store.history().undoProposal(current: store.entries))
        #expect(proposal.record.origin.host == "build-7" && proposal.record.origin.pid == 4242)
        try service.undoOverrideChange(proposal)

        let history = store.history()
        #expect(history.isKept && history.unreadableLines == 0 && history.problem == nil)
        #expect(history.records.map(\.reason.action) == [.set, .set, .reset, .set, .undo])
        #expect(history.records.map(\.keys) == [[count], [flag], [count], [flag], [flag]])
        #expect(history.records[0].changes[0].new?.note == "QA 12" && history.records[0].changes[0].old == nil)
        #expect(history.records[2].changes[0].old?.value == "1" && history.records[2].changes[0].new == nil)
        #expect(history.records[4].reason.undoes == history.records[3].id)
        let mine = history.records.filter { $0.origin.pid == getpid() }
        #expect(mine.count == 4)
        #expect(mine.allSatisfy { $0.origin.kind == .cli && $0.origin.host == OverrideChangeOrigin.currentHost })
        #expect(OverrideChangeOrigin.currentHost != nil)
        #expect(history.records[3].origin.description == "Shop (pid 4242 on build-7)")
        #expect(store.entry(forKey: flag)?.value == "Y")

        // In etcd: one key per override under the prefix, one per record beside it; the store reads no record as
        // an override, and a removal of every override keeps the history (and is recorded in it).
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).keys.sorted() == ["\(prefix)/\(flag)"])
        let journal = try EtcdFixture.keys(under: prefix + ".journal", in: etcd)
        #expect(journal.count == 5)
        #expect(Set(journal.keys) == Set(history.records.map { "\(prefix).journal/\($0.id)" }))
        #expect(store.entries.keys.sorted() == [flag] && store.problems.isEmpty)
        try store.removeAll()
        #expect(store.entries.isEmpty)
        let reset = try #require(store.history().records.last)
        #expect(reset.reason.action == .reset && reset.changes.map(\.key) == [flag] && reset.changes[0].new == nil)
        #expect(try EtcdFixture.keys(under: prefix, in: etcd).isEmpty)
    }

    @Test("rotation by count: past the limit the oldest records are deleted, the newest kept in order")
    func rotation() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("rotation")
        let store = try store(etcd, prefix: prefix, limit: 5)
        for value in 1...8 {
            try store.modify(OverrideChangeReason(.set)) { $0[count] = OverrideEntry(value: String(value)) }
        }
        let history = store.history()
        #expect(history.records.map { $0.changes.first?.new?.value } == ["4", "5", "6", "7", "8"])
        #expect(try EtcdFixture.keys(under: prefix + ".journal", in: etcd).count == 5)
        #expect(history.problem == nil)
    }

    @Test("a change and its record are one transaction: a conflicting attempt records nothing, its retry once")
    func atomic() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("atomic")
        let store = try store(etcd, prefix: prefix)
        try store.modify(OverrideChangeReason(.set)) { $0[count] = OverrideEntry(value: "1") }
        // Another writer, unseen by the store: the next change's first transaction conflicts.
        try EtcdFixture.put(Array(#"{"value": "2"}"#.utf8), at: "\(prefix)/\(count)", in: etcd)
        let attempts = SharedValue(0)
        try store.modify(OverrideChangeReason(.set)) { entries in
            attempts.withLock { $0 += 1 }
            entries[count] = OverrideEntry(value: "3")
        }
        #expect(attempts.withLock { $0 } == 2, "the first attempt conflicted and the body ran again")
        let records = store.history().records
        #expect(records.count == 2)
        #expect(records.last?.changes.first?.old?.value == "2", "recorded from what etcd held, not the stale view")
        #expect(records.last?.changes.first?.new?.value == "3")
        #expect(try EtcdFixture.keys(under: prefix + ".journal", in: etcd).count == 2)
    }

    @Test("an undo over a later change on etcd is refused: nothing changes, nothing is recorded, the key is named")
    func undoConflict() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("undoconflict")
        let store = try store(etcd, prefix: prefix)
        let service = try service(store)
        try service.setOverride(rawValue: "1", forKeyNamed: count)
        let proposal = try #require(store.history().undoProposal(current: store.entries))
        // Another machine changes the key after the proposal was made.
        let other = try self.store(etcd, prefix: prefix, origin: .program(name: "Other"))
        try other.modify(OverrideChangeReason(.set)) { $0[count] = OverrideEntry(value: "5") }
        let before = store.history().records.count
        do {
            try service.undoOverrideChange(proposal)
            Issue.record("the undo over a later change was made")
        } catch let conflict as OverrideChangeConflict {
            #expect(conflict.keys == [count])
        }
        #expect(store.history().records.count == before)
        store.reload()
        #expect(store.entry(forKey: count)?.value == "5")
        let fresh = try #require(store.history().undoProposal(current: store.entries))
        #expect(fresh.record.origin.name == "Other")
    }

    @Test("redo on etcd: undos walk back, redos walk forward, a new change ends what can be redone")
    func redoOnEtcd() throws {
        let etcd = try EtcdFixture.shared()
        try Self.checkRedo(store(etcd, prefix: EtcdFixture.prefix("redo")), count: count)
    }

    @Test("redo on the file store: the same walk")
    func redoOnFile() throws {
        let folder = TemporaryFolder()
        try Self.checkRedo(FileOverrideStore(url: folder.storeURL(), origin: .cli), count: count)
    }

    /// Two sets, two undos, two redos (each value back in turn), then an undo and a new change: nothing to redo.
    static func checkRedo(_ store: some OverrideStore, count: String) throws {
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil, overridePolicy: .allBuilds)
        try service.setOverride(rawValue: "1", forKeyNamed: count)
        try service.setOverride(rawValue: "2", forKeyNamed: count)
        #expect(store.history().redoProposal(current: store.entries) == nil, "nothing undone yet")
        func undo() throws {
            try service.undoOverrideChange(try #require(store.history().undoProposal(current: store.entries)))
        }
        func redo() throws {
            let proposal = try #require(store.history().redoProposal(current: store.entries))
            #expect(proposal.isRedo && proposal.reason.action == .redo && proposal.reason.undoes == proposal.record.id)
            try service.undoOverrideChange(proposal)
        }
        try undo()
        #expect(store.entry(forKey: count)?.value == "1")
        try undo()
        #expect(store.entry(forKey: count) == nil)
        #expect(store.history().undoProposal(current: store.entries) == nil, "every change is undone")
        try redo()
        #expect(store.entry(forKey: count)?.value == "1")
        #expect(store.history().records.last?.reason.action == .redo)
        try redo()
        #expect(store.entry(forKey: count)?.value == "2")
        #expect(store.history().redoProposal(current: store.entries) == nil, "every undo is redone")
        // The redo is a change like any other: undoing it undoes the set again, and it can be redone once more.
        try undo()
        #expect(store.entry(forKey: count)?.value == "1")
        try redo()
        #expect(store.entry(forKey: count)?.value == "2")
        // A new change after an undo ends what can be redone.
        try undo()
        try service.setOverride(rawValue: "7", forKeyNamed: count)
        #expect(store.history().redoProposal(current: store.entries) == nil)
        #expect(
            store.history().records.map(\.reason.action) == [
                .set, .set, .undo, .undo, .redo, .redo, .undo, .redo, .undo, .set,
            ])
    }

    @Test("hostile records in etcd (not JSON, huge, control characters, not a record) are counted, not read")
    func hostileRecords() throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("hostile")
        let store = try store(etcd, prefix: prefix)
        try store.modify(OverrideChangeReason(.set)) { $0[count] = OverrideEntry(value: "1") }
        let journal = prefix + ".journal/"
        try EtcdFixture.put(Array("{not json".utf8), at: journal + "a", in: etcd)
        try EtcdFixture.put(
            Array(#"{"v": 1, "id": "x", "note": ""#.utf8) + [UInt8](repeating: 0x41, count: 600 << 10)
                + Array(#""}"#.utf8), at: journal + "b", in: etcd)
        try EtcdFixture.put(Array("\u{1B}]0;owned\u{07}\u{00}\u{9B}".utf8) + [0xFF, 0xFE], at: journal + "c", in: etcd)
        try EtcdFixture.put(Array("{}".utf8), at: journal + "d", in: etcd)
        try EtcdFixture.put(
            Array(#"{"v": 99, "id": "future", "time": "2026-01-01T00:00:00.000Z"}"#.utf8), at: journal + "e", in: etcd)
        try store.modify(OverrideChangeReason(.set)) { $0[count] = OverrideEntry(value: "2") }
        let history = store.history()
        #expect(history.unreadableLines == 5)
        #expect(history.problem == nil)
        #expect(history.records.map { $0.changes.first?.new?.value } == ["1", "2"])
        #expect(store.entries.keys.sorted() == [count] && store.problems.isEmpty)
        // Undo still works over them.
        let service = try service(store)
        try service.undoOverrideChange(try #require(history.undoProposal(current: store.entries)))
        #expect(store.entry(forKey: count)?.value == "1")
    }

    @Test("a change too large for one transaction never leaves its record alone in a transaction of its own")
    func batches() {
        func change(_ index: Int, size: Int = 10) -> EtcdClient.Change {
            EtcdClient.Change(key: Array("/p/k\(index)".utf8), value: [UInt8](repeating: 0x41, count: size))
        }
        let record = EtcdClient.Change(key: Array("/p.journal/r".utf8), value: [0x7B, 0x7D])
        // 128 changes fill one transaction; the record would be alone in the next.
        let full = EtcdOverrideStore.batches((0..<128).map { change($0) }, record: record)
        #expect(full.map(\.count) == [127, 2])
        #expect(full.last?.last == record && full.last?.first == change(127))
        #expect(EtcdOverrideStore.batches([change(0)], record: record) == [[change(0), record]])
        #expect(EtcdOverrideStore.batches([], record: nil).isEmpty)
        let many = EtcdOverrideStore.batches((0..<300).map { change($0) }, record: record)
        #expect(many.map(\.count) == [128, 128, 45])
        #expect(many.flatMap { $0 } == (0..<300).map { change($0) } + [record])
    }
}
