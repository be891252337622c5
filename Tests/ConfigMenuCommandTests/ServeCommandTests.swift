import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu serve` read by an independent client: the official OpenFeature Python SDK with its OFREP provider
/// (`openfeature-sdk`, `openfeature-provider-ofrep`, installed by scripts/setup-debian in `.venv/ofrep`), a change
/// stream read with Python's standard library, and hostile clients on raw sockets. Every server listens on a free
/// loopback port.
@Suite(
    "config-menu serve: any OpenFeature client reads QA's values over OFREP, live",
    .serialized, .enabled(if: OFREPTestServer.unavailableReason == nil, "run scripts/setup-debian (.venv/ofrep)"))
struct ServeCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-serve-\(UUID().uuidString)")
    var store: String { folder.appendingPathComponent("overrides.json").path }
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static var python: String { OFREPTestServer.environment.appendingPathComponent("bin/python").path }

    func serve(_ extra: [String] = []) async throws -> ServedMenu {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await ServedMenu.start(store: store, extra)
    }

    /// Evaluations through the OpenFeature SDK: each request is (type, key, default).
    func evaluate(_ served: ServedMenu, token: String? = nil, _ requests: [(String, String, Any)]) throws -> [String:
        [String: Any]]
    {
        let input = try requests.map {
            String(decoding: try JSONSerialization.data(withJSONObject: [$0.0, $0.1, $0.2]), as: UTF8.self)
        }.joined(separator: "\n")
        let run = try ChildProcess.run(
            Self.python,
            [Self.fixtures.appendingPathComponent("ofrep_client.py").path, served.base] + (token.map { [$0] } ?? []),
            input: Data(input.utf8), timeout: 120)
        try #require(run.status == 0, "the SDK client failed: \(run.error)")
        var answers: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            answers[object["key"] as? String ?? ""] = object
        }
        return answers
    }

    func set(_ key: String, _ value: String) throws {
        let run = try configMenu(["set", key, value, "--store", store])
        try #require(run.status == 0, "\(run.error)")
    }

    static let like = "function.album.like.enabled"
    static let concurrency = "function.media.upload_concurrency"
    static let scale = "function.stickers.animation_scale"
    static let quietHours = "function.notifications.quiet_hours"
    static let bubble = "function.chat.bubble_style"
    static let timeout = "function.network.timeout_sec"

    @Test(
        "the SDK reads overrides, server values and defaults, typed by key, with reasons; a change made with set is read next"
    )
    func sdkReadsValues() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try set(Self.like, "Y")
        try set(Self.bubble, "minimal")
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let first = try evaluate(
            served,
            [
                ("bool", Self.like, false), ("int", Self.concurrency, 1), ("float", Self.scale, 1.0),
                ("object", Self.quietHours, [String: Any]()), ("str", Self.bubble, "x"), ("float", Self.timeout, 1.0),
                ("bool", "function.no.such_key", true),
            ])
        #expect(first[Self.like]?["value"] as? Bool == true)
        #expect(first[Self.like]?["reason"] as? String == "STATIC")
        #expect(first[Self.like]?["variant"] as? String == "overridden")
        #expect(first[Self.bubble]?["value"] as? String == "minimal")
        #expect(first[Self.concurrency]?["value"] as? Int == 4, "the demo's server value, as an integer")
        #expect(first[Self.concurrency]?["reason"] as? String == "TARGETING_MATCH")
        #expect(first[Self.scale]?["value"] as? Double == 1.25)
        #expect(first[Self.timeout]?["value"] as? Double == 15.0, "a float key's whole number reads as a float")
        #expect(first[Self.timeout]?["reason"] as? String == "DEFAULT")
        #expect(first[Self.timeout]?["error"] is NSNull, "\(first[Self.timeout] ?? [:])")
        let quiet = try #require(first[Self.quietHours]?["value"] as? [String: Any])
        #expect(quiet["start"] as? String == "22:30")
        #expect(first["function.no.such_key"]?["error"] as? String == "FLAG_NOT_FOUND")
        #expect(first["function.no.such_key"]?["value"] as? Bool == true, "the caller's default")

        try set(Self.concurrency, "9")
        try set(Self.like, "N")
        let answered = try await poll(within: 30) {
            let next = try evaluate(served, [("int", Self.concurrency, 1), ("bool", Self.like, true)])
            return next[Self.concurrency]?["value"] as? Int == 9 && next[Self.like]?["value"] as? Bool == false
        }
        #expect(answered, "the served values follow the store")
        #expect(served.process.hasExited == false)
    }

    @Test(
        "the change stream names the changed key within moments of set, again after reset, and when an override expires"
    )
    func changeStream() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let reader = try ChildProcess(
            Self.python, [Self.fixtures.appendingPathComponent("sse_client.py").path, served.base + "/ofrep/v1/events"])
        defer { _ = reader.stop(signal: SIGKILL) }
        #expect(await poll(within: 60) { reader.lines.contains { $0.contains(#""event": "ready""#) } })
        try set(Self.concurrency, "7")
        #expect(
            await poll(within: 30) {
                reader.lines.contains { $0.contains("flags-changed") && $0.contains(Self.concurrency) }
            }, "\(reader.lines)")
        let resetRun = try configMenu(["reset", Self.concurrency, "--store", store])
        #expect(resetRun.status == 0)
        #expect(
            await poll(within: 30) {
                reader.lines.filter { $0.contains("flags-changed") && $0.contains(Self.concurrency) }.count == 2
            }, "\(reader.lines)")
        let changes = reader.lines.filter { $0.contains("flags-changed") }
        #expect(changes.count == 2, "one event per change, nothing for keys that did not change: \(changes)")

        // An override that expires is announced when it expires (the service's timer, not a poll).
        let expiring = try configMenu(["set", Self.like, "Y", "--for", "2s", "--store", store])
        #expect(expiring.status == 0, "\(expiring.error)")
        #expect(
            await poll(within: 30) {
                reader.lines.filter { $0.contains("flags-changed") && $0.contains(Self.like) }.count == 2
            }, "set, then expired: \(reader.lines)")
        let expired = try evaluate(served, [("bool", Self.like, true)])
        #expect(expired[Self.like]?["reason"] as? String == "DEFAULT", "\(expired)")
    }

    @Test("a program syncing from serve (this package's OFREP source) follows its change stream: set reaches it live")
    func programFollowsServe() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        // The program on the phone: its own store, its server values from the QA machine, no sync interval.
        let phone = folder.appendingPathComponent("phone/overrides.json")
        let demo = try DemoProcess(store: phone, arguments: ["--server-url", "ofrep://127.0.0.1:\(served.port)"])
        defer { _ = demo.child.stop(signal: SIGKILL) }
        func wait(for text: String, within seconds: Double = 60) async throws -> Bool {
            if try await demo.wait(for: text, within: seconds) { return true }
            Issue.record("no \"\(text)\" in:\n\(demo.printed)")
            return false
        }
        #expect(try await wait(for: "server: fresh (55 keys)"))
        try set("function.chat.typing_interval_ms", "4500")
        #expect(try await wait(for: "function.chat.typing_interval_ms: 2500 (SERVER) -> 4500 (SERVER)", within: 30))
        try set("function.chat.typing_interval_ms", "3000")
        #expect(try await wait(for: "4500 (SERVER) -> 3000 (SERVER)", within: 30))
        _ = served.process.stop(signal: SIGKILL)
        #expect(try await wait(for: "server: stale", within: 90), "serve gone: the stream ends, the values stay")
    }

    @Test("with a token: a client without it, or with a wrong one, is refused (401); with it, served")
    func token() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let token = "qa-token-0123456789abcdef"
        let tokenFile = folder.appendingPathComponent("token")
        try Data((token + "\n").utf8).write(to: tokenFile)
        let served = try await serve(["--token-file", tokenFile.path])
        defer { _ = served.process.stop(signal: SIGKILL) }
        #expect(served.process.lines.contains { $0.contains("token: from \(tokenFile.path)") })
        #expect(!served.process.lines.joined().contains(token), "a token from a file is not printed")
        let without = try evaluate(served, [("int", Self.concurrency, 1)])
        #expect(without[Self.concurrency]?["value"] as? Int == 1, "the caller's default")
        #expect(without[Self.concurrency]?["message"] as? String == "unauthorized")
        let wrong = try evaluate(served, token: String(token.reversed()), [("int", Self.concurrency, 1)])
        #expect(wrong[Self.concurrency]?["message"] as? String == "unauthorized")
        let right = try evaluate(served, token: token, [("int", Self.concurrency, 1)])
        #expect(right[Self.concurrency]?["value"] as? Int == 4)

        // This package's own OFREP source (an app, the tools) sends the token from CONFIG_OFREP_TOKEN.
        let other = folder.appendingPathComponent("other/overrides.json").path
        let sync = ["sync", "--server-url", "ofrep://127.0.0.1:\(served.port)", "--store", other]
        let refusedSync = try configMenu(sync, environment: .changing(["CONFIG_OFREP_TOKEN": nil]))
        #expect(refusedSync.status == 4)
        #expect(refusedSync.error.contains("401"), "\(refusedSync.error)")
        let synced = try configMenu(sync, environment: .changing(["CONFIG_OFREP_TOKEN": token]))
        #expect(synced.status == 0, "\(synced.error)")
        #expect(synced.output.contains("  \(Self.concurrency): (none) -> \"4\""), "\(synced.output)")
        #expect(synced.output.contains("  \(Self.like): (none) -> \"N\""), "a Bool in the key's own strings")

        let short = folder.appendingPathComponent("short")
        try Data("abc\n".utf8).write(to: short)
        let refused = try configMenu(["serve", "--listen", "127.0.0.1:0", "--token-file", short.path, "--store", store])
        #expect(refused.status == 3)
        #expect(refused.error.contains("at least 16 characters"), "\(refused.error)")
    }

    @Test(
        "hostile clients get a clear refusal or nothing, a hung one holds nobody up, a flood is slowed; serve goes on")
    func hostileClients() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        let probes = try ChildProcess(
            "/usr/bin/python3",
            [
                // The hang outlasts the other probes, however slow the run (five times longer under ThreadSanitizer).
                Self.fixtures.appendingPathComponent("hostile_client.py").path, "\(served.port)",
                "hang:\(Int(12 * timingSlack))", "garbage",
                "binary", "no-colon", "bad-escape", "huge-length", "many-fields", "long-head", "chunked",
                "wrong-method", "bad-json", "preflight", "early-close",
            ])
        defer { _ = probes.stop(signal: SIGKILL) }
        // While one client hangs mid-request line, the others are answered at once: the probe prints each line as its
        // answer comes, so every other probe's line comes before the hung one's (answered when `serve` gives up on
        // it, after 10 s). The order is what is checked, not what this test sees when: under ThreadSanitizer this
        // test's own polling can be held up past those 10 s by the tests that block the cooperative pool.
        #expect(await poll(within: 60) { probes.lines.contains { $0.contains(#""probe": "early-close""#) } })
        let during = try evaluate(served, [("int", Self.concurrency, 1)])
        #expect(during[Self.concurrency]?["value"] as? Int == 4, "served beside a hung client")
        #expect(await poll(within: 60 * timingSlack) { probes.lines.contains { $0.contains(#""probe": "hang""#) } })
        let order = probes.lines.map { line in ["hang", "early-close"].first { line.contains("\"probe\": \"\($0)\"") } }
        let (answered, hung) = (order.firstIndex(of: "early-close") ?? .max, order.firstIndex(of: "hang") ?? -1)
        #expect(answered < hung, "the hung client was still waiting when the others were answered: \(probes.lines)")
        var statuses: [String: Int] = [:]
        for line in probes.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            statuses[object["probe"] as? String ?? ""] = object["status"] as? Int ?? 0
        }
        #expect(
            statuses == [
                "hang": 408, "garbage": 400, "binary": 400, "no-colon": 400, "bad-escape": 400, "huge-length": 413,
                "many-fields": 431, "long-head": 431, "chunked": 501, "wrong-method": 405, "bad-json": 400,
                "preflight": 204, "early-close": 0,
            ], "\(probes.lines)")

        let flood = try ChildProcess.run(
            "/usr/bin/python3",
            [Self.fixtures.appendingPathComponent("hostile_client.py").path, "\(served.port)", "flood:600"],
            timeout: 120)
        let counts = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    ((try JSONSerialization.jsonObject(with: Data(flood.output.utf8)) as? [String: Any])?["body"]
                        as? String ?? "").utf8)) as? [String: Int], "\(flood.output)")
        #expect((counts["429"] ?? 0) > 0, "a flood is slowed: \(counts)")
        #expect((counts["200"] ?? 0) >= 200, "the burst is served: \(counts)")
        #expect(counts.keys.allSatisfy { $0 == "200" || $0 == "429" }, "\(counts)")
        let after = try await poll(within: 30) {
            (try evaluate(served, [("int", Self.concurrency, 1)]))[Self.concurrency]?["value"] as? Int == 4
        }
        #expect(after, "served again a moment after the flood")
        #expect(served.process.hasExited == false)
    }

    @Test("a corrupt store: serve says its overrides are not served, and serves the rest")
    func corruptStore() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: store))
        let served = try await serve()
        defer { _ = served.process.stop(signal: SIGKILL) }
        #expect(
            served.process.lines.contains {
                $0.contains("warning:") && $0.contains("no override from this file is applied")
            }, "\(served.process.lines)")
        let answers = try evaluate(served, [("int", Self.concurrency, 1)])
        #expect(answers[Self.concurrency]?["value"] as? Int == 4)
        #expect(try String(contentsOfFile: store, encoding: .utf8) == "{ not json", "serve writes nothing")
    }

    @Test("usage: a listen address that is not IPv4 ADDRESS:PORT, or an argument, is refused before anything starts")
    func usage() throws {
        for (arguments, message) in [
            (["serve", "--listen", "8016"], "is not ADDRESS:PORT"),
            (["serve", "--listen", "[::1]:8016"], "is not an IPv4 address"),
            (["serve", "--listen", "127.0.0.1:99999"], "is not a number from 0 to 65535"),
            (["serve", "extra"], "serve takes no arguments"),
        ] {
            let run = try configMenu(arguments + ["--store", store])
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains(message), "\(arguments): \(run.error)")
        }
    }
}

/// A running `config-menu serve` on a free loopback port, started by a test (the serve and remote store tests).
struct ServedMenu {
    let process: ChildProcess
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }
    var url: URL { URL(string: base)! }

    /// Starts `config-menu serve --listen 127.0.0.1:0 --store STORE EXTRA…` and waits for its banner.
    static func start(store: String, _ extra: [String] = []) async throws -> ServedMenu {
        let process = try ChildProcess(
            BuiltTools.path("config-menu"), ["serve", "--listen", "127.0.0.1:0", "--store", store] + extra,
            standardError: .lines)
        let found = await poll(within: 60) { process.lines.contains { $0.hasPrefix("Ctrl-C stops.") } }
        let text = process.lines.joined(separator: "\n")
        try #require(found, "serve did not start: \(text)")
        let port = try #require(
            text.firstMatch(of: /at http:\/\/127\.0\.0\.1:(\d+)\/ofrep\/v1/).flatMap { Int($0.1) }, "\(text)")
        return ServedMenu(process: process, port: port)
    }
}
