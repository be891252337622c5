import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

/// `--server-url ofrep://`, `--targeting-key` and `--context` on `config-menu` and `config-demo`, against a real OFREP
/// server (fast-feature, started by each test on a free loopback port).
@Suite("config-menu and config-demo with an OFREP server: the context chooses the values", .serialized)
struct OFREPCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-ofrep-\(UUID().uuidString)")
    static let like = "function.album.like.enabled"
    static let interval = "function.chat.typing_interval_ms"

    func store(_ name: String) -> String { folder.appendingPathComponent(name).appendingPathComponent("o.json").path }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// fast-feature with the like button on for Japan, and a typing interval of 2500 ms for everyone.
    static func server() throws -> OFREPTestServer {
        if let reason = OFREPTestServer.unavailableReason { throw FixtureError(reason) }
        let server = try OFREPTestServer.start()
        try server.setFlag(
            like, variants: ["on": true, "off": false], defaultVariant: "off",
            targeting: ["if": [["==": [["var": "country"], "JP"]], "on", NSNull()]])
        try server.setFlag(interval, variants: ["slow": 2500], defaultVariant: "slow")
        return server
    }

    @Test("sync with two contexts gives two values; get shows them; status names the context in the source")
    func twoContexts() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server()
        let url = server.url().absoluteString
        let japan = try configMenu([
            "sync", "--server-url", url, "--targeting-key", "qa-1", "--context", "country=JP", "--context",
            "osVersion=18.2", "--store", store("jp"),
        ])
        #expect(japan.status == 0, "\(japan.error)")
        #expect(
            japan.output.hasPrefix(
                "synced from ofrep://127.0.0.1:\(server.port)?targetingKey=qa-1&country=JP&osVersion=18.2: 2 keys changed"
            ))
        #expect(japan.output.contains("  \(Self.like): (none) -> \"Y\"\n"))
        #expect(japan.output.contains("  \(Self.interval): (none) -> \"2500\"\n"))
        let france = try configMenu([
            "sync", "--server-url", url, "--context", "country=FR", "--targeting-key", "qa-2", "--store", store("fr"),
        ])
        #expect(france.status == 0, "\(france.error)")
        #expect(france.output.contains("  \(Self.like): (none) -> \"N\"\n"))
        #expect(
            try json(try configMenu(["get", Self.like, "--json", "--store", store("jp")]).output)["server"] as? String
                == "Y")
        #expect(
            try json(try configMenu(["get", Self.like, "--json", "--store", store("fr")]).output)["server"] as? String
                == "N")
        let status = try json(try configMenu(["status", "--json", "--store", store("fr")]).output)
        #expect(status["source"] as? String == "ofrep://127.0.0.1:\(server.port)?targetingKey=qa-2&country=FR")

        // The same context again, options in another order: the same source, so a 304 keeps the values.
        let again = try configMenu([
            "sync", "--server-url", url, "--targeting-key", "qa-2", "--context", "country=FR", "--store", store("fr"),
        ])
        #expect(again.output.contains("not modified (2 values kept)"), "\(again.output)\(again.error)")
        #expect(server.evaluationStatuses() == [200, 200, 304])
    }

    @Test("sync --manifest: a boolean becomes the program's own Bool string (true/false), not Y/N")
    func manifestBoolEncoding() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("app.manifest.json")
        let text = #"""
            {"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "Album", "keys": [
              {"name": "function.album.like.enabled", "control": {"kind": "toggle", "on": "true", "off": "false"},
               "default": "false"}]}]}
            """#
        try Data(text.utf8).write(to: manifest)
        let arguments = ["sync", "--server-url", server.url().absoluteString, "--context", "country=JP"]
        let synced = try configMenu(arguments + ["--manifest", manifest.path, "--store", store("manifest")])
        #expect(synced.status == 0, "\(synced.error)")
        #expect(synced.output.contains("  \(Self.like): (none) -> \"true\"\n"), "\(synced.output)")
        let plain = try configMenu(arguments + ["--store", store("plain")])
        #expect(plain.output.contains("  \(Self.like): (none) -> \"Y\"\n"), "without a manifest: Y/N")
    }

    @Test("--context and --targeting-key refused with the reason: no KEY=VALUE, no OFREP URL, no --server-url")
    func refusals() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], String)] = [
            (["sync", "--server-url", "ofrep://127.0.0.1:1", "--context", "country"], "--context needs KEY=VALUE"),
            (
                ["sync", "--server-url", "http://127.0.0.1:1/v.json", "--context", "country=JP"],
                "--context and --targeting-key need an OFREP server: --server-url ofrep://HOST:PORT"
            ),
            (["sync", "--targeting-key", "qa"], "--targeting-key needs --server-url ofrep://HOST:PORT"),
            (["list", "--context", "a=b"], "--context needs --server-url ofrep://HOST:PORT"),
            (
                ["sync", "--server-url", "ofrep://127.0.0.1:1", "--context", "targetingKey=x"],
                "give the targeting key with --targeting-key ID"
            ),
            (
                ["sync", "--server-url", "ofrep://127.0.0.1:1", "--context", "a=1", "--context", "a=2"],
                #"the context attribute "a" is given twice"#
            ),
        ]
        for (arguments, message) in cases {
            let run = try configMenu(arguments + ["--store", store("refused")])
            #expect(run.status == 2, "\(arguments): \(run.error)")
            #expect(run.error.contains(message), "\(arguments): \(run.error)")
        }
        let demo = try runTool("config-demo", ["--store", store("demo"), "--context", "country=JP"], timeout: 20)
        #expect(demo.status == 2)
        #expect(demo.error.contains("--context and --targeting-key need --server-url ofrep://HOST:PORT"))
    }

    @Test(
        "config-demo --server-url ofrep:// with a context: the targeted value arrives, and the menu's snapshot has it")
    func demo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.server()
        let store = store("demo")
        let demo = try DemoProcess(
            store: URL(fileURLWithPath: store),
            arguments: [
                "--server-url", server.url().absoluteString, "--context", "country=JP", "--targeting-key", "qa-1",
                "--sync-interval", "0.3",
            ])
        func wait(for text: String, within seconds: Double = 30) async throws -> Bool {
            if try await demo.wait(for: text, within: seconds) { return true }
            Issue.record("no \"\(text)\" in:\n\(demo.printed)")
            return false
        }
        #expect(try await wait(for: "server values from ofrep://127.0.0.1:\(server.port)?targetingKey=qa-1&country=JP"))
        #expect(try await wait(for: "server: fresh (2 keys)"))
        #expect(try await wait(for: "typing indicator refresh: every 2500 ms"))
        try server.setFlag(Self.interval, variants: ["slow": 4000], defaultVariant: "slow")
        #expect(try await wait(for: "\(Self.interval): 2500 (SERVER) -> 4000 (SERVER)"))
        let status = try json(try configMenu(["status", "--json", "--store", store]).output)
        #expect(status["status"] as? String == "fresh")
        server.kill()
        #expect(try await wait(for: "server: stale: "))
    }
}
