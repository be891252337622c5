import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Every bad response is refused whole and keeps the last good values; failures back off, never in a tight loop.
@Suite("Server values sync: bad responses, unreachable servers, backoff", .serialized)
struct ServerSyncFailureTests {
    typealias F = SyncFixture

    /// A misbehaviour of the fixture server, what the sync must call it, and words its reason must hold.
    struct BadResponse: Sendable, CustomTestStringConvertible {
        var mode: String
        var kind: ServerSyncError.Kind
        var reason: String
        var testDescription: String { mode }
    }

    static let badResponses: [BadResponse] = [
        BadResponse(mode: "500", kind: .httpStatus, reason: "HTTP 500"),
        BadResponse(mode: "404", kind: .httpStatus, reason: "HTTP 404"),
        BadResponse(mode: "garbage", kind: .invalidResponse, reason: "not JSON"),
        BadResponse(
            mode: "array", kind: .invalidResponse,
            reason: "expected a JSON object of key names to strings, found an array"),
        BadResponse(mode: "number", kind: .invalidResponse, reason: "is a number; every value must be a string"),
        BadResponse(mode: "wrong-type", kind: .invalidResponse, reason: "wrong content type text/html"),
        BadResponse(mode: "truncated", kind: .invalidResponse, reason: "cut short"),
        BadResponse(mode: "huge", kind: .tooLarge, reason: "larger than the 10 MiB limit (50 MiB announced)"),
        BadResponse(mode: "huge-chunked", kind: .tooLarge, reason: "larger than the 10 MiB limit"),
        BadResponse(mode: "reset", kind: .unreachable, reason: "connection reset"),
        BadResponse(mode: "slow", kind: .timedOut, reason: "no complete answer within 1 s"),
        BadResponse(mode: "slow-body", kind: .timedOut, reason: "no complete answer within 1 s"),
    ]

    @Test(
        "a bad response is refused whole, with the reason; the last good values and snapshot stay",
        arguments: badResponses)
    func refusedWhole(_ bad: BadResponse) async throws {
        let good = [F.flag: "Y", F.count: "5", F.greeting: String(repeating: "long value ", count: 20)]
        let server = try FixtureHTTPServer(values: good)
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try fixtureCatalog())
        // Only the hanging modes need a short timeout; the others get room for a loaded machine.
        let hangs = bad.kind == .timedOut
        let sync = F.sync(
            server.url(), service: service, snapshot: F.snapshotURL(in: folder), timeout: .seconds(hangs ? 1 : 30))
        _ = await Self.syncAnswered(sync)
        let lastSync = try #require(sync.status.lastSync)
        try server.setValues([F.flag: "N", F.count: "6"])
        try server.setMode(bad.mode)

        let outcome = await sync.sync()
        let error = try #require(outcome.error)
        #expect(error.kind == bad.kind)
        #expect(error.reason.contains(bad.reason), "reason: \(error.reason)")
        #expect(service.serverValues == good)
        #expect(sync.values == good)
        #expect(sync.status.state == .stale(since: lastSync, reason: error.reason))
        #expect(sync.status.lastError == error)
        let saved = try #require(try F.snapshot(at: F.snapshotURL(in: folder)))
        #expect(saved.values == good)
        #expect(saved.status.state == .stale(since: saved.status.lastSync!, reason: error.reason))

        try server.setMode(nil)
        let recovered = await Self.syncAnswered(sync)
        #expect(recovered == .updated(previousValues: [F.flag: "Y", F.count: "5", F.greeting: good[F.greeting]]))
        #expect(sync.status.state.name == "fresh")
        #expect(sync.status.lastError == error, "the last error stays visible after recovery")
    }

    /// Syncs; a good answer that a loaded machine delays past a short timeout is asked for again (up to 5 times).
    static func syncAnswered(_ sync: ServerValuesSync) async -> ServerSyncOutcome {
        var outcome = await sync.sync()
        for _ in 0..<4 where outcome.error?.kind == .timedOut {
            outcome = await sync.sync()
        }
        return outcome
    }

    @Test("a server that is down: connection refused, values kept; with no values at all the state is error")
    func connectionRefused() async throws {
        let refused = URL(string: "http://127.0.0.1:\(FixtureHTTPServer.closedPort())/values.json")!
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(serverValues: [F.flag: "Y"], catalog: try fixtureCatalog())
        let sync = F.sync(refused, service: service, snapshot: F.snapshotURL(in: folder))
        #expect(sync.status.state == .waiting)
        let outcome = await sync.sync()
        #expect(outcome == .failed(ServerSyncError(kind: .unreachable, reason: "connection refused")))
        #expect(sync.status.state == .error(reason: "connection refused"))
        #expect(service.serverValues == [F.flag: "Y"], "what the program had stays")
        let saved = try #require(try F.snapshot(at: F.snapshotURL(in: folder)))
        #expect(saved.status.state == .error(reason: "connection refused"))
        #expect(!saved.hasValues)
    }

    @Test("backoff: about 1 s doubling to a cap of a minute, with jitter, one attempt per wait (fake clock)")
    func backoffSpacing() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        try server.setMode("503")
        let randoms = Locked<[Double]>([0.5, 0, 0.999, 0.25, 0.75, 0.5, 0.1, 0.9, 0.5])
        let recorder = SleepRecorder(limit: 9)
        let environment = recorder.environment(random: {
            randoms.withLock { $0.isEmpty ? 0.5 : $0.removeFirst() }
        })
        let sync = F.sync(server.url(), service: nil, snapshot: nil, interval: .seconds(30), environment: environment)
        sync.start()
        try #require(await pollUntil { recorder.delays.count == 9 })
        sync.stop()
        let delays = recorder.delays.map(\.seconds)
        let nominal: [Double] = [1, 2, 4, 8, 16, 32, 60, 60, 60]
        let factors = [0.5, 0, 0.999, 0.25, 0.75, 0.5, 0.1, 0.9, 0.5].map { 1 + 0.2 * (2 * $0 - 1) }
        for (index, delay) in delays.enumerated() {
            let expected = min(60, nominal[index] * factors[index])
            #expect(abs(delay - expected) < 0.001, "wait \(index + 1): \(delay) s, expected \(expected) s")
            #expect(delay >= nominal[index] * 0.8 - 0.001 && delay <= min(60, nominal[index] * 1.2) + 0.001)
        }
        #expect(Set(delays).count > 5, "the jitter spreads the waits")
        #expect(server.requests().count == delays.count, "exactly one attempt per wait: never a tight loop")
        #expect(sync.status.state.name == "error")
    }

    @Test("after a success the next sync waits the interval; the next failure starts the backoff over")
    func backoffResets() async throws {
        let server = try FixtureHTTPServer(values: [F.flag: "Y"])
        try server.setMode("500")
        let modeFile = server.folder.appendingPathComponent("mode")
        // Each wait switches the server: the sync fails, succeeds, fails again.
        let recorder = SleepRecorder(limit: 3) { count in
            try? Data((count == 1 ? "" : "500").utf8).write(to: modeFile, options: .atomic)
        }
        let sync = F.sync(
            server.url(), service: nil, snapshot: nil, interval: .seconds(30),
            environment: recorder.environment(random: { 0.5 }))
        sync.start()
        try #require(await pollUntil { recorder.delays.count == 3 })
        sync.stop()
        #expect(recorder.delays == [.seconds(1), .seconds(30), .seconds(1)])
        #expect(server.requests().count == 3)
    }

    @Test("a source that pushes changes is fetched when it reports one; a broken watch marks the values stale")
    func pushSource() async throws {
        let source = PushSource()
        let recorder = SleepRecorder(limit: 1)
        let sync = ServerValuesSync(
            source: source, service: nil, snapshotURL: nil, environment: recorder.environment(random: { 0.5 }))
        source.publish(["a": "1"])
        sync.start()
        #expect(await pollUntil { sync.values == ["a": "1"] })
        source.publish(["a": "2"])
        #expect(await pollUntil { sync.values == ["a": "2"] }, "fetched on the change, with no interval")
        #expect(sync.status.lastChange?.previousValues == ["a": "1"])
        source.breakWatch(ServerSyncError(kind: .unreachable, reason: "watch stream closed"))
        #expect(await pollUntil { sync.status.state.reason == "watch stream closed" })
        #expect(sync.values == ["a": "2"])
        #expect(await pollUntil { recorder.delays == [.seconds(1)] }, "the retry waits the backoff")
        sync.stop()
    }
}

/// An in-memory source that reports changes, as an etcd watch would: `fetch` returns the published values, and
/// `waitForChange` returns when a newer version is published (or throws when the watch is broken).
final class PushSource: ServerValuesSource {
    private struct State {
        var values: [String: String] = [:]
        var version = 0
        var broken: ServerSyncError?
    }

    private let state = Locked(State())

    var location: String { "memory://push" }
    var pushesChanges: Bool { true }

    func publish(_ values: [String: String]) {
        state.withLock {
            $0.values = values
            $0.version += 1
        }
    }

    func breakWatch(_ error: ServerSyncError) { state.withLock { $0.broken = error } }

    func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError) -> ServerValuesFetch {
        let (values, version) = state.withLock { ($0.values, $0.version) }
        if validators.etag == String(version) { return .notModified(validators: validators) }
        return .values(values, validators: ServerValuesValidators(etag: String(version)))
    }

    func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError) {
        while !Task.isCancelled {
            let (version, broken) = state.withLock { ($0.version, $0.broken) }
            if let broken { throw broken }
            if String(version) != validators.etag { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
        throw ServerSyncError(kind: .cancelled, reason: "cancelled")
    }
}
