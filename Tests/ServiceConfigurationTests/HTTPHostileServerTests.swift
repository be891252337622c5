import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Hostile answers from the fixture server (`sync_server.py`, raw bytes), each synced in a child process
/// (`sync-test-helper fetch`) so that a transport that ends the process on one fails its test instead of ending the
/// test run. The child's service holds `kept.key` before the sync: a refused answer must leave it.
@Suite("HTTP sync against a hostile server: no crash, every answer refused or accepted as HTTP says")
struct HTTPHostileServerTests {
    typealias F = SyncFixture

    /// What the child process reported.
    struct Fetched: CustomStringConvertible {
        var outcome: String
        var kind: String?
        var reason: String?
        var values: [String: String]
        var etag: String?
        var seconds: Double
        var description: String { "\(outcome) \(kind ?? "") \(reason ?? "") \(values) in \(seconds) s" }
    }

    static let kept = ["kept.key": "kept"]
    static let served = [F.flag: "Y", F.count: "7"]

    /// Runs one sync of `url` in a child process; fails (never crashes) when the child does not exit normally.
    static func fetch(_ url: URL, timeout: Double = 30) throws -> Fetched {
        let run = try ChildProcess.run(helperPath("sync-test-helper"), ["fetch", url.absoluteString, String(timeout)])
        let data = Data(run.output.utf8)
        guard run.status == 0 else {
            throw FixtureError(
                "the syncing process ended with "
                    + (run.status > 128 ? "signal \(run.status - 128)" : "status \(run.status)") + " on \(url.path)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FixtureError("the helper printed \(String(decoding: data, as: UTF8.self))")
        }
        return Fetched(
            outcome: object["outcome"] as? String ?? "", kind: object["kind"] as? String,
            reason: object["reason"] as? String, values: object["values"] as? [String: String] ?? [:],
            etag: object["etag"] as? String, seconds: object["seconds"] as? Double ?? -1)
    }

    static func server() throws -> FixtureHTTPServer { try FixtureHTTPServer(values: served) }

    @Test("chunked trailers after the body: the values are applied (the process used to end with a fatal error)")
    func chunkedTrailers() throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/trailers"))
        #expect(fetched.outcome == "updated", "\(fetched)")
        #expect(fetched.values == Self.served)
    }

    @Test("100 Continue before the 200: read past, the 200 applies")
    func continueFirst() throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/continue"))
        #expect(fetched.outcome == "updated", "\(fetched)")
        #expect(fetched.values == Self.served)
        #expect(fetched.etag != nil, "the 200's validators are kept")
    }

    @Test("Content-Length 2^63-1: refused as larger than the limit, before any body; the values stay (it used to trap)")
    func largestLength() throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/length-max"))
        #expect(fetched.kind == "tooLarge", "\(fetched)")
        #expect(fetched.reason?.contains("larger than the 10 MiB limit") == true, "\(fetched)")
        #expect(fetched.values == Self.kept)
    }

    @Test(
        "a Content-Length of 2^63 or more cannot be represented: malformed, refused, the values stay",
        arguments: ["length-2-63", "length-huge"])
    func unrepresentableLength(mode: String) throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/\(mode)"))
        #expect(fetched.kind == "invalidResponse", "\(fetched)")
        #expect(fetched.reason?.contains("cannot be represented") == true, "\(fetched)")
        #expect(fetched.values == Self.kept, "the body {} must not empty the server layer")
    }

    @Test("a 304 to a first request that sent no validators is an error; its ETag is not kept")
    func notModifiedWithoutValidators() throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/not-modified"))
        #expect(fetched.outcome == "failed", "\(fetched)")
        #expect(fetched.kind == "invalidResponse")
        #expect(fetched.reason?.contains("HTTP 304 (not modified) to a request that named no version") == true)
        #expect(fetched.etag == nil, "the lying ETag is not stored")
        #expect(fetched.values == Self.kept)
    }

    @Test("the same 304 in a program: nothing is stored, the snapshot keeps no validator, the status is not fresh")
    func notModifiedStoresNothing() async throws {
        let server = try Self.server()
        let folder = TemporaryFolder()
        let sync = F.sync(server.url("/mode/not-modified"), service: nil, snapshot: F.snapshotURL(in: folder))
        let outcome = await sync.sync()
        #expect(outcome.error?.kind == .invalidResponse, "\(outcome)")
        #expect(sync.status.state.name == "error")
        #expect(sync.status.validators.isEmpty)
        let saved = try F.snapshot(at: F.snapshotURL(in: folder))
        #expect(saved?.status.validators.isEmpty ?? true)
        #expect(saved?.hasValues != true)
    }

    @Test("a gzip bomb (6 GiB of zeros in 6 MB): the decompressed size counts, refused long before the deadline")
    func gzipBomb() throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/gzip-bomb"), timeout: 20)
        #expect(fetched.kind == "tooLarge", "\(fetched)")
        #expect(fetched.reason?.contains("larger than the 10 MiB limit") == true, "\(fetched)")
        #expect(fetched.seconds < 20, "one deadline for the whole fetch: \(fetched.seconds) s")
        #expect(fetched.values == Self.kept)
    }

    @Test(
        "slow answers end at the one deadline, headers or gzipped body alike",
        arguments: ["gzip-drip", "drip-headers", "slow", "slow-body"])
    func deadline(mode: String) throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/\(mode)"), timeout: 2)
        #expect(fetched.kind == "timedOut", "\(fetched)")
        #expect(fetched.reason == "no complete answer within 2 s", "\(fetched)")
        // Room for a loaded machine: the child process starts in the measured time's shadow, not in it.
        #expect(fetched.seconds < 12, "\(fetched.seconds) s")
        #expect(fetched.values == Self.kept)
    }

    @Test(
        "absurd headers (one line of 1 MiB, 100,000 lines, no end) are refused plainly, the values stay",
        arguments: ["huge-header", "many-headers", "endless-headers"])
    func absurdHeaders(mode: String) throws {
        let server = try Self.server()
        let fetched = try Self.fetch(server.url("/mode/\(mode)"), timeout: 20)
        #expect(fetched.kind == "invalidResponse", "\(fetched)")
        #expect(fetched.reason?.contains("header") == true, "\(fetched)")
        #expect(fetched.seconds < 20, "\(fetched.seconds) s")
        #expect(fetched.values == Self.kept)
    }
}
