import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

@Suite("Rendered screens of the history, a scenario's diff and expiry, compared as text")
struct LifecycleScreenTests {
    let renderer = MenuRenderer(colors: true)

    @Test("golden: the history, newest first, the selected change in full below")
    func history() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .openHistory, .move(1))
        let grid = renderer.render(state)
        try expectScreen(grid, "history")
        #expect(grid.text.contains("hand edit (new)") == false, "every change here is recorded")
        #expect(grid.text.contains("by menu (pid 4242) (this menu)"))
        #expect(grid.line(grid.height - 1).contains("u undo"))
    }

    @Test("golden: a scenario's diff against the current overrides, before applying it")
    func scenarioDiff() throws {
        var state = try MenuFixture.state()
        reduce(&state, .openScenarios)
        reduce(&state, .scenariosLoaded(MenuFixture.scenarios))
        let grid = renderer.render(state)
        try expectScreen(grid, "scenario-diff")
        #expect(grid.text.contains("+ ab.payments.checkout = \"off\""))
        #expect(grid.text.contains("~ function.payments.daily_limit: \"lots\" → \"2,000\""))
        reduce(&state, .toggleScenarioMode)
        let replacing = renderer.render(state).text
        #expect(replacing.contains("- function.media.hdr.enabled = \"Y\""))
        #expect(replacing.contains("1 added, 1 changed, 1 unchanged, 3 removed"), "the counts import and diff print")
    }

    @Test("golden: the expiry menu over the list")
    func expiryMenu() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.hdr.enabled", in: &state)
        reduce(&state, .chooseExpiry)
        try expectScreen(renderer.render(state), "expiry-menu")
    }
}
