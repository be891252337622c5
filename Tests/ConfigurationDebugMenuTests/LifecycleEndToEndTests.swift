import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Undo through the journal, the history and scenarios in the real binary, in tmux.
@Suite(
    "config-menu history and undo end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct LifecycleEndToEndTests {
    func startMenu(_ session: TmuxSession, _ store: URL, extra: String = "") async throws {
        try session.run("\(TmuxSession.binary) --store \(store.path) \(extra)")
        try await session.waitFor("Modules")
    }

    func value(_ store: URL, _ key: String) -> String? {
        let reader = FileOverrideStore(url: store)
        reader.reload()
        return reader.entry(forKey: key)?.value
    }

    @Test("u after a restart undoes the previous menu's change (asking whose it is), then another process's")
    func undoAfterRestart() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try await startMenu(session, store)
        try session.press("/")
        try session.type("like enabled")
        try session.press("Enter")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("Space")
        try await session.waitFor("Saved: function.album.like.enabled = Y")
        try session.press("q")
        try await session.waitForMenuExit()
        #expect(value(store, "function.album.like.enabled") == "Y")
        // A new menu process: the change is no longer its own, so it asks, naming the previous menu.
        try await startMenu(session, store)
        try session.press("u")
        try await session.waitFor("Undo the change by menu (pid")
        #expect(try session.screen().contains("function.album.like.enabled"))
        try session.press("y")
        try await session.waitFor("Undone: set function.album.like.enabled")
        #expect(value(store, "function.album.like.enabled") == nil)
        // Another process (the command line) changes a key; u names it and puts back what was there.
        #expect(try configMenu(["set", "function.chat.typing_interval_ms", "5000", "--store", store.path]).status == 0)
        try await session.waitFor("Changed elsewhere: function.chat.typing_interval_ms")
        try session.press("u")
        try await session.waitFor("Undo the change by cli (pid")
        try session.press("n")
        try await session.waitFor("Nothing was undone; their change stays")
        #expect(value(store, "function.chat.typing_interval_ms") == "5000")
        try session.press("u")
        try await session.waitFor("Undo the change by cli (pid")
        try session.press("y")
        try await session.waitFor("Undone: set function.chat.typing_interval_ms")
        #expect(value(store, "function.chat.typing_interval_ms") == nil)
        // The history view lists all four, newest first, the undos named as this menu's.
        try session.press("H")
        try await session.waitFor("History · 4 changes")
        #expect(try session.screen().contains("you (menu"))
        try session.press("Escape", "q")
        try await session.waitForMenuExit()
        let history = FileOverrideStore(url: store).history()
        #expect(history.records.map(\.reason.action) == [.set, .undo, .set, .undo])
        #expect(history.records.map(\.origin.kind) == [.menu, .menu, .cli, .menu])
    }

    @Test("a scenario: save the overrides as one, change them, preview it and apply it back")
    func scenarioRoundTrip() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try FileOverrideStore(url: store).set("Y", forKey: "function.album.like.enabled")
        try await startMenu(session, store)
        try session.press("i")
        try await session.waitFor("No scenarios yet")
        try session.press("s")
        try await session.waitFor("Save the current overrides as a scenario named")
        try session.type("liked")
        try session.press("Enter")
        try await session.waitFor("Saved the overrides as scenario liked")
        let scenario = session.home.appendingPathComponent("state/scenarios/liked.json")
        #expect(FileManager.default.fileExists(atPath: scenario.path))
        try session.press("Escape")
        try FileOverrideStore(url: store).removeAll()
        try await session.waitFor("Changed elsewhere")
        try session.press("i")
        try await session.waitFor("+ function.album.like.enabled = \"Y\"")
        try session.press("Enter")
        try await session.waitFor("Apply scenario liked: 1 added, 0 removed, 0 changed?")
        try session.press("y")
        try await session.waitFor("Applied scenario liked")
        #expect(value(store, "function.album.like.enabled") == "Y")
        #expect(FileOverrideStore(url: store).history().records.last?.reason.detail == "liked")
        try session.press("Escape", "q")
    }

    @Test("an override with an expiry set in the menu (x), seen in the history (H); u undoes a second process's change")
    func expiryHistoryAndUndoOfAnotherProcess() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try await startMenu(session, store)
        try session.press("/")
        try session.type("like enabled")
        try session.press("Enter")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("Space")
        try await session.waitFor("Saved: function.album.like.enabled = Y")
        // x: the expiry menu; the second choice is "for 1 h".
        try session.press("x")
        try await session.waitFor("When the override of function.album.like.enabled expires")
        try session.press("j", "Enter")
        try await session.waitFor("Saved: function.album.like.enabled = Y; expires: for 1 h")
        let reader = FileOverrideStore(url: store)
        reader.reload()
        let expiresAt = try #require(reader.entry(forKey: "function.album.like.enabled")?.expiry.expiresAt)
        #expect(abs(expiresAt.timeIntervalSinceNow - 3600) < 120, "stored as the time it expires, an hour from now")
        #expect(try session.screen().contains("expires at"))
        // Another process sets a key while the menu runs.
        #expect(try configMenu(["set", "function.network.retry_count", "7", "--store", store.path]).status == 0)
        try await session.waitFor("Changed elsewhere: function.network.retry_count")
        // H: the history lists the expiry change (this menu's) under the other process's change.
        try session.press("H")
        try await session.waitFor("History · 3 changes")
        let history = try session.screen()
        #expect(history.contains("set function.network.retry_count = \"7\""))
        #expect(history.contains("(expires at"))
        #expect(history.contains("you (menu"))
        // u from the history view undoes the newest change, the other process's, after asking.
        try session.press("u")
        try await session.waitFor("Undo the change by cli (pid")
        try session.press("y")
        try await session.waitFor("Undone: set function.network.retry_count")
        #expect(value(store, "function.network.retry_count") == nil)
        #expect(value(store, "function.album.like.enabled") == "Y", "the menu's own change stays")
        try session.press("Escape", "q")
        try await session.waitForMenuExit()
        let records = FileOverrideStore(url: store).history().records
        #expect(records.last?.reason.action == .undo)
        #expect(records.map(\.origin.kind) == [.menu, .menu, .cli, .menu])
    }
}
