import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// `config-menu sync` and `status`, and `config-demo --server-url`, against a real HTTP server on loopback.
@Suite("config-menu sync and status, config-demo --server-url (a real server on loopback)", .serialized)
struct SyncCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-sync-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }

    func run(_ arguments: String...) throws -> ToolRun { try configMenu(arguments + ["--store", store.path]) }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("sync prints what changed (escaped), status reports it; a failed sync exits 4 and leaves the values")
    func syncAndStatus() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FixtureHTTPServer(values: [
            "function.chat.typing_interval_ms": "3000", "function.album.like.enabled": "Y",
            "hostile.note": "bell\u{07} and \u{1B}]0;title\u{07}",
        ])
        let none = try run("status")
        #expect(none.status == 1)
        #expect(none.error.contains("no server snapshot at \(folder.path)/server-snapshot.json"))

        let first = try run("sync", "--server-url", server.url().absoluteString)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("synced from \(server.url().absoluteString): 3 keys changed\n"))
        #expect(first.output.contains("  function.chat.typing_interval_ms: (none) -> \"3000\"\n"))
        #expect(first.output.contains(#"  hostile.note: (none) -> "bell\u{0007} and \u{001B}]0;title\u{0007}""#))
        #expect(!first.output.contains("\u{1B}") && !first.output.contains("\u{07}"))

        let status = try json(try run("status", "--json").output)
        #expect(status["status"] as? String == "fresh")
        let syncedBy = try #require(status["syncedBy"] as? [String: Any])
        #expect(syncedBy["program"] as? String == "config-menu" && syncedBy["running"] as? Bool == false)
        #expect(try run("status").output.contains("synced by:     config-menu (pid "), "whose sync, and it ended")
        #expect(status["source"] as? String == server.url().absoluteString)
        #expect(status["keys"] as? Int == 3)
        #expect((status["etag"] as? String)?.hasPrefix("\"") == true)
        #expect(status["lastModified"] is String)
        #expect(status["lastError"] is NSNull)
        let listed = try run("get", "function.chat.typing_interval_ms", "--json")
        #expect(try json(listed.output)["server"] as? String == "3000", "commands read the snapshot's values")

        try server.setValues(["function.chat.typing_interval_ms": "4000", "function.album.like.enabled": "Y"])
        let second = try run("sync", "--json")
        #expect(second.status == 0)
        let outcome = try json(second.output)
        #expect(outcome["outcome"] as? String == "updated")
        let changes = try #require(outcome["changes"] as? [[String: Any]])
        #expect(changes.map { $0["key"] as? String } == ["function.chat.typing_interval_ms", "hostile.note"])
        #expect(changes.first?["previous"] as? String == "3000")
        #expect(changes.first?["value"] as? String == "4000")
        #expect(changes.last?["value"] is NSNull)
        #expect(try run("sync").output.contains("not modified (2 values kept)"))
        #expect(server.requests().last?.ifNoneMatch == status["etag"] as? String || server.requests().count == 3)

        try server.setMode("500")
        let failed = try run("sync")
        #expect(failed.status == 4)
        #expect(
            failed.error
                == "config-menu: sync from \(server.url().absoluteString) failed: HTTP 500 (internal server error); the last good values stay\n"
        )
        let text = try run("status")
        #expect(text.status == 0)
        #expect(text.output.contains("status:        stale\n"))
        #expect(text.output.contains("reason:        HTTP 500 (internal server error)\n"))
        #expect(text.output.contains("last error:    HTTP 500 (internal server error) (since "))
        #expect(
            try json(try run("get", "function.chat.typing_interval_ms", "--json").output)["server"] as? String == "4000"
        )
    }

    @Test("get and list with --server-url show that source's last-known values, and say when none were fetched yet")
    func serverURLValues() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3333"])
        let url = server.url().absoluteString
        let key = "function.chat.typing_interval_ms"
        let before = try run("get", key, "--server-url", url)
        #expect(before.output.hasPrefix("\(key) = 3000 (DEFAULT)\n"))
        #expect(
            before.error.contains(
                "note: no server values fetched from \(url) yet (\(folder.path)/server-snapshot.json"),
            "\(before.error)")
        #expect(try run("sync", "--server-url", url).status == 0)
        server.stop()  // last-known values: nothing is fetched by get or list
        let get = try run("get", key, "--server-url", url)
        #expect(get.status == 0)
        #expect(get.output.hasPrefix("\(key) = 3333 (SERVER)\n"), "\(get.output)")
        #expect(!get.error.contains("note:"), "\(get.error)")
        #expect(get.output == (try run("get", key)).output, "the same as without the flag, as the menu shows it")
        let list = try run("list", "Chat", "--server-url", url, "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["name"] as? String == key })
        #expect(row["value"] as? String == "3333" && row["source"] as? String == "server")
        let other = "http://127.0.0.1:9/other.json"
        let elsewhere = try run("list", "Chat", "--server-url", other)
        #expect(elsewhere.output.contains("\(key)            3000"), "\(elsewhere.output)")
        #expect(
            elsewhere.error.contains(
                "note: no server values fetched from \(other) yet (\(folder.path)/server-snapshot.json holds values "
                    + "from \(url), not \(other); not used)"), "\(elsewhere.error)")
    }

    @Test("usage errors: an interval without a server, a scheme no source knows, sync with nothing to sync from")
    func usage() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let interval = try run("list", "--sync-interval", "2")
        #expect(interval.status == 2)
        #expect(interval.error.contains("--sync-interval needs --server-url"))
        let scheme = try run("sync", "--server-url", "ftp://example.com/values.json")
        #expect(scheme.status == 2)
        #expect(scheme.error.contains("unsupported server URL ftp://example.com/values.json"))
        let nothing = try run("sync")
        #expect(nothing.status == 2)
        #expect(nothing.error.contains("no server to sync from: pass --server-url URL"))
        for command in ["sync", "status"] {
            let help = try configMenu([command, "--help"])
            #expect(help.status == 0)
            #expect(help.output.hasPrefix("usage: config-menu \(command)"))
            #expect(try configMenu([command, "--frobnicate"]).status == 2)
        }
    }

    @Test("config-demo --server-url: a server change arrives; an override still wins; the snapshot is shared")
    func demoSyncs() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        let demo = try DemoProcess(
            store: store, arguments: ["--server-url", server.url().absoluteString, "--sync-interval", "0.2"])
        // `poll` looks once more after the deadline: a test process starved of threads by its neighbours may wake
        // only after the output arrived and the deadline passed.
        func wait(for text: String, within seconds: Double = 30) async throws -> Bool {
            if try await demo.wait(for: text, within: seconds) { return true }
            Issue.record("no \"\(text)\" in:\n\(demo.printed)")
            return false
        }
        #expect(try await wait(for: "server: fresh (1 key)"))
        #expect(try await wait(for: "typing indicator refresh: every 3500 ms"))
        try server.setValues(["function.chat.typing_interval_ms": "4500"])
        #expect(try await wait(for: "function.chat.typing_interval_ms: 3500 (SERVER) -> 4500 (SERVER)"))
        #expect(try configMenu(["set", "function.chat.typing_interval_ms", "100", "--store", store.path]).status == 0)
        #expect(try await wait(for: "4500 (SERVER) -> 100 (OVERRIDDEN)"))
        try server.setValues(["function.chat.typing_interval_ms": "5000"])
        #expect(try await wait(for: "server: 1 key changed in this sync"))
        #expect(!demo.printed.contains("-> 5000"), "the override still wins")
        let status = try run("status", "--json")
        #expect(try json(status.output)["status"] as? String == "fresh")
        server.stop()
        #expect(try await wait(for: "server: stale: connection refused; the last good values stay"))
    }
}
