import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

@Suite("Rendered screens, compared as text")
struct ScreenTests {
    let renderer = MenuRenderer(colors: true)

    @Test("browse: scopes, values, sources, markers, details")
    func browse() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        try expectScreen(renderer.render(state), "browse")
        let text = renderer.render(state).text
        #expect(text.contains("OVERRIDDEN"))
        #expect(text.contains("SERVER"))
        #expect(text.contains("DEFAULT"))
        #expect(text.contains("Orphaned overrides"))
    }

    @Test("details answer why: rejected server value, invalid override, stale override, note")
    func details() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.payments.daily_limit", in: &state)
        try expectScreen(renderer.render(state), "details-rejected")
        MenuFixture.select("function.media.hdr.enabled", in: &state)
        let text = renderer.render(state).text
        #expect(text.contains("note: QA scenario 12"))
        #expect(text.contains("set 2025-11-29 14:05 UTC"))
    }

    @Test("filter: matched characters highlighted, ranked results")
    func filter() throws {
        var state = try MenuFixture.state()
        reduce(&state, .startFilter, .filterInsert("t"), .filterInsert("y"), .filterInsert("p"))
        let grid = renderer.render(state)
        try expectScreen(grid, "filter")
        // "Typing Enabled" is the first row; its T, y, p are bold and underlined.
        let row = try #require((0..<grid.height).first { grid.line($0).contains("Typing Enabled") })
        let start = try #require(grid.line(row).range(of: "Typing")).lowerBound
        let column = grid.line(row).distance(from: grid.line(row).startIndex, to: start)
        for offset in 0..<3 {
            #expect(grid[column + offset, row].style.underline, "character \(offset) of Typing")
            #expect(grid[column + offset, row].style.bold)
        }
        #expect(!grid[column + 3, row].style.underline)
    }

    @Test("picker: choices with the current one marked")
    func picker() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .activate, .move(1))
        try expectScreen(renderer.render(state), "picker")
    }

    @Test("text editor with a validation error")
    func editorError() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.payments.daily_limit", in: &state)
        reduce(&state, .activate, .editDelete(.toLineStart))
        reduce(&state, .editInsert("12x"))
        let grid = renderer.render(state)
        try expectScreen(grid, "editor-error")
        #expect(grid.cursor != nil)
    }

    @Test("JSON editor")
    func jsonEditor() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(&state, .activate)
        try expectScreen(renderer.render(state), "json-editor")
    }

    @Test("help lists every binding of the current mode, from the keymap")
    func help() throws {
        var state = try MenuFixture.state()
        reduce(&state, .help)
        let grid = renderer.render(state)
        try expectScreen(grid, "help")
        // The whole list, on a screen tall enough to show it without scrolling.
        var tall = try MenuFixture.state(width: 100, height: 90)
        reduce(&tall, .help)
        let text = renderer.render(tall).text
        for binding in Keymap.keys.bindings {
            #expect(text.contains(binding.help), "help misses \(binding.help)")
        }
    }

    @Test("reset confirmation")
    func confirmation() throws {
        var state = try MenuFixture.state()
        reduce(&state, .resetAll)
        try expectScreen(renderer.render(state), "confirm-reset-all")
    }

    @Test("a terminal too small says so, with the sizes")
    func tooSmall() throws {
        let state = try MenuFixture.state(width: 50, height: 12)
        try expectScreen(renderer.render(state), "too-small")
        #expect(renderer.render(state).text.contains("Terminal too small: 50×12"))
    }

    @Test("wide characters (CJK, emoji) take two columns and keep the columns aligned")
    func wideCharacters() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.greeting", in: &state)
        let grid = renderer.render(state)
        try expectScreen(grid, "wide")
        // The SERVER/DEFAULT/OVERRIDDEN column starts at the same screen column on every key row.
        let sourceColumns = (2..<grid.height - 9).compactMap { row -> Int? in
            let line = grid.line(row)
            for word in ["OVERRIDDEN", "SERVER", "DEFAULT"] {
                if let range = line.range(of: word) {
                    return TextWidth.of(line[line.startIndex..<range.lowerBound])
                }
            }
            return nil
        }
        #expect(sourceColumns.count == 9)
        #expect(Set(sourceColumns).count == 1, "source columns: \(sourceColumns)")
    }

    @Test("NO_COLOR: the same words, no colours, sources still told apart by attributes")
    func noColor() throws {
        let state = try MenuFixture.state()
        let plain = MenuRenderer(colors: false).render(state)
        let colored = renderer.render(state)
        #expect(plain.text == colored.text)
        #expect(plain.cells.allSatisfy { $0.style.foreground == nil && $0.style.background == nil })
        #expect(colored.cells.contains { $0.style.foreground != nil })
        func style(of word: String) -> CellStyle? {
            for row in 2..<plain.height {
                let line = plain.line(row)
                guard let range = line.range(of: word), !line.contains("Value ") else { continue }
                let column = TextWidth.of(line[line.startIndex..<range.lowerBound])
                if !plain[column, row].style.reverse { return plain[column, row].style }
            }
            return nil
        }
        let overridden = try #require(style(of: "OVERRIDDEN"))
        let server = try #require(style(of: "SERVER"))
        let fallback = try #require(style(of: "DEFAULT"))
        #expect(overridden.bold && !overridden.dim)
        #expect(fallback.dim)
        #expect(Set([overridden, server, fallback]).count == 3)
    }
}
