import Foundation
public import ServiceConfigurationCore
import Synchronization

/// The checks every `OverrideStore` must pass, for a store of this package or of your own: run them from your
/// tests against your backend.
///
/// ```swift
/// @Test func conformance() async {
///     let backend = OverrideStoreConformance.Backend(
///         name: "RedisOverrideStore",
///         makeStore: { try RedisOverrideStore(prefix: "/test/\(UUID())") },
///         makeSecondInstance: { store in try RedisOverrideStore(prefix: (store as! RedisOverrideStore).prefix) },
///         writeRawEntry: { store, key, json in try redis.set((store as! RedisOverrideStore).prefix + key, json) })
///     await OverrideStoreConformance.run(backend)   // each failed check is a test failure naming it
/// }
/// ```
///
/// Every check starts from a new, empty store. Checks that need a capability the backend does not give (a second
/// instance on the same storage, writing raw entries, history) are skipped with the reason printed and listed in
/// the report's ``ConformanceReport/skipped``, never counted as passed.
public enum OverrideStoreConformance {
    /// One check of the suite.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        /// Changes are seen, by readers and by `OverrideStore/observe(_:)`, in the order they were made.
        case ordering
        /// A `OverrideStore/modify(_:)` whose body throws changes nothing and notifies nobody.
        case atomicModify
        /// `OverrideStore/modify(keys:_:_:)` hands its body the entries of the keys named alone, saves what the
        /// body leaves for them, ignores what it sets for other keys, announces only the keys that changed, and
        /// changes nothing when the body throws.
        case keyedModify
        /// Modifications from several threads at once (and from a second instance, when there is one) all land:
        /// a shared counter incremented by each ends at the number of increments.
        case concurrentModify
        /// A change made by a second instance on the same storage is seen after `OverrideStore/reload()`, and a
        /// later modify of the first instance starts from it instead of overwriting it with what it held before.
        case conflicts
        /// `OverrideEntry/preservedFields` (and unknown fields written raw into the storage) survive a write of
        /// another key and a new instance's read.
        case unknownFields
        /// An entry that cannot be used, written raw into the storage, is listed in `OverrideStore/problems`,
        /// not applied, kept across a write of another key, and removed by `OverrideStore/removeValue(forKey:)`.
        case quarantine
        /// `OverrideStore/observe(_:)` is called with exactly the changed keys after a change made here.
        case watchHere
        /// After `OverrideStore/startWatching(_:)`, a change made by a second instance reaches the handler and
        /// the entries without a `OverrideStore/reload()`.
        case watchElsewhere
        /// An entry past `OverrideStoreLimits` is refused with `OverrideStoreError/Kind/limitExceeded` naming
        /// the key, and nothing of that change is made.
        case limits
        /// A backend that declares a limit on its storage's total size (`Backend/limitsTotalSize`: a file store's
        /// `OverrideStoreLimits.maximumFileSize`) refuses a change past it with `OverrideStoreError.Kind.limitExceeded`,
        /// and nothing of that change is made.
        case totalSize
        /// `OverrideStore/removeValue(forKey:)` removes that key only; removing an absent key is not an error.
        case removeValue
        /// `OverrideStore/removeAll()` leaves no entry (and no kept problem entry).
        case removeAll
        /// A store that keeps history (`OverrideHistory/isKept`) records each change, in order, with its keys,
        /// reason and the store's origin.
        case history
    }

    /// How the suite reaches a backend: closures that make stores, and the optional capabilities.
    public struct Backend: Sendable {
        /// The backend's name, in every failure message.
        public var name: String
        /// A new store on new, empty storage (its own file, prefix, table...).
        public var makeStore: @Sendable () async throws -> any OverrideStore
        /// Another instance on the storage of the store given, as a second process would open it; `nil` when the
        /// backend has no shared storage (``Check/conflicts`` and ``Check/watchElsewhere`` are then skipped).
        public var makeSecondInstance: (@Sendable (any OverrideStore) async throws -> any OverrideStore)?
        /// Puts the JSON text `json` as the entry of `key` into the storage of the store given, behind the store's
        /// back, as a hand edit or a newer build would; `nil` when the backend cannot (``Check/quarantine`` is
        /// then skipped, and ``Check/unknownFields`` checks only typed preserved fields).
        public var writeRawEntry: (@Sendable (any OverrideStore, _ key: String, _ json: String) async throws -> Void)?
        /// Whether the storage as a whole is limited to `OverrideStoreLimits.maximumFileSize` (a file store);
        /// ``Check/totalSize`` is skipped when it is not.
        public var limitsTotalSize: Bool
        /// How long a change made elsewhere may take to reach a watching store.
        public var watchTimeout: Duration

        /// Describes a backend; only `makeStore` is required.
        public init(
            name: String,
            makeStore: @escaping @Sendable () async throws -> any OverrideStore,
            makeSecondInstance: (@Sendable (any OverrideStore) async throws -> any OverrideStore)? = nil,
            writeRawEntry: (@Sendable (any OverrideStore, _ key: String, _ json: String) async throws -> Void)? = nil,
            limitsTotalSize: Bool = false,
            watchTimeout: Duration = .seconds(10)
        ) {
            self.name = name
            self.makeStore = makeStore
            self.makeSecondInstance = makeSecondInstance
            self.writeRawEntry = writeRawEntry
            self.limitsTotalSize = limitsTotalSize
            self.watchTimeout = watchTimeout
        }
    }

    /// Runs `checks` (all by default) against `backend`, recording each failure with the running test (Swift
    /// Testing or XCTest) at the caller's line unless `recordsFailures` is false; returns what each check found.
    @discardableResult
    public static func run(
        _ backend: Backend,
        checks: [Check] = Check.allCases,
        recordsFailures: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) async -> ConformanceReport<Check> {
        let run = ConformanceRun<Check>(
            title: "OverrideStoreConformance on \(backend.name)", recordsFailures: recordsFailures,
            location: ConformanceSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        let checker = OverrideStoreChecker(backend: backend, run: run)
        for check in checks {
            await run.check(check) { try await checker.run(check) }
        }
        return run.report
    }
}

/// The checks' code.
struct OverrideStoreChecker {
    typealias Check = OverrideStoreConformance.Check
    let backend: OverrideStoreConformance.Backend
    let run: ConformanceRun<Check>

    func run(_ check: Check) async throws {
        switch check {
        case .ordering: try await ordering()
        case .atomicModify: try await atomicModify()
        case .keyedModify: try await keyedModify()
        case .concurrentModify: try await concurrentModify()
        case .conflicts: try await conflicts()
        case .unknownFields: try await unknownFields()
        case .quarantine: try await quarantine()
        case .watchHere: try await watchHere()
        case .watchElsewhere: try await watchElsewhere()
        case .limits: try await limits()
        case .totalSize: try await totalSize()
        case .removeValue: try await removeValue()
        case .removeAll: try await removeAll()
        case .history: try await history()
        }
    }

    private func secondInstance(of store: any OverrideStore) async throws -> any OverrideStore {
        guard let make = backend.makeSecondInstance else {
            throw ConformanceSkip("the backend gives no second instance on the same storage (makeSecondInstance)")
        }
        return try await make(store)
    }

    private func writeRaw(_ store: any OverrideStore, _ key: String, _ json: String) async throws {
        guard let write = backend.writeRawEntry else {
            throw ConformanceSkip("the backend cannot write raw entries into its storage (writeRawEntry)")
        }
        try await write(store, key, json)
    }

    private static func entry(_ value: String, note: String? = nil) -> OverrideEntry {
        OverrideEntry(value: value, setAt: Date(timeIntervalSince1970: 1_800_000_000), note: note)
    }

    private func values(_ store: any OverrideStore) -> [String: String] { store.entries.mapValues(\.value) }

    // MARK: - The checks

    private func ordering() async throws {
        let store = try await backend.makeStore()
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        let steps: [(String, String?)] = [("order.a", "1"), ("order.a", "2"), ("order.b", "1"), ("order.a", nil)]
        for (key, value) in steps {
            try store.modify { $0[key] = value.map { Self.entry($0) } }
            run.expect(
                store.entry(forKey: key)?.value == value,
                "after setting \(key) to \(value ?? "nothing") the store reads \(store.entry(forKey: key)?.value ?? "nothing")"
            )
        }
        run.expect(values(store) == ["order.b": "1"], "the store ends with \(values(store)), not [order.b: 1]")
        let expected = steps.map { "\($0.0)=\($0.1 ?? "-")" }
        let arrived = await poll(within: backend.watchTimeout) { seen.count >= steps.count }
        let observed = seen.changes.map { change in
            change.changes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value?.value ?? "-")" }
                .joined(separator: ",")
        }
        run.expect(arrived && observed == expected, "the handler saw \(observed), not \(expected) in that order")
    }

    private func atomicModify() async throws {
        let store = try await backend.makeStore()
        try store.modify { $0["atomic.kept"] = Self.entry("1") }
        let historyBefore = store.history().changes.count
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        struct Refusal: Error {}
        var threw = false
        do {
            try store.modify { entries in
                entries["atomic.kept"] = Self.entry("2")
                entries["atomic.new"] = Self.entry("1")
                throw Refusal()
            }
        } catch {
            threw = true
        }
        run.expect(threw, "a modify whose body throws did not throw")
        run.expect(
            values(store) == ["atomic.kept": "1"],
            "a modify whose body threw left \(values(store)), not [atomic.kept: 1]")
        store.reload()
        run.expect(
            values(store) == ["atomic.kept": "1"],
            "after reload() the storage holds \(values(store)), not [atomic.kept: 1]: the throwing change was saved")
        run.expect(
            store.history().changes.count == historyBefore, "the history recorded a change whose body threw")
        try await Task.sleep(for: .milliseconds(200))
        run.expect(seen.count == 0, "the handler was told of a change whose body threw: \(seen.changes)")
    }

    private func keyedModify() async throws {
        let store = try await backend.makeStore()
        try store.modify {
            $0["keyed.a"] = Self.entry("1")
            $0["keyed.b"] = Self.entry("2")
            $0["keyed.c"] = Self.entry("3")
        }
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        let handed = SharedValue<[String: String]>([:])
        try store.modify(keys: ["keyed.a", "keyed.c", "keyed.new"], OverrideChangeReason(.set)) { entries in
            handed.withLock { $0 = entries.mapValues(\.value) }
            entries["keyed.a"] = Self.entry("10")
            entries["keyed.c"] = nil
            entries["keyed.new"] = Self.entry("4")
            entries["keyed.b"] = Self.entry("20")  // not among the keys: ignored
        }
        let saw = handed.withLock { $0 }
        run.expect(
            saw == ["keyed.a": "1", "keyed.c": "3"],
            "the body of modify(keys:) saw \(saw), not the entries of the keys named alone [keyed.a: 1, keyed.c: 3]")
        let expected = ["keyed.a": "10", "keyed.b": "2", "keyed.new": "4"]
        run.expect(values(store) == expected, "after modify(keys:) the store holds \(values(store)), not \(expected)")
        store.reload()
        run.expect(
            values(store) == expected, "after reload() the storage holds \(values(store)), not \(expected)")
        let arrived = await poll(within: backend.watchTimeout) { seen.count >= 1 }
        run.expect(
            arrived && seen.changes.first?.changedKeys == ["keyed.a", "keyed.c", "keyed.new"],
            "after modify(keys:) the handler saw \(seen.changes.map(\.changedKeys)), not [keyed.a, keyed.c, keyed.new]")
        struct Refusal: Error {}
        var threw = false
        do {
            try store.modify(keys: ["keyed.a"], OverrideChangeReason(.set)) { entries in
                entries["keyed.a"] = Self.entry("11")
                throw Refusal()
            }
        } catch {
            threw = true
        }
        store.reload()
        run.expect(
            threw && values(store) == expected,
            "a modify(keys:) whose body threw \(threw ? "left" : "did not throw and left") \(values(store))")
    }

    private func concurrentModify() async throws {
        let store = try await backend.makeStore()
        let second = try? await backend.makeSecondInstance?(store)
        let writers = 4
        let increments = 10
        let failures = SharedValue<[String]>([])
        await onThreads(writers) { writer in
            let target = writer % 2 == 1 ? (second ?? store) : store
            for increment in 0..<increments {
                do {
                    try target.modify { entries in
                        let count = Int(entries["concurrent.counter"]?.value ?? "0") ?? 0
                        // A body that takes a moment, so other writers' changes land while it runs.
                        Thread.sleep(forTimeInterval: 0.002)
                        entries["concurrent.counter"] = Self.entry("\(count + 1)")
                        entries["concurrent.writer\(writer).\(increment)"] = Self.entry("Y")
                    }
                } catch {
                    failures.withLock { $0.append("writer \(writer), increment \(increment): \(error)") }
                }
            }
        }
        for failure in failures.withLock({ $0 }) { run.fail("a concurrent modify failed: \(failure)") }
        store.reload()
        let entries = values(store)
        let total = writers * increments
        run.expect(
            entries["concurrent.counter"] == "\(total)",
            "\(total) concurrent increments of one key left it at \(entries["concurrent.counter"] ?? "nothing")"
                + (second == nil ? "" : " (half of them through a second instance)"))
        let written = entries.keys.filter { $0.hasPrefix("concurrent.writer") }.count
        run.expect(written == total, "\(total) concurrent modifies each added a key; \(written) are there")
    }

    private func conflicts() async throws {
        let first = try await backend.makeStore()
        try first.modify {
            $0["conflict.counter"] = Self.entry("1")
            $0["conflict.first"] = Self.entry("Y")
        }
        let second = try await secondInstance(of: first)
        second.reload()
        run.expect(
            second.entry(forKey: "conflict.first")?.value == "Y",
            "a second instance does not read what the first wrote: \(values(second))")
        try second.modify { entries in
            let count = Int(entries["conflict.counter"]?.value ?? "0") ?? 0
            entries["conflict.counter"] = Self.entry("\(count + 1)")
            entries["conflict.second"] = Self.entry("Y")
        }
        // The first instance has not reloaded: its modify must start from the storage as it is now.
        try first.modify { entries in
            let count = Int(entries["conflict.counter"]?.value ?? "0") ?? 0
            entries["conflict.counter"] = Self.entry("\(count + 1)")
            entries["conflict.third"] = Self.entry("Y")
        }
        let expected = ["conflict.counter": "3", "conflict.first": "Y", "conflict.second": "Y", "conflict.third": "Y"]
        run.expect(
            values(first) == expected,
            "after the second instance's change, the first instance's modify left \(values(first)), not \(expected): "
                + "it overwrote the other change with what it held before")
        second.reload()
        run.expect(
            values(second) == expected,
            "after reload() the second instance reads \(values(second)), not \(expected)")
    }

    private func unknownFields() async throws {
        let store = try await backend.makeStore()
        let preserved = ["futureField": #"{"level":2,"tags":["a","b"]}"#, "futureFlag": "true"]
        var entry = Self.entry("Y", note: "kept")
        entry.preservedFields = preserved
        try store.modify { $0["unknown.typed"] = entry }
        var rawWritten = false
        if backend.writeRawEntry != nil {
            try await writeRaw(
                store, "unknown.raw", #"{"value": "N", "futureField": {"level": 3}, "setAt": "2026-13-40T99:00:00Z"}"#)
            rawWritten = true
            store.reload()
        }
        try store.modify { $0["unknown.other"] = Self.entry("1") }
        var readers: [(String, any OverrideStore)] = [("the store", store)]
        if let second = try? await backend.makeSecondInstance?(store) {
            second.reload()
            readers.append(("a second instance", second))
        }
        for (name, reader) in readers {
            let typed = reader.entry(forKey: "unknown.typed")
            run.expect(
                typed.map { sameJSON($0.preservedFields, preserved) } == true,
                "after a write of another key, \(name) reads the preserved fields "
                    + "\(typed?.preservedFields.description ?? "of no entry"), not \(preserved)")
            run.expect(typed?.note == "kept", "\(name) lost the note of an entry with preserved fields")
            if rawWritten {
                let raw = reader.entry(forKey: "unknown.raw")
                run.expect(
                    raw?.value == "N"
                        && raw.map { sameJSON($0.preservedFields["futureField"], #"{"level":3}"#) } == true
                        && raw?.preservedFields["setAt"] != nil,
                    "after a write of another key, \(name) reads the raw entry with unknown fields as "
                        + "\(raw.map { "\($0.value) \($0.preservedFields)" } ?? "no entry")")
            }
        }
    }

    private func quarantine() async throws {
        let store = try await backend.makeStore()
        try store.modify { $0["quarantine.good"] = Self.entry("Y") }
        try await writeRaw(store, "quarantine.bad", #"{"value": 1, "note": "a number is no value"}"#)
        store.reload()
        func check(_ reader: any OverrideStore, _ when: String) {
            run.expect(reader.entry(forKey: "quarantine.bad") == nil, "\(when), the bad entry is applied")
            let problem = reader.problems.first { $0.key == "quarantine.bad" }
            run.expect(
                problem.map { !$0.isApplied && !$0.reason.isEmpty } == true,
                "\(when), the bad entry is not listed as a problem that is not applied: \(reader.problems)")
            run.expect(reader.entry(forKey: "quarantine.good")?.value == "Y", "\(when), the good entry is not applied")
        }
        check(store, "after reload()")
        try store.modify { $0["quarantine.other"] = Self.entry("1") }
        check(store, "after a write of another key")
        if let second = try? await backend.makeSecondInstance?(store) {
            second.reload()
            check(second, "in a second instance after a write of another key")
        }
        try store.removeValue(forKey: "quarantine.bad")
        store.reload()
        run.expect(
            !store.problems.contains { $0.key == "quarantine.bad" },
            "removeValue(forKey:) of a quarantined entry left it: \(store.problems)")
    }

    private func watchHere() async throws {
        let store = try await backend.makeStore()
        try store.modify { $0["watch.before"] = Self.entry("1") }
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        try store.modify {
            $0["watch.a"] = Self.entry("1")
            $0["watch.b"] = Self.entry("2")
        }
        let arrived = await poll(within: backend.watchTimeout) { seen.count >= 1 }
        run.expect(
            arrived && seen.changes.first?.changedKeys == ["watch.a", "watch.b"],
            "after a change of watch.a and watch.b the handler saw \(seen.changes.map(\.changedKeys))")
        try await Task.sleep(for: .milliseconds(200))
        run.expect(seen.count <= 1, "one change was announced \(seen.count) times: \(seen.changes.map(\.changedKeys))")
        observation.cancel()
        try store.modify { $0["watch.after"] = Self.entry("1") }
        try await Task.sleep(for: .milliseconds(200))
        run.expect(seen.count <= 1, "a cancelled observation was still called: \(seen.changes.map(\.changedKeys))")
    }

    private func watchElsewhere() async throws {
        let store = try await backend.makeStore()
        try store.modify { $0["elsewhere.before"] = Self.entry("1") }
        let second = try await secondInstance(of: store)
        store.startWatching(.automatic)
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        // A watch may take a moment to be set up after startWatching returns: wait for it before changing.
        try await Task.sleep(for: .milliseconds(300))
        try second.modify { $0["elsewhere.changed"] = Self.entry("Y") }
        let arrived = await poll(within: backend.watchTimeout) {
            seen.changes.contains { $0.changedKeys.contains("elsewhere.changed") }
        }
        run.expect(
            arrived,
            "within \(backend.watchTimeout) of a change made by a second instance, the watching store's handler saw "
                + "only \(seen.changes.map(\.changedKeys))")
        run.expect(
            store.entry(forKey: "elsewhere.changed")?.value == "Y",
            "a change made by a second instance did not reach the watching store's entries without reload()")
    }

    private func limits() async throws {
        let store = try await backend.makeStore()
        try store.modify { $0["limits.kept"] = Self.entry("1") }
        let big = String(repeating: "x", count: OverrideStoreLimits.maximumValueSize + 1)
        let longNote = String(repeating: "n", count: OverrideStoreLimits.maximumNoteSize + 1)
        let cases: [(String, String, OverrideEntry)] = [
            ("a value over maximumValueSize", "limits.value", OverrideEntry(value: big)),
            ("a note over maximumNoteSize", "limits.note", OverrideEntry(value: "Y", note: longNote)),
            (
                "a server value over maximumValueSize", "limits.server",
                OverrideEntry(value: "Y", serverValueWhenSet: big)
            ),
            (
                "a preserved field that is not JSON", "limits.preserved",
                OverrideEntry(value: "Y", preservedFields: ["future": "{not json"])
            ),
        ]
        for (what, key, entry) in cases {
            do {
                try store.modify {
                    $0["limits.kept"] = Self.entry("2")
                    $0[key] = entry
                }
                run.fail("\(what) (\(key)) was accepted")
            } catch {
                run.expect(
                    error.kind == .limitExceeded,
                    "\(what) was refused as \(error.kind.rawValue), not limitExceeded: \(error.problem)")
                run.expect(error.problem.contains(key), "the refusal of \(what) does not name \(key): \(error.problem)")
            }
            store.reload()
            run.expect(
                values(store) == ["limits.kept": "1"],
                "after refusing \(what), the store holds \(values(store)), not [limits.kept: 1]: part of the change "
                    + "was made")
        }
        let longKey = String(repeating: "k", count: OverrideStoreLimits.maximumKeySize + 1)
        do {
            try store.modify { $0[longKey] = Self.entry("Y") }
            run.fail("a key name over maximumKeySize was accepted")
        } catch {
            run.expect(error.kind == .limitExceeded, "a key name over maximumKeySize was refused as \(error.kind)")
        }
    }

    private func totalSize() async throws {
        guard backend.limitsTotalSize else {
            throw ConformanceSkip("the backend declares no limit on its storage's total size (limitsTotalSize)")
        }
        let store = try await backend.makeStore()
        try store.modify { $0["total.kept"] = Self.entry("1") }
        let value = String(repeating: "v", count: OverrideStoreLimits.maximumValueSize - 1024)
        let count = OverrideStoreLimits.maximumFileSize / value.utf8.count + 1
        do {
            try store.modify { entries in
                entries["total.kept"] = Self.entry("2")
                for index in 0..<count { entries["total.\(index)"] = Self.entry(value) }
            }
            run.fail("\(count) entries of \(value.utf8.count) bytes, over maximumFileSize in all, were accepted")
        } catch {
            run.expect(
                error.kind == .limitExceeded,
                "a change past maximumFileSize in all was refused as \(error.kind.rawValue), not limitExceeded: "
                    + error.problem)
        }
        store.reload()
        run.expect(
            values(store) == ["total.kept": "1"],
            "after refusing a change past maximumFileSize, the store holds \(store.entries.count) entries, not "
                + "[total.kept: 1]")
    }

    private func removeValue() async throws {
        let store = try await backend.makeStore()
        try store.modify {
            $0["remove.a"] = Self.entry("1")
            $0["remove.b"] = Self.entry("2")
        }
        let seen = ChangeLog()
        let observation = store.observe { seen.append($0) }
        defer { observation.cancel() }
        try store.removeValue(forKey: "remove.a")
        run.expect(values(store) == ["remove.b": "2"], "removeValue(forKey: remove.a) left \(values(store))")
        let arrived = await poll(within: backend.watchTimeout) { seen.count >= 1 }
        let removal: [String: OverrideEntry?] = ["remove.a": .none]
        run.expect(
            arrived && seen.changes.first?.changes == removal,
            "removeValue(forKey:) was announced as \(seen.changes.map(\.changes)), not [remove.a: nil]")
        do {
            try store.removeValue(forKey: "remove.absent")
        } catch {
            run.fail("removing an absent key threw \(error)")
        }
        store.reload()
        run.expect(values(store) == ["remove.b": "2"], "after reload() the storage holds \(values(store))")
    }

    private func removeAll() async throws {
        let store = try await backend.makeStore()
        try store.modify {
            $0["all.a"] = Self.entry("1")
            $0["all.b"] = Self.entry("2")
        }
        if backend.writeRawEntry != nil {
            try await writeRaw(store, "all.bad", #"{"value": 1}"#)
            store.reload()
        }
        try store.removeAll()
        run.expect(store.entries.isEmpty, "removeAll() left \(values(store))")
        store.reload()
        run.expect(store.entries.isEmpty, "after removeAll() and reload() the storage holds \(values(store))")
        run.expect(store.problems.isEmpty, "removeAll() left entries kept as problems: \(store.problems)")
    }

    private func history() async throws {
        let store = try await backend.makeStore()
        guard store.history().isKept else { throw ConformanceSkip("the store keeps no history (history().isKept)") }
        let before = store.history().changes.count
        try store.modify(OverrideChangeReason(.change, detail: "first")) { $0["history.a"] = Self.entry("1") }
        try store.modify(OverrideChangeReason(.reset, detail: "second")) { $0["history.a"] = nil }
        try store.modify(OverrideChangeReason(.change, detail: "third")) { $0["history.b"] = Self.entry("1") }
        let records = Array(store.history().changes.dropFirst(before))
        let summary = records.map { "\($0.reason.detail ?? "?") \($0.keys)" }
        run.expect(
            records.map(\.reason.detail) == ["first", "second", "third"],
            "the history holds \(summary), not the three changes in the order made")
        run.expect(
            records.map(\.keys) == [["history.a"], ["history.a"], ["history.b"]],
            "the history's keys are \(records.map(\.keys))")
        run.expect(
            records.allSatisfy { $0.origin == store.origin },
            "the history records origins \(records.map(\.origin)), not the store's \(store.origin)")
        if let removal = records.dropFirst().first?.changes.first {
            run.expect(
                removal.old?.value == "1" && removal.new == nil,
                "the history records the removal as \(removal.old?.value ?? "nil") -> \(removal.new?.value ?? "nil")")
        }
    }
}

/// The changes a handler was told of, in order. (`Locked`, not a bare `Mutex`: ThreadSanitizer cannot see a `Mutex`
/// lock on Linux, and would report the stores' callers as racing.)
final class ChangeLog: Sendable {
    private let log = Locked<[OverrideStoreChange]>([])
    func append(_ change: OverrideStoreChange) { log.withLock { $0.append(change) } }
    var changes: [OverrideStoreChange] { log.withLock { $0 } }
    var count: Int { log.withLock { $0.count } }
}

/// A value shared between threads, behind a lock.
package final class SharedValue<Value: Sendable>: Sendable {
    private let mutex: Locked<Value>
    package init(_ value: Value) { mutex = Locked(value) }
    package func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

/// Whether both are the same JSON values, compared as parsed (whitespace and key order aside).
func sameJSON(_ left: [String: String], _ right: [String: String]) -> Bool {
    left.keys.sorted() == right.keys.sorted() && left.allSatisfy { sameJSON($0.value, right[$0.key]) }
}

/// Whether both texts are the same JSON value.
func sameJSON(_ left: String?, _ right: String?) -> Bool {
    guard let left, let right else { return left == right }
    func parse(_ text: String) -> NSObject? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) as? NSObject
    }
    guard let a = parse(left), let b = parse(right) else { return left == right }
    return a.isEqual(b)
}

/// Whether `condition` holds within `timeout` of polling, asked every `interval`.
///
/// The bound counts the time the poller was run, not the wall clock: a sleep that comes back more than a second late
/// counts as one second. What a conformance check polls for is work of the same process (a store's watcher, a
/// source's change watch) on the same concurrency pool; when the tests beside it block the pool's threads (in a
/// ThreadSanitizer run of this package every task of the process was once held back for three minutes), the poller
/// and the work it waits for stall together, and a wall-clock deadline would expire during the stall and fail before
/// the work had its turn. A wait that cannot succeed still ends: it lasts `timeout` plus the time the process was
/// starved beyond a second at a time. A cancelled task's wait looks once more and returns at once.
package func poll(
    within timeout: Duration, every interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    var counted = Duration.zero
    var last = clock.now
    while counted < timeout, !Task.isCancelled {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
        let now = clock.now
        counted += min(now - last, .seconds(1))
        last = now
    }
    return try await condition()
}

/// Runs `body` on `count` threads of their own at once (a store's calls block, so not on the cooperative pool) and
/// returns when all have finished.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let remaining = SharedValue(count)
        for index in 0..<count {
            let thread = Thread {
                body(index)
                if remaining.withLock({
                    $0 -= 1
                    return $0 == 0
                }) {
                    continuation.resume()
                }
            }
            thread.start()
        }
    }
}
