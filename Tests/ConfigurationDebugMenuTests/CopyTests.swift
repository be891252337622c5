import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import SharedTestSupport
import Testing

/// `y`: the selected key's name, value or a `config-menu set` command line, to the clipboard through OSC 52.
@Suite("copy to the clipboard")
struct CopyTests {
    @Test("y offers the name, the value and a command line quoted for the shell; Enter sends one and says so")
    func choices() throws {
        var state = try MenuFixture.state()
        reduce(&state, .startFilter, .filterInsert("greeting"), .filterAccept, .openCopyMenu)
        guard case .copying(let menu) = state.mode else {
            Issue.record("y opens the copy menu: \(state.mode)")
            return
        }
        let store = try #require(state.data.storeLocation)
        #expect(
            menu.choices.map(\.text) == [
                "function.chat.greeting", "Hi 👋", "config-menu set function.chat.greeting 'Hi 👋' --store \(store)",
            ])
        let effects = reduce(&state, .move(2), .pickerChoose)
        #expect(effects == [.copyToClipboard("config-menu set function.chat.greeting 'Hi 👋' --store \(store)")])
        #expect(state.mode == .browsing)
        #expect(
            state.status?.text
                == "Sent the command that sets function.chat.greeting to the terminal's clipboard (OSC 52; tmux "
                + "needs set-clipboard on)")
    }

    @Test("a value with a quote, a newline or $(…) is one word when pasted into a shell")
    func quoting() {
        #expect(ShellWord.quoted("plain-1.0_x") == "plain-1.0_x")
        #expect(ShellWord.quoted("") == "''")
        #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
        #expect(ShellWord.quoted("$(touch PWN)\n`x`") == "'$(touch PWN)\n`x`'")
    }
}

/// The real binary in tmux with `set-clipboard on`: the copied text lands in tmux's paste buffer.
@Suite(
    "copy end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct CopyEndToEndTests {
    @Test("y, Enter puts the key's name in tmux's buffer (OSC 52); y, j, Enter its value")
    func clipboard() async throws {
        let session = try TmuxSession()
        try session.tmux(["set-option", "-g", "set-clipboard", "on"])
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        try session.press("/")
        try session.type("bubble")
        try session.press("Enter")
        try await session.waitFor("Filters: text \"bubble\"")
        try session.press("y")
        try await session.waitFor("Copy to the clipboard")
        try session.press("Enter")
        try await session.waitFor("Sent the name function.chat.bubble_style")
        #expect(
            try await session.waitUntil { (try? session.tmux(["show-buffer"])) == "function.chat.bubble_style" },
            "tmux's buffer: \((try? session.tmux(["show-buffer"])) ?? "none")")
        try session.press("y", "j", "Enter")
        try await session.waitFor("Sent the value of function.chat.bubble_style")
        #expect(try await session.waitUntil { (try? session.tmux(["show-buffer"])) == "rounded" })
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
