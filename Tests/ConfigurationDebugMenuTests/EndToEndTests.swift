import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `config-menu` binary in tmux (private socket, pinned size, TERM and LANG, store in a temporary folder).
@Suite(
    "config-menu end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct EndToEndTests {
    /// Starts the menu on the demo catalog with a store in the session's temporary home.
    func startMenu(_ session: TmuxSession, extra: String = "") async throws -> URL {
        let store = session.home.appendingPathComponent("state/overrides.json")
        try session.run("\(TmuxSession.binary) --store \(store.path) \(extra)")
        try await session.waitFor("Modules")
        return store
    }

    func storeText(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    @Test("toggle a Bool and find it in the store file")
    func toggle() async throws {
        let session = try TmuxSession()
        let store = try await startMenu(session)
        try session.press("/")
        try session.type("like enabled")
        try session.press("Enter")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("Space")
        try await session.waitFor("Saved: function.album.like.enabled = Y")
        #expect(storeText(store).contains(#""function.album.like.enabled": {"serverValueWhenSet": "y", "setAt": "#))
        #expect(storeText(store).contains(#""value": "Y"}"#))
        try await session.waitFor("OVERRIDDEN")
        try session.press("q")
    }

    @Test("a stored value holding a tab, a zero-width space and control characters: shown as escapes, resettable")
    func hostileStoredValue() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try FileOverrideStore(url: store).set(
            "Hi\t\u{200B}\u{01}\u{7F}\u{1B}]0;pwned\u{07}", forKey: "function.chat.bubble_style")
        try session.run("\(TmuxSession.binary) --store \(store.path)")
        try await session.waitFor("Modules")
        try session.press("/")
        try session.type("bubble style")
        try session.press("Enter")
        try await session.waitFor(#"Hi\t\u{200B}\u{0001}\u{007F}\u{001B}]0;pwned\u{0007}"#)
        try session.press("r")
        try await session.waitFor("Saved: function.chat.bubble_style override removed")
        #expect(!storeText(store).contains("bubble_style"))
        try session.press("q")
    }

    @Test("pick an enum value")
    func pick() async throws {
        let session = try TmuxSession()
        let store = try await startMenu(session)
        try session.press("/")
        try session.type("sort order")
        try session.press("Enter")
        try session.press("Enter")
        try await session.waitFor("Choose Sort Order")
        try await session.waitFor("● newest_first  (current)")
        try session.press("j", "Enter")
        try await session.waitFor("Saved: function.album.sort_order = oldest_first")
        #expect(storeText(store).contains(#""value": "oldest_first""#))
        try session.press("q")
    }

    @Test("type an invalid number, see why, then a valid one")
    func number() async throws {
        let session = try TmuxSession()
        let store = try await startMenu(session)
        try session.press("/")
        try session.type("max photos")
        try session.press("Enter", "Enter")
        try await session.waitFor("Edit function.album.max_photos")
        try session.press("C-u")
        try session.type("12x")
        try await session.waitFor("✗ expected an integer, got \"12x\"")
        try session.press("Enter")
        try await session.waitFor("error: not saved")
        #expect(!storeText(store).contains("max_photos"))
        try session.press("BSpace")
        try await session.waitFor("✓ valid: 12")
        try session.press("Enter")
        try await session.waitFor("Saved: function.album.max_photos = 12")
        #expect(storeText(store).contains(#""function.album.max_photos": {"serverValueWhenSet": "2000", "setAt": "#))
        try session.press("q")
    }

    @Test("filter by module, then reset that module's overrides")
    func moduleReset() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        try FileOverrideStore(url: store).modify { entries in
            entries["function.album.like.enabled"] = OverrideEntry(value: "Y")
            entries["function.album.max_photos"] = OverrideEntry(value: "5")
            entries["function.chat.reactions.enabled"] = OverrideEntry(value: "N")
        }
        _ = try await startMenu(session)
        try await session.waitFor("3 overridden")
        try session.press("Tab", "j", "j")
        try await session.waitFor("Filters: module Album")
        try session.press("S")
        try await session.waitFor("Reset 2 overrides in Album?")
        try session.press("y")
        try await session.waitFor("Saved: 2 overrides in Album removed")
        let remaining = FileOverrideStore(url: store)
        remaining.reload()
        #expect(Set(remaining.entries.keys) == ["function.chat.reactions.enabled"])
        try session.press("u")
        try await session.waitFor("Undone: reset 2 overrides")
        remaining.reload()
        #expect(remaining.entries.count == 3)
        try session.press("q")
    }

    @Test("an override written by another process appears on screen without a key press")
    func externalChange() async throws {
        let session = try TmuxSession()
        let store = try await startMenu(session)
        try await session.waitFor("HDR Enabled")
        try FileOverrideStore(url: store).set("N", forKey: "function.media.hdr.enabled", note: "from another process")
        try await session.waitFor("1 overridden", timeout: 10)  // no key is pressed meanwhile
        let line = try session.screen().split(separator: "\n").first { $0.contains("HDR Enabled") } ?? ""
        #expect(line.contains("[ ] N"))
        #expect(line.contains("OVERRIDDEN"))
        try session.press("q")
    }

    @Test("Ctrl-C quits and leaves a usable shell")
    func controlC() async throws {
        let session = try TmuxSession()
        _ = try await startMenu(session)
        try session.press("C-c")
        try await session.waitForMenuExit()
        try session.run("echo ok-$((40+2)); stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '")
        try await session.waitFor("ok-42")
        try await session.waitFor("icanon echo")
        #expect(try session.screen().contains("echo ok-$((40+2))"), "typed commands are echoed again")
    }

    @Test("SIGTERM restores the terminal too")
    func sigterm() async throws {
        let session = try TmuxSession()
        _ = try await startMenu(session)
        let menu = try #require(try session.menuProcess())
        kill(menu, SIGTERM)
        try await session.waitForMenuExit(timeout: 2)
        try session.run("echo back-$((1+1))")
        try await session.waitFor("back-2")
        try session.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '")
        try await session.waitFor("icanon echo")
    }

    @Test("a crash (a fatal signal) still gives the shell its terminal back", arguments: [SIGSEGV, SIGABRT])
    func crash(signal: Int32) async throws {
        let session = try TmuxSession()
        _ = try await startMenu(session)
        let menu = try #require(try session.menuProcess())
        kill(menu, signal)
        try await session.waitForMenuExit()
        try session.run("echo crashed-$?")
        try await session.waitFor("crashed-\(128 + signal)")
        try session.run("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '")
        try await session.waitFor("icanon echo")
    }

    @Test("resizing to a tiny terminal says so with the sizes, and growing back redraws")
    func resize() async throws {
        let session = try TmuxSession()
        _ = try await startMenu(session)
        try session.tmux(["resize-window", "-x", "50", "-y", "12"])
        try await session.waitFor("Terminal too small: 50×12")
        try session.tmux(["resize-window", "-x", "90", "-y", "26"])
        try await session.waitFor("Keys · 55")
        try session.press("q")
    }

    @Test("from 150×45 down to 150×2, 150×1 and 3×3 (keys pressed there) and back: no crash, the message, the menu")
    func resizeToFewRows() async throws {
        let session = try TmuxSession(width: 150, height: 45)
        _ = try await startMenu(session)
        try session.tmux(["resize-window", "-x", "150", "-y", "2"])
        try await session.waitFor("Terminal too small: 150×2.")
        try session.press("j", "G", "PageDown")
        try session.tmux(["resize-window", "-x", "150", "-y", "1"])
        try await session.waitFor("Terminal too small: 150×1.")
        try session.tmux(["resize-window", "-x", "3", "-y", "3"])
        try await session.waitFor("Too")
        try session.tmux(["resize-window", "-x", "150", "-y", "45"])
        try await session.waitFor("Keys · 55")
        #expect(try session.menuProcess() != nil, "the menu still runs")
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test("TERM=dumb and an unknown TERM exit with a clear message and a non-zero status")
    func badTerminals() async throws {
        let dumb = try TmuxSession(term: "dumb")
        try dumb.run("\(TmuxSession.binary) --store \(dumb.home.path)/s.json; echo status=$?")
        try await dumb.waitFor("TERM=dumb cannot show config-menu's full-screen debug menu")
        try await dumb.waitFor("status=1")
        let unknown = try TmuxSession(term: "no-such-terminal")
        try unknown.run("\(TmuxSession.binary) --store \(unknown.home.path)/s.json; echo status=$?")
        try await unknown.waitFor("TERM=no-such-terminal is unknown")
        try await unknown.waitFor("status=1")
    }

    @Test("stdin or stdout not a terminal: a clear message and status 1, no escape codes")
    func notATerminal() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("nt-\(UUID()).json")
        let result = try configMenu(["--store", store.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty, "nothing, and no escape codes, on standard output")
        #expect(result.error.contains("needs an interactive terminal"))
    }
}
