import Foundation
import ServiceConfiguration
import Testing

/// Editing in the real binary, in tmux: a real interactive `vi`, keys that arrive as escape sequences, a change
/// from another process while an editor is open.
@Suite(
    "config-menu editing end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isAvailable, "needs tmux (scripts/setup-debian installs it)"))
struct EditingEndToEndTests {
    /// An interactive vi: Debian's vim-tiny (scripts/setup-debian installs it), or any vim or vi.
    static var vi: String? {
        ["/usr/bin/vim.tiny", "/usr/bin/vim", "/usr/bin/vi", "/usr/bin/nvi"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    func start(_ session: TmuxSession) async throws -> URL {
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        return store
    }

    @Test("e hands the terminal to a real vi; its answer is saved, and nothing it leaves behind acts as keys")
    func realEditor() async throws {
        let vi = try #require(Self.vi, "scripts/setup-debian installs vim-tiny")
        let session = try TmuxSession(environment: ["EDITOR": vi])
        let store = try await start(session)
        try session.press("/")
        try session.type("max photos")
        try session.press("Enter")
        try await session.waitFor("Filters: text \"max photos\"")
        try session.press("e")
        try await session.waitFor("2000")
        try await session.waitFor("~")
        try session.type("cc4321")
        try session.press("Escape")
        try session.type(":wq")
        try session.press("Enter")
        try await session.waitFor("Saved: function.album.max_photos = 4321")
        let screen = try session.screen()
        #expect(screen.contains("Filters: text \"max photos\""), "the filter is still there")
        #expect(!screen.contains("Reset all"), "no terminal reply was taken for R")
        #expect((try? String(contentsOf: store, encoding: .utf8))?.contains(#""value": "4321""#) == true)
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test("Home and End as tmux sends them (\\e[1~, \\e[4~) move the caret; Esc with changes asks first")
    func homeEndAndEscape() async throws {
        let session = try TmuxSession(term: "xterm-256color")
        _ = try await start(session)
        try session.press("/")
        try session.type("bubble style")
        try session.press("Enter", "Enter")
        try await session.waitFor("Choose Bubble Style")
        try session.press("Escape")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("Escape")
        try await session.waitFor("Filters cleared")
        try session.press("/")
        try session.type("max photos")
        try session.press("Enter", "Enter")
        try await session.waitFor("Edit function.album.max_photos")
        try session.press("Home")
        try session.type("1")
        try session.press("End")
        try session.type("9")
        try await session.waitFor("✓ valid: 120009")
        try session.press("Escape")
        try await session.waitFor("Discard your changes to function.album.max_photos?")
        try session.press("n")
        try await session.waitFor("✓ valid: 120009")
        try session.press("C-c")
        try await session.waitFor("Quit and discard your changes")
        try session.press("y")
        try await session.waitForMenuExit()
    }

    @Test("another process changes the key being edited: the editor says so, Enter asks, the list marks it")
    func changedUnderneath() async throws {
        let session = try TmuxSession()
        let store = try await start(session)
        try session.press("/")
        try session.type("max photos")
        try session.press("Enter", "Enter")
        try await session.waitFor("Edit function.album.max_photos")
        try session.press("C-u")
        try session.type("777")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.binary)
        process.arguments = ["set", "function.album.max_photos", "123", "--store", store.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try await session.waitFor("changed elsewhere to 123 while you edit")
        try session.press("Enter")
        try await session.waitFor("was changed elsewhere to 123 while you edited. Save yours over it?")
        try session.press("n")
        try session.press("Escape")
        try await session.waitFor("Discard your changes")
        try session.press("y")
        try await session.waitFor("Discarded your changes to function.album.max_photos")
        #expect((try? String(contentsOf: store, encoding: .utf8))?.contains(#""value": "123""#) == true)
        try session.press("q")
    }
}
