import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The sync against a real HTTP server on loopback (Python's standard library, started by each test).
@Suite("Server values sync: applying, conditional requests, cache-first start", .serialized)
struct ServerSyncTests {
    typealias F = SyncFixture

    @Test("a 200 applies in one update that notifies only the keys whose effective value changed")
    func applyOnce() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y", F.count: "5", F.greeting: "hi"])
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(
            serverValues: [F.flag: "N", F.count: "5"], catalog: try fixtureCatalog())
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }
        let sync = F.sync(server.url(), service: service, snapshot: F.snapshotURL(in: folder))

        #expect(await sync.sync() == .updated(previousValues: [F.flag: nil, F.count: nil, F.greeting: nil]))
        #expect(service.serverValues == [F.flag: "Y", F.count: "5", F.greeting: "hi"])
        #expect(log.all == [[F.flag, F.greeting]], "one notification, for the keys that changed")
        #expect(sync.status.state.name == "fresh")
        #expect(sync.status.keyCount == 3)
        #expect(sync.status.validators.etag != nil && sync.status.validators.lastModified != nil)

        try server.setValues([F.flag: "Y", F.count: "7", F.greeting: "hi"])
        #expect(await sync.sync() == .updated(previousValues: [F.count: "5"]))
        #expect(log.all == [[F.flag, F.greeting], [F.count]])
        #expect(sync.status.lastChange?.previousValues == [F.count: "5"])
        #expect(service.count == 7)

        let saved = try #require(try F.snapshot(at: F.snapshotURL(in: folder)))
        #expect(saved.values == [F.flag: "Y", F.count: "7", F.greeting: "hi"])
        #expect(saved.status.validators == sync.status.validators)
        #expect(saved.status.lastChange?.previousValues == [F.count: "5"])
        #expect(saved.status.source == server.url().absoluteString)
        #expect(mode(of: F.snapshotURL(in: folder).path) == 0o600)
    }

    @Test("a 304 keeps the values, sends If-None-Match and If-Modified-Since, and notifies nobody")
    func notModified() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = F.sync(server.url(), service: service, snapshot: F.snapshotURL(in: folder))
        _ = await sync.sync()
        let firstSync = try #require(sync.status.lastSync)
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }

        #expect(await sync.sync() == .notModified)
        let requests = server.requests()
        #expect(requests.count == 2)
        #expect(requests[0].ifNoneMatch == nil && requests[0].ifModifiedSince == nil)
        #expect(requests[1].ifNoneMatch == sync.status.validators.etag)
        #expect(requests[1].ifModifiedSince == sync.status.validators.lastModified)
        #expect(service.serverValues == [F.flag: "Y"])
        #expect(log.all.isEmpty)
        #expect(try #require(sync.status.lastSync) >= firstSync)
        #expect(sync.status.state == .fresh(at: sync.status.lastSync!))
    }

    @Test("a server with Last-Modified only (python3 -m http.server): If-Modified-Since, 304, then a newer file")
    func lastModifiedOnly() async throws {
        let server = try FixtureHTTPServer()
        try server.setValues([F.count: "1"], modified: Date(timeIntervalSince1970: 1_764_000_000))
        let sync = F.sync(server.url("/last-modified-only/values.json"), service: nil, snapshot: nil)
        #expect(await sync.sync() == .updated(previousValues: [F.count: nil]))
        #expect(sync.status.validators.etag == nil)
        #expect(await sync.sync() == .notModified)
        #expect(server.requests().last?.ifModifiedSince == "Mon, 24 Nov 2025 16:00:00 GMT")
        try server.setValues([F.count: "2"], modified: Date(timeIntervalSince1970: 1_764_000_060))
        #expect(await sync.sync() == .updated(previousValues: [F.count: "1"]))
        #expect(sync.values == [F.count: "2"])
    }

    @Test("a server without validators: every sync is a 200; unchanged values notify nobody")
    func noValidators() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = F.sync(server.url("/plain/values.json"), service: service, snapshot: nil)
        _ = await sync.sync()
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }
        #expect(await sync.sync() == .updated(previousValues: [:]))
        #expect(log.all.isEmpty)
        #expect(sync.status.lastChange?.previousValues == [F.flag: nil], "the last change is kept")
    }

    @Test("cache first: the snapshot is applied before any network call; the server down leaves it stale")
    func cacheFirstStart() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y", F.count: "9"])
        let folder = TemporaryFolder()
        let first = F.sync(server.url(), service: nil, snapshot: F.snapshotURL(in: folder))
        _ = await first.sync()
        let lastSync = try #require(first.status.lastSync)
        first.stop()
        server.stop()

        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        let sync = F.sync(server.url(), service: service, snapshot: F.snapshotURL(in: folder))
        // Before start: no request, values already there.
        #expect(service.serverValues == [F.flag: "Y", F.count: "9"])
        #expect(service.count == 9)
        #expect(sync.status.state == .cached(since: lastSync))
        #expect(sync.status.validators == first.status.validators)
        var updates = sync.statusUpdates().makeAsyncIterator()
        #expect(await updates.next()?.state == .cached(since: lastSync))
        sync.start()
        let next = await updates.next()
        #expect(next?.state == .stale(since: lastSync, reason: "connection refused"))
        #expect(next?.lastError?.kind == .unreachable)
        #expect(service.serverValues == [F.flag: "Y", F.count: "9"])
        #expect(try F.snapshot(at: F.snapshotURL(in: folder))?.status.state.name == "stale")
        #expect(try F.snapshot(at: F.snapshotURL(in: folder))?.values == [F.flag: "Y", F.count: "9"])
    }

    @Test(
        "overrides survive every sync: a 200 that changes the key, a 304, a failure",
        .enabled(if: ConfigurationEngine.overridesCompiledIn, "needs the DebugOverrides trait"))
    func overridesSurvive() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "N", F.count: "1"])
        let folder = TemporaryFolder()
        let store = FileOverrideStore(url: folder.storeURL())
        try store.set("Y", forKey: F.flag, note: "QA")
        let storeBytes = try Data(contentsOf: folder.storeURL())
        let service = LiveConfigurationService(catalog: try fixtureCatalog(), overrideStore: store, watchMode: nil)
        let sync = ServerValuesSync(
            source: HTTPServerValuesSource(url: server.url(), timeout: .seconds(5)), service: service)
        #expect(sync.snapshotURL == ServerSnapshotLocation.url(besideStoreAt: folder.storeURL()))
        let log = NotificationLog()
        let observation = service.observe { log.append($0) }
        defer { observation.cancel() }

        _ = await sync.sync()
        try server.setValues([F.flag: "Y", F.count: "2"])
        _ = await sync.sync()
        #expect(await sync.sync() == .notModified)
        try server.setMode("500")
        #expect(await sync.sync().error?.kind == .httpStatus)
        #expect(service.flag == true)
        #expect(service.resolution(of: ConfigurationScopes.Fixture.FlagKey.self).source == .overridden)
        #expect(service.overrides == [F.flag: "Y"])
        #expect(service.serverValues == [F.flag: "Y", F.count: "2"])
        #expect(!log.all.contains { $0.contains(F.flag) }, "the overridden key's effective value never changed")
        #expect(try Data(contentsOf: folder.storeURL()) == storeBytes, "the store file is untouched")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.storeURL().deletingLastPathComponent()
                    .appendingPathComponent("server-snapshot.json").path))
    }

    @Test("a custom decoding closure reads another shape; when it throws, the response is refused whole")
    func customFormat() async throws {
        let server = try FixtureHTTPServer()
        try server.setBody(Data("flag=Y\ncount=7\n".utf8))
        struct LineError: Error, CustomStringConvertible {
            var description: String
        }
        let format = ServerValuesFormat.custom { data in
            var values: [String: String] = [:]
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw LineError(description: "line without '=': \(line)") }
                values["test.feature." + parts[0]] = String(parts[1])
            }
            return values
        }
        let sync = ServerValuesSync(
            source: HTTPServerValuesSource(url: server.url(), format: format, timeout: .seconds(5)), service: nil,
            snapshotURL: nil, environment: .live)
        _ = await sync.sync()
        #expect(sync.values == ["test.feature.flag": "Y", "test.feature.count": "7"])
        try server.setBody(Data("flag=N\nbroken\n".utf8))
        let outcome = await sync.sync()
        #expect(outcome == .failed(ServerSyncError(kind: .invalidResponse, reason: "line without '=': broken")))
        #expect(sync.values == ["test.feature.flag": "Y", "test.feature.count": "7"])
    }

    @Test("stop cancels a fetch under way at once, without marking the values stale; later syncs are refused")
    func stopCancels() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        let sync = F.sync(server.url(), service: nil, snapshot: nil, timeout: .seconds(30))
        _ = await sync.sync()
        try server.setMode("slow")
        let started = Date()
        async let outcome = sync.sync()
        #expect(await pollUntil { server.requests().count == 2 })
        sync.stop()
        #expect(await outcome.error?.kind == .cancelled)
        #expect(Date().timeIntervalSince(started) < 10, "the 30 s timeout did not have to expire")
        #expect(sync.status.state.name == "fresh")
        #expect(await sync.sync() == .failed(ServerSyncError(kind: .cancelled, reason: "the sync was stopped")))
    }
}
