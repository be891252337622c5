import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Editing in the real binary, in tmux: a real interactive `vi`, keys that arrive as escape sequences, a change
/// from another process while an editor is open.
@Suite(
    "config-menu editing end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
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

    /// `config-menu set KEY VALUE` on `store` from another process.
    func setElsewhere(_ key: String, _ value: String, store: URL) throws {
        let result = try configMenu(["set", key, value, "--store", store.path])
        #expect(result.status == 0, "\(result.error)")
    }

    /// The value of `key`'s override in the store file, as another process reads it.
    func stored(_ key: String, in store: URL) -> String? {
        let reader = FileOverrideStore(url: store)
        reader.reload()
        return reader.entry(forKey: key)?.value
    }

    /// The store's history, as another process reads it.
    func history(of store: URL) -> OverrideHistory { FileOverrideStore(url: store).history() }

    /// In a running vi: replaces the first line with `text`, writes and quits.
    func replaceInVi(_ session: TmuxSession, with text: String) throws {
        try session.type("cc" + text)
        try session.press("Escape")
        try session.type(":wq")
        try session.press("Enter")
    }

    @Test(
        "another process changes the key while $EDITOR is open (e, and Ctrl-O from the JSON editor): saving asks",
        .timeLimit(.minutes(3)))
    func changedWhileInExternalEditor() async throws {
        let vi = try #require(Self.vi, "scripts/setup-debian installs vim-tiny")
        let session = try TmuxSession(environment: ["EDITOR": vi])
        let store = try await start(session)
        let key = "function.media.upload_concurrency"
        try session.press("/")
        try session.type("upload concurrency")
        try session.press("Enter")
        try await session.waitFor("Filters: text \"upload concurrency\"")
        try session.press("e")
        try await session.waitFor("upload_concurrency.txt")
        try setElsewhere(key, "111", store: store)
        try replaceInVi(session, with: "2222")
        try await session.waitFor("was changed elsewhere to 111 while you edited.")
        #expect(stored(key, in: store) == "111", "nothing saved before y")
        // n: back to the menu's editor, holding what was typed in vi, and saying what changed.
        try session.press("n")
        try await session.waitFor("changed elsewhere to 111 while you edit")
        try await session.waitFor("> 2222")
        try session.press("Escape")
        try await session.waitFor("Discard your changes")
        try session.press("y")
        try await session.waitFor("Discarded your changes to \(key)")
        #expect(stored(key, in: store) == "111")
        // Again, and y: saved over theirs.
        try session.press("e")
        try await session.waitFor("upload_concurrency.txt")
        try setElsewhere(key, "112", store: store)
        try replaceInVi(session, with: "3333")
        try await session.waitFor("was changed elsewhere to 112 while you edited.")
        try session.press("y")
        try await session.waitFor("Saved: \(key) = 3333")
        #expect(stored(key, in: store) == "3333")
        // vi quit without a change: nothing is saved.
        try session.press("e")
        try await session.waitFor("upload_concurrency.txt")
        try session.type(":q")
        try session.press("Enter")
        try await session.waitFor("Nothing saved: the text came back from")
        #expect(history(of: store).records.count == 3, "two sets elsewhere, one here")

        // Ctrl-O from the JSON editor: the edit started when the JSON editor opened.
        let json = "function.media.upload_policy"
        try session.press("Escape")
        try session.press("/")
        try session.type("upload policy")
        try session.press("Enter", "Enter")
        try await session.waitFor("Edit JSON · \(json)")
        try session.press("C-o")
        try await session.waitFor("upload_policy.txt")
        try setElsewhere(json, #"{"allowedExtensions":["png"],"maxFileSizeMB":5,"wifiOnly":false}"#, store: store)
        try session.type("ggdG")
        try session.type(#"i{"allowedExtensions":["heic"],"maxFileSizeMB":9,"wifiOnly":true}"#)
        try session.press("Escape")
        try session.type(":wq")
        try session.press("Enter")
        try await session.waitFor("while you edited. Save yours")
        #expect(stored(json, in: store)?.contains("png") == true)
        try session.press("y")
        try await session.waitFor("Saved: \(json) = ")
        #expect(stored(json, in: store)?.contains("heic") == true)
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
        #expect(try configMenu(["set", "function.album.max_photos", "123", "--store", store.path]).status == 0)
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
