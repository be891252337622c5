import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// The QA task issue 25 measures, in the real (debug) binary in tmux, with the keys a person presses: every Bool of a
/// module on except one, and its limit at the maximum.
@Suite(
    "config-menu marks end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct MarksEndToEndTests {
    @Test("Album: every Bool on except like.enabled, max photos at its maximum: 8 keys, one change for the Bools")
    func moduleTask() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        // The task's keys, one `press` each: 8 (the count the closing note gives; the issue asks for at most 10).
        func press(_ key: String) throws { try session.press(key) }
        try press("2")  // the second module in the pane, Album; the list keeps the keyboard
        try await session.waitFor("Filters: module Album")
        try press("V")
        try await session.waitFor("5 marked")
        try press("v")  // unmarks function.album.like.enabled, the first key
        try await session.waitFor("4 marked")
        try press("a")
        try await session.waitFor("Turn on 1 marked Bool key (3 others stay as they are)")
        try press("Enter")
        try await session.waitFor("Turn on 1 key: function.album.sharing.enabled?")
        try press("y")
        try await session.waitFor("Saved: 1 key turned on")
        try press("j")
        try await session.waitFor("Max Photos")
        try press(">")
        try await session.waitFor("Saved: function.album.max_photos = 9223372036854775807")

        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.sharing.enabled")?.value == "Y")
        #expect(reader.entry(forKey: "function.album.like.enabled") == nil, "the unmarked key is left alone")
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "9223372036854775807")
        #expect(reader.history().records.count == 2, "one change for the bulk action, one for the maximum")
        try session.press("u")
        try await session.waitFor("Undone: set function.album.max_photos")
        try session.press("q")
        try await session.waitForMenuExit()
    }
}

/// The rest of the power tool in the real (debug) binary in tmux: the compare view, the editor's range keys, and
/// Ctrl-Z with `fg`.
@Suite(
    "config-menu power tool end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct PowerToolEndToEndTests {
    @Test("C compares the module, Enter goes to a key; PgUp in the editor is the maximum; Ctrl-Z and fg come back")
    func tour() async throws {
        let session = try TmuxSession(width: 120, height: 36)
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        try session.press("2", "C")
        try await session.waitFor("Compare · Album · 5 keys")
        let compare = try session.screen()
        #expect(compare.contains("function.album.max_photos") && compare.contains("1000"), "\(compare)")
        try session.press("j", "j", "Enter")
        try await session.waitFor("Keys · 5 of 55")
        #expect(try session.screen().contains("Max Photos"))
        try session.press("Enter")
        try await session.waitFor("any integer, from -9223372036854775808 to 9223372036854775807")
        try session.press("PPage")
        try await session.waitFor("✓ valid: 9223372036854775807")
        try session.press("Enter")
        try await session.waitFor("Saved: function.album.max_photos = 9223372036854775807")

        // Ctrl-Z stops the menu as a shell job, the terminal restored; fg brings it back, redrawn.
        try session.press("Escape")
        try await session.waitFor("Keys · 55")
        try session.press("C-z")
        try await session.waitFor("Stopped")
        #expect(try session.menuProcess() != nil, "stopped, not ended")
        try session.run("fg")
        try await session.waitFor("Keys · 55")
        try session.press("q")
        try await session.waitForMenuExit()
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "9223372036854775807")
    }

    @Test("H, G, r: revert to the oldest change, one question; store and history agree; u undoes it, U redoes it")
    func revertToHere() async throws {
        let session = try TmuxSession(width: 120, height: 36)
        let store = session.home.appendingPathComponent("state/overrides.json")
        for (key, value) in [
            ("function.album.max_photos", "10"), ("function.album.max_photos", "20"),
            ("function.chat.bubble_style", "classic"),
        ] {
            let run = try ChildProcess.run(TmuxSession.binary, ["set", key, value, "--store", store.path])
            #expect(run.status == 0, "\(run.error)")
        }
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        try session.press("H")
        try await session.waitFor("History · 3 changes")
        try session.press("G", "r")
        try await session.waitFor("That undoes the 2 later changes at once")
        try session.press("y")
        try await session.waitFor("Undone: 2 later changes, back to set function.album.max_photos = \"10\"")
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "10")
        #expect(reader.entry(forKey: "function.chat.bubble_style") == nil)
        #expect(reader.history().records.last?.reason.action == .restore)
        // The revert is this menu's own last change: u undoes it at once.
        try session.press("Escape", "u")
        try await session.waitFor("Undone: restore to")
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "20")
        #expect(reader.entry(forKey: "function.chat.bubble_style")?.value == "classic")
        // U redoes what that undo undid: the revert again.
        try session.press("U")
        try await session.waitFor("Redone: reversed undo")
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "10")
        #expect(reader.entry(forKey: "function.chat.bubble_style") == nil)
        #expect(reader.history().records.last?.reason.action == .redo)
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test(
        "/opus lists the codec whose value is opus first; a description match keeps the value; \\u{200B} and I find it")
    func findAnything() async throws {
        let session = try TmuxSession(width: 120, height: 36)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let set = try ChildProcess.run(
            TmuxSession.binary,
            ["set", "function.chat.translation.default_language", "e\u{200B}n", "--store", store.path])
        #expect(set.status == 0, "\(set.error)")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        try session.press("/")
        try session.type("opus")
        try await session.waitFor("Filters: text \"opus\"")
        let rows = try session.screen().split(separator: "\n").filter {
            $0.contains("DEFAULT") || $0.contains("SERVER")
        }
        #expect(rows.first?.contains("Audio Codec") == true, "\(rows)")
        try session.press("C-u")
        try session.type("albums")
        try await session.waitFor("≈ …")
        let snippet = try #require(try session.screen().split(separator: "\n").first { $0.contains("≈ …") })
        #expect(snippet.contains("1600,75") || snippet.contains("2560,85"), "the value stays in its column: \(snippet)")
        try session.press("C-u")
        try session.type("\\u{200b}")
        try await session.waitFor("Keys · 1 of 55")
        #expect(try session.screen().contains("Default Language"))
        try session.press("Escape", "Escape", "I")
        try await session.waitFor("Filters: invisible or control characters")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
