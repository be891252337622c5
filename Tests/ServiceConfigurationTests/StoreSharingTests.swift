import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("FileOverrideStore: shared by processes, live in a running program", .serialized)
struct StoreSharingTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("four processes setting different keys at once end with every key present")
    func fourWriters() async throws {
        let folder = TemporaryFolder()
        let path = folder.storeURL().path
        let perProcess = 40
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
        let expected = Set((0..<4).flatMap { writer in (0..<perProcess).map { "writer\(writer).\($0)" } })
        #expect(Set(store.entries.keys) == expected)
        #expect(store.entries["writer3.39"]?.value == "39")
    }

    @Test("threads of one process sharing a store lose no writes either")
    func threads() async throws {
        let folder = TemporaryFolder()
        let stores = (0..<4).map { _ in FileOverrideStore(url: folder.storeURL()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask { for key in 0..<25 { try store.set("v", forKey: "t\(index).\(key)") } }
            }
            try await group.waitForAll()
        }
        let check = FileOverrideStore(url: folder.storeURL())
        check.reload()
        #expect(check.entries.count == 100)
    }

    @Test("SIGKILL at random moments never leaves an unreadable file or loses a write that returned")
    func killedWriters() throws {
        let folder = TemporaryFolder()
        let path = folder.storeURL().path
        var generator = SystemRandomNumberGenerator()
        var acknowledged: Set<String> = []
        var kills = 0
        for round in 0..<120 {
            // Kill at a random moment after the writer is under way (it has started acknowledging writes), so the
            // kill lands during a write whatever the machine's speed (TSan builds start slowly).
            let run = try killMidway(
                storeTestHelperPath(), ["hammer", path, "round\(round)", "100000"],
                after: UInt32.random(in: 0...30_000, using: &generator))
            if run.killed { kills += 1 }
            for line in run.lines where line.hasPrefix("ok ") {
                acknowledged.insert("round\(round).\(line.dropFirst(3))")
            }
            let store = FileOverrideStore(url: folder.storeURL())
            let error = store.reload()
            #expect(error == nil, "round \(round): \(String(describing: error))")
            let missing = acknowledged.subtracting(store.entries.keys)
            #expect(missing.isEmpty, "round \(round) lost acknowledged writes: \(missing.sorted().prefix(5))")
            if error != nil || !missing.isEmpty { break }
        }
        #expect(kills >= 100, "the writer must actually be killed mid-run (\(kills) kills)")
        // Each round waits for the writer's first acknowledgement before the kill, so 120 is the floor; a loaded
        // machine acknowledges little more than that (198 seen in a full parallel run).
        #expect(acknowledged.count > 150, "the torture test must exercise many writes (\(acknowledged.count))")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: folder.storeURL().deletingLastPathComponent().path)
        #expect(!leftovers.contains { $0.contains(".corrupt-") })
    }

    /// A change made by another process reaches a running service, with a notification for exactly that key.
    func expectLiveReload(mode: OverrideStoreWatchMode, mechanism: String) async throws {
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        let service = LiveConfigurationService(
            serverValues: [Fixture.CountKey.name: "5"],
            catalog: try fixtureCatalog(),
            overrideStore: store,
            watchMode: nil
        )
        #expect(store.startWatching(mode) == mechanism)
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        // How fast is measured by `config-benchmarks store` (live reload rows), not here: under ThreadSanitizer on a
        // loaded machine starting the writer process alone took 9 s. Here: it arrives, with no key pressed or read.
        try runStoreHelper(["set", folder.storeURL().path, Fixture.CountKey.name, "12"])
        #expect(await eventually(within: 30) { service.count == 12 }, "not picked up")
        #expect(log.all == [[Fixture.CountKey.name]])
        // A write that does not change any effective value (an override equal to the default) notifies nobody.
        try runStoreHelper(["set", folder.storeURL().path, Fixture.FlagKey.name, "N"])
        #expect(await eventually(within: 1.0) { store.entries[Fixture.FlagKey.name] != nil })
        try runStoreHelper(["set", folder.storeURL().path, Fixture.CountKey.name, "5"])
        #expect(await eventually(within: 1.0) { service.count == 5 })
        #expect(log.all == [[Fixture.CountKey.name], [Fixture.CountKey.name]])
        store.stopWatching()
        withExtendedLifetime(observation) {}
    }

    @Test("inotify: another process's write reaches the running program by itself, for exactly its key")
    func liveReloadInotify() async throws {
        try await expectLiveReload(mode: .inotify, mechanism: "inotify")
    }

    @Test("polling fallback: another process's write reaches the running program by itself, for exactly its key")
    func liveReloadPolling() async throws {
        try await expectLiveReload(mode: .polling(interval: .milliseconds(100)), mechanism: "polling")
    }

    @Test("the service's own writes are not read back as foreign changes")
    func ownWritesQuiet() async throws {
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(
            catalog: try fixtureCatalog(),
            overrideStore: FileOverrideStore(url: folder.storeURL()),
            watchMode: .inotify
        )
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        try service.setOverride(true, for: Fixture.FlagKey.self)
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.all == [[Fixture.FlagKey.name]])
        withExtendedLifetime(observation) {}
    }
}

@Suite("Override profiles: export, and import with a report first")
struct ProfileTests {
    typealias Fixture = ConfigurationScopes.Fixture

    @Test("export writes the store's format; import merges or replaces after reporting problems")
    func exportImport() throws {
        let folder = TemporaryFolder()
        let catalog = try fixtureCatalog()
        let source = FileOverrideStore(url: folder.storeURL("source.json"))
        try source.set("Y", forKey: Fixture.FlagKey.name, note: "scenario")
        try source.set("7", forKey: Fixture.CountKey.name)
        try source.set("x", forKey: "gone.key")
        try source.set("bad", forKey: Fixture.RatioKey.name)
        let profile = folder.url.appendingPathComponent("profile.json")
        try source.export(to: profile)
        #expect(try Data(contentsOf: profile) == Data(contentsOf: folder.storeURL("source.json")))
        #expect(mode(of: profile.path) == 0o600)

        let target = FileOverrideStore(url: folder.storeURL())
        try target.set("N", forKey: Fixture.FlagKey.name)
        try target.set("hello", forKey: Fixture.GreetingKey.name)
        let merge = try target.planImport(from: profile, mode: .merge, catalog: catalog)
        #expect(merge.added == ["gone.key", Fixture.RatioKey.name, Fixture.CountKey.name].sorted())
        #expect(merge.changed == [Fixture.FlagKey.name])
        #expect(merge.removed == [])
        #expect(merge.unknownKeys == ["gone.key"])
        #expect(merge.invalidValues.map(\.key) == [Fixture.RatioKey.name])
        #expect(merge.hasProblems)
        #expect(
            merge.summary.hasPrefix("3 added, 1 changed, 0 unchanged; 1 other override kept; 1 unknown key: gone.key"))
        #expect(merge.kept == [Fixture.GreetingKey.name] && merge.unchanged.isEmpty)
        #expect(target.entries.count == 2, "planning writes nothing")
        try target.apply(merge)
        #expect(target.entries.count == 5)
        #expect(target.entries[Fixture.FlagKey.name]?.note == "scenario")

        let replace = try target.planImport(from: profile, mode: .replace, catalog: catalog)
        #expect(replace.removed == [Fixture.GreetingKey.name])
        #expect(replace.counts == "0 added, 0 changed, 4 unchanged, 1 removed" && replace.kept.isEmpty)
        try target.apply(replace)
        #expect(Set(target.entries.keys) == Set(source.entries.keys))
    }

    @Test("a hand-written profile is a plain map of key names to wire strings")
    func plainMap() throws {
        let folder = TemporaryFolder()
        let profile = folder.url.appendingPathComponent("scenario.json")
        try Data(#"{"test.feature.flag.enabled": "Y", "test.feature.retry_count": "9"}"#.utf8).write(to: profile)
        let store = FileOverrideStore(url: folder.storeURL())
        let plan = try store.planImport(from: profile, mode: .merge, catalog: try fixtureCatalog())
        #expect(!plan.hasProblems)
        try store.apply(plan)
        #expect(
            store.entries.mapValues(\.value) == ["test.feature.flag.enabled": "Y", "test.feature.retry_count": "9"])
    }

    @Test("a malformed profile is refused with the file's name and the problem, and nothing is written")
    func malformedProfile() throws {
        let folder = TemporaryFolder()
        let profile = folder.url.appendingPathComponent("broken.json")
        try Data(#"{"a": 1}"#.utf8).write(to: profile)
        let store = FileOverrideStore(url: folder.storeURL())
        let error = #expect(throws: OverrideStoreError.self) {
            try store.planImport(from: profile, mode: .replace, catalog: nil)
        }
        #expect(
            error?.description.hasPrefix(
                "\(profile.path): the value of \"a\" must be a string (wire format), found a number;") == true)
        let missing = #expect(throws: OverrideStoreError.self) {
            try store.planImport(from: folder.url.appendingPathComponent("nope.json"), mode: .merge, catalog: nil)
        }
        #expect(missing?.kind == .io)
        #expect(!FileManager.default.fileExists(atPath: folder.storeURL().path))
    }
}
