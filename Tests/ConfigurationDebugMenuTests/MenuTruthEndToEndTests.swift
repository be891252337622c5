import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the menu says is true, in the real binary in tmux: hints name the key that does what they say, the history
/// undoes the change it shows, a change etcd has not answered is neither saved nor lost, the screen never freezes
/// for the store, and every message can be read whole.
@Suite(
    "config-menu tells the truth, end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isAvailable, "needs tmux (scripts/setup-debian installs it)"))
struct MenuTruthEndToEndTests {
    /// Starts the menu on the demo catalog with `store`.
    func start(_ session: TmuxSession, store: String) async throws {
        try session.run("\(TmuxSession.binary) --store \(store)")
        try await session.waitFor("Keys · ")
    }

    /// Filters the list by `text` and keeps the filter.
    func find(_ session: TmuxSession, _ text: String) async throws {
        try session.press("/")
        try session.type(text)
        try session.press("Enter")
        try await session.waitFor("Filters: text \"\(text)\"")
    }

    /// The store file as another process reads it.
    func reader(_ url: URL) -> FileOverrideStore {
        let store = FileOverrideStore(url: url)
        store.reload()
        return store
    }

    @Test("80×24: details cut short name the key that shows them all (d), a pager; nothing there changes the value")
    func detailsPager() async throws {
        let session = try TmuxSession(width: 80, height: 24)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let key = "function.album.like.enabled"
        let note =
            "QA ticket 4411: " + String(repeating: "the like button on the album screen, checked again; ", count: 22)
            + "END-OF-NOTE"
        try FileOverrideStore(url: store).set("Y", forKey: key, note: note)
        try await start(session, store: store.path)
        try await find(session, "like enabled")
        try await session.waitFor("… d shows all")
        #expect(try !session.screen().contains("Enter shows all"), "Enter toggles this key: no hint may say otherwise")
        try session.press("d")
        try await session.waitFor("Details · \(key)")
        try await session.waitFor("j/PgDn: more")
        try session.press("G")
        try await session.waitFor("END-OF-NOTE")
        try session.press("g")
        try await session.waitFor("Override  \"Y\"")
        // Enter and Space are not the pager's: the value stays.
        try session.press("Enter", "Space")
        try session.press("Escape")
        try await session.waitFor("… d shows all")
        let after = reader(store)
        #expect(after.entry(forKey: key)?.value == "Y" && after.entry(forKey: key)?.note == note)
        #expect(after.history().records.count == 1, "nothing saved from the pager")
        #expect(try !session.screen().contains("Saved:"))
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
