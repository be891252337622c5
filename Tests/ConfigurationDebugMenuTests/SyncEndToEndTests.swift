import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private func storeText(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

/// The real `config-menu` in tmux with a real HTTP server on loopback: following a running program's snapshot,
/// and syncing by itself.
@Suite(
    "config-menu with server values, end to end in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct SyncEndToEndTests {
    @Test("QA's view of a running program: its server values live, ↻ on a change, an override from the menu wins")
    func followsTheProgram() async throws {
        let session = try TmuxSession(width: 120, height: 30)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        let demo = try DemoProcess(
            store: store, arguments: ["--server-url", server.url().absoluteString, "--sync-interval", "0.2"])
        let snapshot = store.deletingLastPathComponent().appendingPathComponent("server-snapshot.json")
        #expect(try await session.waitUntil { FileManager.default.fileExists(atPath: snapshot.path) })

        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("server: \(server.url().absoluteString) · values from config-demo's sync")
        try await session.waitFor("; config-demo runs")
        try session.press("/")
        try session.type("typing interval")
        try session.press("Enter")
        try await session.waitFor("Server    \"3500\"")

        try server.setValues(["function.chat.typing_interval_ms": "4500"])
        try await session.waitFor("↻ was \"3500\" before the last sync")
        try session.press("Escape", "c")
        try await session.waitFor("Filters: changed by the last sync")
        try await session.waitFor("Keys · 1 of 55")

        try session.press("Enter", "C-u")
        try session.type("100")
        try session.press("Enter")
        try await session.waitFor("Saved: function.chat.typing_interval_ms = 100")
        #expect(try await session.waitUntil { storeText(store).contains(#""value": "100""#) })
        try server.setValues(["function.chat.typing_interval_ms": "5000"])
        try await session.waitFor("↻ was \"4500\" before the last sync")
        try await session.waitFor("Server    \"5000\"")
        #expect(try session.screen().contains("100") && session.screen().contains("OVERRIDDEN"))

        server.stop()
        // The program notices at its next sync, then writes its snapshot: allow for a slow machine (TSan).
        try await session.waitFor("config-demo's last sync failed: connection refused", timeout: 30)
        try session.press("q")
        try await session.waitForMenuExit()
        withExtendedLifetime(demo) {}
    }

    @Test("the server line says whose sync it is and whether that program runs: s is this menu's; grey when it ended")
    func whoseSync() async throws {
        let session = try TmuxSession(width: 140, height: 30)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        // A long interval: the program does not sync again while the test runs.
        let demo = try DemoProcess(
            store: store, arguments: ["--server-url", server.url().absoluteString, "--sync-interval", "600"])
        let snapshot = store.deletingLastPathComponent().appendingPathComponent("server-snapshot.json")
        #expect(try await session.waitUntil { storeText(snapshot).contains("\"program\":\"config-demo\"") })
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("values from config-demo's sync")
        try await session.waitFor("; config-demo runs")
        #expect(try !session.screen().contains("fresh"))

        // s fetches for the program and writes its snapshot: the values are this menu's until the program syncs.
        try server.setValues(["function.chat.typing_interval_ms": "4500"])
        try session.press("s")
        try await session.waitFor("Synced: 1 key changed")
        try await session.waitFor("values from this menu's sync")
        try await session.waitFor("config-demo applies them at its own next sync")
        #expect(try !session.screen().contains("fresh"), "the program itself has not synced these values")

        #expect(try await demo.stop(with: SIGTERM))
        try await session.waitFor("; config-demo ended")
        // Grey: nobody syncs these values any more.
        let line = try session.tmux(["capture-pane", "-e", "-p"]).components(separatedBy: "\n")[1]
        let state = try #require(line.range(of: "values from this menu's sync"))
        #expect(line[..<state.lowerBound].suffix(16).contains("\u{1B}[2m"), "dim before the state: \(line)")
        let status = try configMenu(["status", "--store", store.path])
        #expect(status.output.contains("synced by:     config-menu (pid "), "\(status.output)")
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test("--server-url: the menu syncs by itself; s syncs now; a server that went away turns the line stale")
    func syncsByItself() async throws {
        let session = try TmuxSession(width: 120, height: 30)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let server = try FixtureHTTPServer(values: ["function.album.like.enabled": "Y"])
        try session.run("\(TmuxSession.binary) --store \(store.path) --server-url \(server.url().absoluteString)")
        try await session.waitFor("· fresh")
        try await session.waitFor("synced by this menu")
        try session.press("s")
        try await session.waitFor("Synced: not modified since the last sync")
        #expect(server.requests().last?.ifNoneMatch != nil)
        try server.setValues(["function.album.like.enabled": "N"])
        try session.press("s")
        try await session.waitFor("Synced: 1 key changed")
        server.stop()
        try session.press("s")
        try await session.waitFor("error: sync failed: connection refused; the last good values stay", timeout: 30)
        try await session.waitFor("stale: connection refused · last good", timeout: 30)
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
