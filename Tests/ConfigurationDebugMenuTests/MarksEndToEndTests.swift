import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// The QA task issue 25 measures, in the real (debug) binary in tmux, with the keys a person presses: every Bool of a
/// module on except one, and its limit at the maximum.
@Suite(
    "config-menu marks end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isAvailable, "needs tmux (scripts/setup-debian installs it)"))
struct MarksEndToEndTests {
    @Test("Album: every Bool on except like.enabled, max photos at its maximum: 11 keys, one change for the Bools")
    func moduleTask() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        // The task's keys, one `press` each: 11 (the count the closing note gives).
        func press(_ key: String) throws { try session.press(key) }
        try press("Tab")
        try press("j")
        try press("j")
        try await session.waitFor("Filters: module Album")
        try press("Enter")
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
