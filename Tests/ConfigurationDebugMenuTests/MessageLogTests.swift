import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

@Suite("The message log: every status, warning and error shown, whole, newest first, with its time")
struct MessageLogTests {
    let renderer = MenuRenderer(colors: false)

    func update(_ state: MenuState, store: String? = nil, liveReload: String? = nil) -> MenuFeedback {
        .refreshed(
            MenuDataUpdate(
                statuses: [:], orphans: state.data.orphans, storeProblem: store, liveReloadProblem: liveReload,
                time: state.clock))
    }

    @Test("statuses, errors, and each store problem's start and end are logged; a repeat counts; the log is bounded")
    func logged() throws {
        var state = try MenuFixture.state(width: 100, height: 30, wallClockOffset: 1_764_425_100)
        reduce(&state, .tick(12))
        reduce(&state, .toggleOnlyOverridden, .toggleOnlyOverridden, .toggleOnlyOverridden)
        reduce(&state, .writeFailed("/x/overrides.json: cannot save: No space left on device (errno 28)", id: 0))
        reduce(&state, update(state, store: "/x/overrides.json: not valid JSON at line 3"))
        reduce(
            &state,
            update(state, store: "/x/overrides.json: not valid JSON at line 3", liveReload: "the folder is gone"))
        reduce(&state, update(state, liveReload: "the folder is gone; looking again"), update(state))
        let texts = state.messages.map(\.text)
        #expect(
            texts == [
                "Showing only overridden keys", "Showing every key", "Showing only overridden keys",
                "not saved: /x/overrides.json: cannot save: No space left on device (errno 28)",
                "store error: /x/overrides.json: not valid JSON at line 3",
                "live reload degraded: the folder is gone",
                "the store's error is gone: it was read or written again",
                "live reload works again: changes made elsewhere show at once",
            ])
        #expect(state.messages.map(\.kind) == [.info, .info, .info, .error, .error, .warning, .info, .info])
        state.filters = KeyFilters()
        state.refreshList()
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .resetSelected, .resetSelected, .resetSelected)
        #expect(state.messages.count == 9, "the same message again right after is one line, counted")
        #expect(state.messages.last?.text == "function.media.upload_mode has no override")
        #expect(state.messages.last?.repeats == 3)
        for index in 0..<(MenuState.messageLimit + 5) { state.inform("message \(index)") }
        #expect(state.messages.count == MenuState.messageLimit)
        #expect(state.messages.last?.text == "message \(MenuState.messageLimit + 4)")
    }

    @Test("L shows the log newest first, whole and wrapped, with UTC times; a cut footer says L shows all")
    func shown() throws {
        var state = try MenuFixture.state(width: 80, height: 24, wallClockOffset: 1_764_425_100)
        reduce(&state, .tick(1))
        state.inform("first")
        reduce(&state, .tick(62))
        let long = "not saved: " + String(repeating: "a long reason ", count: 12) + "THE-END"
        reduce(&state, .writeFailed(String(long.dropFirst(11)), id: 0))
        let footer = renderer.render(state).line(23)
        #expect(footer.contains("… L shows all"), "\(footer)")
        #expect(Keymap.keys.action(for: .character("L")) == .showMessages)
        reduce(&state, .showMessages)
        let screen = renderer.render(state).text
        #expect(screen.contains("Messages · 2 messages, newest first, UTC"))
        #expect(screen.contains("14:06:02  error: not saved: a long reason"), "\(screen)")
        #expect(screen.contains("THE-END"), "whole")
        #expect(screen.contains("14:05:01  first"))
        #expect(
            try #require(screen.range(of: "14:06:02")).lowerBound < #require(screen.range(of: "14:05:01")).lowerBound,
            "newest first")
        reduce(&state, .showMessages)
        #expect(state.mode == .browsing, "L again goes back")
        // In an editor, L types an L: a message cut there says nothing about it.
        MenuFixture.select("function.chat.greeting", in: &state)
        reduce(&state, .activate)
        state.fail(long)
        let editing = renderer.render(state).line(23)
        #expect(editing.contains("…") && !editing.contains("L shows all"), "\(editing)")
    }
}
