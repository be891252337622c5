import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The persisted snapshot: its format, crashes while it is written, hostile files, and following it from another
/// process's point of view.
@Suite("Server values snapshot: format, kill -9, hostile files, following", .serialized)
struct ServerSnapshotTests {
    typealias F = SyncFixture

    @Test("the snapshot file: format, version, status, validators, last change, values; unknown fields tolerated")
    func format() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y", "tab\tkey": "line\nbreak \u{1B}[31m"])
        let folder = TemporaryFolder()
        let sync = F.sync(server.url(), service: nil, snapshot: F.snapshotURL(in: folder))
        _ = await sync.sync()
        let text = try String(contentsOf: F.snapshotURL(in: folder), encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"format\": \"service-configuration-server-snapshot\",\n  \"version\": 1,\n"))
        #expect(text.contains("\"status\": \"fresh\""))
        #expect(text.contains("\"etag\": \"\\\""))
        #expect(text.contains(#""tab\tkey": "line\nbreak \u001b[31m""#))
        #expect(text.hasSuffix("  }\n}\n"))

        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["addedByALaterVersion"] = ["anything": 1]
        let extended = try JSONSerialization.data(withJSONObject: object)
        let parsed = try ServerValuesSnapshot(parsing: [UInt8](extended))
        #expect(parsed.values == [F.flag: "Y", "tab\tkey": "line\nbreak \u{1B}[31m"])
        #expect(parsed.status.validators == sync.status.validators)

        object["version"] = 2
        let newer = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: ServerValuesSnapshot.FormatError.self) { try ServerValuesSnapshot(parsing: [UInt8](newer)) }
    }

    @Test("kill -9 while the snapshot is written leaves the old or the new snapshot, never a broken one")
    func killedWhileWriting() async throws {
        let server = try FixtureHTTPServer()
        let folder = TemporaryFolder()
        let snapshot = F.snapshotURL(in: folder)
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var checked = 0
        for round in 0..<10 {
            // Kill at a random moment once the writer is under way (it has acknowledged a sync).
            let run = try killMidway(
                helperPath("sync-test-helper"),
                [
                    "hammer", server.url().absoluteString, server.folder.appendingPathComponent("values.json").path,
                    snapshot.path, "500", "100000",
                ], after: UInt32.random(in: 0...30_000, using: &generator))
            if run.killed { kills += 1 }
            let acknowledged = run.lines.compactMap {
                $0.hasPrefix("ok ") ? Int($0.dropFirst(3)) : nil
            }
            let saved = try #require(try F.snapshot(at: snapshot), "round \(round): no snapshot")
            let generations = Set(saved.values.values)
            #expect(saved.values.count == 500, "round \(round): \(saved.values.count) keys")
            #expect(
                generations.count == 1, "round \(round): a mixture of generations \(generations.sorted().prefix(3))")
            if let last = acknowledged.last, let generation = generations.first.flatMap({ Int($0) }) {
                #expect(generation == last || generation == last + 1, "round \(round): \(generation) after ok \(last)")
                checked += 1
            }
        }
        #expect(kills >= 8, "the writer must actually be killed mid-run (\(kills) kills)")
        #expect(checked >= 8)
    }

    /// Under ThreadSanitizer the shadow memory multiplies what the process holds (the 10 MiB kept before the limit is
    /// reached among it): the bound is a property of normal builds.
    @Test(
        "a 50 MB body is refused without holding it: the sync's peak memory grows far less than the body",
        .enabled(if: !runsUnderThreadSanitizer, "memory is not comparable under ThreadSanitizer"),
        arguments: ["huge", "huge-chunked"])
    func hugeBodyMemory(mode: String) throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let text = try ChildProcess.run(
            helperPath("sync-test-helper"), ["memory", server.url("/mode/\(mode)").absoluteString]
        ).output
        let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(fields.count == 3, "helper said: \(text)")
        #expect(fields[0] == "tooLarge")
        let growth = (Int(fields[2]) ?? 0) - (Int(fields[1]) ?? 0)
        #expect(growth > 0 && growth < 24 * 1024, "peak grew by \(growth / 1024) MiB for a 50 MB body")
    }

    @Test("hostile snapshots are refused with the reason and never applied; the next good sync replaces them")
    func hostileSnapshots() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let cases: [(name: String, bytes: String, mode: mode_t, problem: String)] = [
            ("not JSON", "{\"format\": ", 0o600, "not valid JSON"),
            (
                "truncated",
                "{\"format\": \"service-configuration-server-snapshot\", \"version\": 1, \"source\": \"x\", \"values\": {\"a\": \"b\"",
                0o600, "not valid JSON"
            ),
            (
                "a number value",
                "{\"format\": \"service-configuration-server-snapshot\", \"version\": 1, \"source\": \"\(server.url().absoluteString)\", \"lastSync\": \"2026-01-01T00:00:00.000Z\", \"values\": {\"a\": 1}}",
                0o600, "must be a string"
            ),
            (
                "writable by others",
                "{\"format\": \"service-configuration-server-snapshot\", \"version\": 1, \"source\": \"\(server.url().absoluteString)\", \"lastSync\": \"2026-01-01T00:00:00.000Z\", \"values\": {\"a\": \"b\"}}",
                0o666, "writable by other users"
            ),
            (
                "another source",
                "{\"format\": \"service-configuration-server-snapshot\", \"version\": 1, \"source\": \"https://elsewhere/values.json\", \"lastSync\": \"2026-01-01T00:00:00.000Z\", \"values\": {\"a\": \"b\"}}",
                0o600, "holds values from https://elsewhere/values.json"
            ),
            (
                "an override store",
                "{\"format\": \"service-configuration-overrides\", \"version\": 1, \"overrides\": {}}", 0o600,
                "not a server snapshot"
            ),
        ]
        for hostile in cases {
            let folder = TemporaryFolder()
            let url = F.snapshotURL(in: folder)
            try Data(hostile.bytes.utf8).write(to: url)
            chmod(url.path, hostile.mode)
            let service = LiveConfigurationService(serverValues: ["a": "mine"], catalog: try fixtureCatalog())
            let sync = F.sync(server.url(), service: service, snapshot: url)
            #expect(service.serverValues == ["a": "mine"], "\(hostile.name): nothing applied")
            #expect(sync.status.state == .waiting)
            #expect(
                sync.status.snapshotProblem?.contains(hostile.problem) == true,
                "\(hostile.name): \(String(describing: sync.status.snapshotProblem))")
            chmod(url.path, 0o600)
            _ = await sync.sync()
            #expect(service.serverValues == [F.flag: "Y"])
            #expect(sync.status.snapshotProblem == nil)
            #expect(try F.snapshot(at: url)?.values == [F.flag: "Y"], "\(hostile.name): replaced by a good snapshot")
        }
    }

    @Test("a snapshot that cannot be saved (read-only folder) is reported; syncing and applying go on")
    func unsavable() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = ServerValuesSync(
            source: HTTPServerValuesSource(url: server.url()), service: service,
            snapshotURL: F.snapshotURL(in: folder), environment: .live,
            faults: { $0 == .write ? ENOSPC : nil })
        #expect(await sync.sync() == .updated(previousValues: [F.flag: nil]))
        #expect(service.serverValues == [F.flag: "Y"])
        #expect(sync.status.snapshotProblem?.contains("No space left on device") == true)
        #expect(!FileManager.default.fileExists(atPath: F.snapshotURL(in: folder).path))
    }

    @Test("the snapshot names the program whose sync wrote it; readers tell whether it runs; old snapshots read")
    func writer() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let folder = TemporaryFolder()
        let url = F.snapshotURL(in: folder)
        _ = await F.sync(server.url(), service: nil, snapshot: url).sync()
        let mine = try #require(try F.snapshot(at: url)?.writer)
        #expect(mine.processIdentifier == getpid() && mine.isCurrentProcess && mine.isRunning)
        #expect(mine.programName == ProcessInfo.processInfo.processName)
        #expect(mine.processStart != nil, "Linux says when a process started")

        // Another program syncs once and exits: its snapshot names it, and it no longer runs.
        let process = try ChildProcess(
            helperPath("sync-test-helper"),
            [
                "hammer", server.url().absoluteString, server.folder.appendingPathComponent("values.json").path,
                url.path, "1", "1",
            ], standardInput: .null, standardOutput: .discard)
        _ = process.waitUntilExit()
        let follower = ServerSnapshotFollower(snapshotURL: url, service: nil)
        let other = try #require(follower.writer)
        #expect(other.programName == "sync-test-helper" && other.processIdentifier == process.processIdentifier)
        #expect(!other.isRunning && !other.isCurrentProcess)
        #expect(follower.program == other, "the last program other than this one")

        // A snapshot from before the field, or with a writer that cannot be read: values kept, no writer known.
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        for hostile in [nil, "config-demo", ["pid": "12", "program": "x"], ["pid": -4, "program": "x"], ["pid": 7]]
            as [Any?]
        {
            object["writer"] = hostile
            let parsed = try ServerValuesSnapshot(
                parsing: [UInt8](try JSONSerialization.data(withJSONObject: object)))
            #expect(parsed.writer == nil, "\(String(describing: hostile))")
            #expect(!parsed.values.isEmpty && parsed.values == follower.values, "the values are read as before")
        }
    }

    @Test("a writer that cannot be read (a pid too big for one): values kept, no writer, and the problem is said")
    func unreadableWriter() throws {
        var status = ServerSyncStatus(source: "https://config.example.com/values.json")
        status.lastSync = Date(timeIntervalSince1970: 1_800_000_000)
        status.state = .fresh(at: status.lastSync!)
        let values = [F.flag: "Y"]
        let good = ServerValuesSnapshot(
            status: status, values: values,
            writer: ServerSnapshotWriter(programName: "config-demo", processIdentifier: 4242, processStart: nil))
        let text = String(decoding: good.encoded(values: ServerValuesSnapshot.encodeValues(values)), as: UTF8.self)
        let read = try ServerValuesSnapshot(parsing: Array(text.utf8))
        #expect(read.writer == good.writer && read.status.snapshotProblem == nil)
        #expect(text.contains(#""pid":4242"#))

        func parsed(_ writer: String) throws -> ServerValuesSnapshot {
            let replaced = text.replacing(#/"writer": \{[^}]*\}/#, with: #""writer": "# + writer)
            #expect(replaced != text)
            return try ServerValuesSnapshot(parsing: Array(replaced.utf8))
        }
        let cases: [(writer: String, problem: String)] = [
            (#"{"pid": 2147483648, "program": "x"}"#, #""writer"."pid" must be a process identifier"#),
            (#"{"pid": 99999999999999999999, "program": "x"}"#, #""writer"."pid" must be a process identifier"#),
            (#"{"pid": -4, "program": "x"}"#, #""writer"."pid" must be a process identifier"#),
            (#"{"pid": "12", "program": "x"}"#, #""writer"."pid" must be a process identifier"#),
            (#"{"pid": 7}"#, #""writer" has no "program""#),
            (#"{"program": "x"}"#, #""writer" has no "pid""#),
            (#""config-demo""#, #""writer" must be an object, found a string"#),
        ]
        for (writer, problem) in cases {
            let snapshot = try parsed(writer)
            #expect(snapshot.writer == nil, "\(writer)")
            #expect(snapshot.values == values, "the values are read as before: \(writer)")
            #expect(
                snapshot.status.snapshotProblem?.hasPrefix(problem) == true,
                "\(writer): \(snapshot.status.snapshotProblem ?? "none")")
        }
        #expect(
            try parsed(#"{"pid": 2147483648, "program": "x"}"#).status.snapshotProblem?.contains("found 2147483648")
                == true)
        #expect(try parsed("null").status.snapshotProblem == nil, "null: a writer not said")
        #expect(try parsed(#"{"pid": 2147483647, "program": "x"}"#).writer?.processIdentifier == Int32.max)

        // A program following the snapshot shows the problem with the snapshot's status.
        let folder = TemporaryFolder()
        let url = F.snapshotURL(in: folder)
        try Data(text.replacingOccurrences(of: #""pid":4242"#, with: #""pid": 2147483648"#).utf8).write(to: url)
        let follower = ServerSnapshotFollower(snapshotURL: url, service: nil)
        #expect(follower.writer == nil && follower.values == values)
        #expect(follower.status.snapshotProblem?.contains(#""writer"."pid""#) == true)
    }

    @Test("following a running program's snapshot: its values and status arrive live; sync fetches from its source")
    func follower() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let folder = TemporaryFolder()
        let url = F.snapshotURL(in: folder)
        let viewer = LiveConfigurationService(serverValues: ["demo": "built in"], catalog: try fixtureCatalog())
        let follower = ServerSnapshotFollower(snapshotURL: url, service: viewer)
        follower.startWatching()
        #expect(follower.status.source.isEmpty, "no snapshot yet")
        #expect(viewer.serverValues == ["demo": "built in"])

        let program = F.sync(server.url(), service: nil, snapshot: url)
        _ = await program.sync()
        #expect(await pollUntil { viewer.serverValues == [F.flag: "Y"] })
        #expect(follower.status.source == server.url().absoluteString)
        #expect(follower.status.state.name == "fresh")

        try server.setValues([F.flag: "N"])
        #expect(await follower.sync() == .updated(previousValues: [F.flag: "Y"]))
        #expect(viewer.serverValues == [F.flag: "N"])
        #expect(follower.status.lastChange?.previousValues == [F.flag: "Y"])

        server.stop()
        _ = await program.sync()
        #expect(await pollUntil { follower.status.state.name == "stale" })
        #expect(follower.status.state.reason == "connection refused")
        #expect(viewer.serverValues == [F.flag: "Y"], "the program never got N: the snapshot shows what it has")
        follower.stopWatching()
    }
}

/// An executable built next to the test binary.
func helperPath(_ name: String) -> String {
    var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), folder.path != "/" {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent(name).path
}
