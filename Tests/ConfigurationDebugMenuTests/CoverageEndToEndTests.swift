import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The debug binary of `config-menu` in tmux, with a real `config-demo` running beside it on the same store.
@Suite(
    "What the program read, end to end: config-demo beside the menu in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct CoverageEndToEndTests {
    @Test("the menu marks what config-demo read, filters the never-read keys, follows new reads, lists unregistered")
    func demoBesideMenu() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        let hint = "function.profile.display_name_hint"
        #expect(try configMenu(["set", hint, "QA", "--store", store.path]).status == 0)
        let demo = try DemoProcess(store: store)
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))

        try session.run("\(TmuxSession.binary) --store \(store.path)")
        // The start screen's six keys; the unregistered one is counted apart.
        try await session.waitFor("Keys · 55 · 6 read by config-demo · 1 unregistered")
        #expect(try session.screen().contains("│•Image Medium"))

        // An overridden key the demo never read says so.
        try session.press("/")
        try session.type("display name")
        try session.press("Enter")
        try await session.waitFor(
            "Read      not read by config-demo (pid \(demo.pid)) in this run  (the override was not exercised)")

        // N: only the keys never read.
        try session.press("Escape")
        try session.press("N")
        try await session.waitFor("Filters: never read in this run")
        try await session.waitFor("Keys · 49 of 55 · 6 read by config-demo")
        #expect(try !session.screen().contains("Image Medium"))

        // The demo opens its profile screen: three more keys read, and the filtered list follows within seconds.
        demo.pressEnter()
        try await session.waitFor("Keys · 46 of 55 · 9 read by config-demo")
        #expect(try !session.screen().contains("Theme Color"))

        // Every key again; the unregistered key at the bottom, with its explanation and fix.
        try session.press("N")
        try await session.waitFor("Keys · 55 · 9 read by config-demo · 1 unregistered")
        try session.press("G")
        try await session.waitFor("── Unregistered: read by the program, scope not in its catalog")
        try await session.waitFor(
            "Fix       add ConfigurationScopes.DemoLab.self to the program's ConfigurationCatalog")

        // The demo stops cleanly: its reads stay, marked ended.
        #expect(try await demo.stop(with: SIGTERM))
        try await session.waitFor("9 read by config-demo (ended)")
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
