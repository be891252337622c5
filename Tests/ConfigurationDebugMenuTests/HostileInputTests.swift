import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import SharedTestSupport
import Testing

@testable import ConfigurationDebugMenu

/// Values, server values, filters and edits holding control, invisible and formatting characters: the menu shows
/// them as escapes and never crashes.
@Suite("Hostile text on screen: escapes, never a crash")
struct HostileInputTests {
    static let hostile = [
        "tab\there", "zero\u{200B}width", "soft\u{00AD}hyphen", "ctrl\u{01}a", "del\u{7F}", "\u{1B}]0;title\u{07}",
        "csi\u{9B}2J", "rtl\u{202E}txet", "e\u{301}\u{200B}", "\u{301}leading mark", "❤️\u{200B}",
    ]

    @Test("hostile overrides and server values render as escapes in the list, the details and the editor")
    func valuesRender() throws {
        let entries = MenuFixture.entries.merging(
            [
                "function.chat.greeting": OverrideEntry(
                    value: "hi\tthere\u{200B}\u{01}", setAt: MenuFixture.setAt, note: "n\u{1B}[31m")
            ]
        ) { $1 }
        var state = try MenuFixture.state(entries: entries)
        MenuFixture.select("function.chat.greeting", in: &state)
        let renderer = MenuRenderer(colors: true)
        let grid = renderer.render(state)
        let text = grid.text
        #expect(text.contains(#"hi\tthere\u{200B}\u{0001}"#), "the list and the details show the escapes")
        #expect(text.contains(#"note: n\u{001B}[31m"#))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        // The escapes are underlined, so they read differently from a typed backslash.
        let row = try #require((0..<grid.height).first { grid.line($0).contains("Greeting") })
        let line = grid.line(row)
        let column = TextWidth.of(line[..<line.range(of: #"\t"#)!.lowerBound])
        #expect(grid[column, row].style.underline)
        for y in 0..<grid.height { #expect(grid.drawnWidth(ofRow: y) == grid.width, "row \(y)") }
        reduce(&state, .activate)
        let editor = renderer.render(state)
        #expect(editor.text.contains(#"> hi\tthere\u{200B}\u{0001}"#))
        #expect(editor.cursor != nil)
    }

    @Test(
        "every hostile string typed or pasted into the filter and the editors renders without a crash",
        arguments: hostile)
    func typedAndPasted(text: String) throws {
        var state = try MenuFixture.state()
        let renderer = MenuRenderer(colors: false)
        reduce(&state, .startFilter, .filterInsert(text))
        var grid = renderer.render(state)
        #expect(grid.line(grid.height - 1).unicodeScalars.first == "/")
        reduce(&state, .filterCancel)
        MenuFixture.select("function.chat.greeting", in: &state)
        reduce(&state, .activate, .editInsert(text))
        grid = renderer.render(state)
        for y in 0..<grid.height { #expect(grid.drawnWidth(ofRow: y) == grid.width) }
        reduce(&state, .editCancel)
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(&state, .activate, .editInsert(text), .editNewline, .editInsert(text))
        grid = renderer.render(state)
        for y in 0..<grid.height { #expect(grid.drawnWidth(ofRow: y) == grid.width) }
    }

    @Test(
        "the screen grid over random scalars, sizes from 1×1: never a crash, every row exactly the terminal width (seeded)"
    )
    func gridFuzz() {
        var generator = SeededGenerator(seed: 0x6121_D5EE)
        let pools: [ClosedRange<UInt32>] = [
            0...0x7F, 0x80...0x9F, 0x300...0x36F, 0x200B...0x200F, 0x2028...0x202E, 0xFE00...0xFE0F,
            0x1F1E6...0x1F1FF, 0x1F300...0x1F64F, 0x1F3FB...0x1F3FF, 0x3040...0x30FF, 0x4E00...0x4E80,
            0xE0020...0xE007F, 0...0x10FFFF,
        ]
        for _ in 0..<fuzzIterations(default: 400) {
            let width = Int.random(in: 1...40, using: &generator)
            let height = Int.random(in: 1...6, using: &generator)
            var grid = ScreenGrid(width: width, height: height)
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                var scalars = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 0...16, using: &generator) {
                    let pool = pools[Int.random(in: 0..<pools.count, using: &generator)]
                    let value = UInt32.random(in: pool, using: &generator)
                    if value == 0x200D || Int.random(in: 0..<8, using: &generator) == 0 {
                        scalars.append("\u{200D}")
                    } else if let scalar = Unicode.Scalar(value) {
                        scalars.append(scalar)
                    }
                }
                let text = String(scalars)
                let x = Int.random(in: -2...width, using: &generator)
                // Rows outside the grid too: a caller's layout on a tiny screen can point there.
                let y = Int.random(in: -1...height, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: grid.write(text, x: x, y: y, maxX: Int.random(in: 0...width + 2, using: &generator))
                case 1:
                    grid.write(
                        text,
                        in: Rect(x: max(0, x), y: y, width: Int.random(in: 0...width, using: &generator), height: 1))
                default:
                    let box = Rect(
                        x: Int.random(in: 0...width, using: &generator), y: max(0, y),
                        width: Int.random(in: 0...width + 1, using: &generator),
                        height: Int.random(in: 0...height + 1, using: &generator))
                    grid.fill(box)
                    grid.box(box, title: text)
                }
            }
            for y in 0..<grid.height {
                #expect(
                    grid.drawnWidth(ofRow: y) == width,
                    "row \(y) of \(grid.line(y).unicodeScalars.map { String($0.value, radix: 16) })")
                for x in 0..<width {
                    if let character = grid[x, y].character {
                        #expect(
                            !character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
                    } else {
                        #expect(
                            x > 0 && grid[x - 1, y].character.map(TextWidth.of) == 2,
                            "a continuation follows a wide character")
                    }
                }
            }
        }
    }
}

/// A terminal that delivers scripted events, then asks the loop to stop; counts frames.
final class ScriptedTerminal: TerminalDevice {
    var events: [KeyEvent]
    private(set) var frames = 0
    private(set) var last: ScreenGrid?
    init(_ events: [KeyEvent]) { self.events = events }
    var size: (width: Int, height: Int) { (100, 30) }
    var supportsColor: Bool { false }
    var stopRequested: Bool { events.isEmpty && frames > 1 }
    func draw(_ grid: ScreenGrid) {
        frames += 1
        last = grid
    }
    func nextEvent(timeout: Int) -> KeyEvent? { events.isEmpty ? nil : events.removeFirst() }
    func suspend<Result>(_ body: () throws -> Result) rethrows -> Result { try body() }
    func copyToClipboard(_ text: String) {}
    func suspendJob() {}
    func close() {}
}

@Suite("Pasting into the menu")
struct PasteTests {
    @Test("5,000 pasted characters are one filter update and one frame, not 5,000")
    func pasteIntoFilter() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("paste-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try MenuFixture.service(in: folder)
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        let paste = String(repeating: "typing ", count: 715).prefix(5_000)
        let terminal = ScriptedTerminal([.character("/")] + paste.map { KeyEvent.character($0) })
        MenuLoop(source: source, terminal: terminal, label: "fixture").run()
        #expect(terminal.frames == 2, "the first frame, and one after the whole paste")
        #expect(terminal.last?.line(29).hasPrefix("/typing typing") == true)
    }

    @Test("runs of characters join into one insert; keys with other meanings keep their place")
    func joining() throws {
        var state = try MenuFixture.state()
        let loop = MenuLoop(
            source: MenuDataSource(
                table: state.data.table, service: MockConfigurationService(catalog: MenuFixture.catalog)),
            terminal: ScriptedTerminal([]), label: "fixture")
        #expect(
            loop.handle([.character("/"), .character("q"), .character("u"), .backspace, .character("a")], on: &state))
        #expect(state.filters.query == "qa")
        #expect(MenuLoop.join(.filterInsert("a"), .filterInsert("b")) == .filterInsert("ab"))
        #expect(MenuLoop.join(.filterInsert("a"), .filterBackspace) == nil)
    }
}

@Suite("A menu opened from a program")
struct ProgramMenuTests {
    @Test("without a terminal, run() throws an error naming the program, instead of trapping")
    func noTerminal() throws {
        // The test runner's standard input is not a terminal here (it is when run by hand in one: then skip).
        guard isatty(0) == 0 || isatty(1) == 0 else { return }
        let menu = ConfigurationDebugMenu(catalog: MenuFixture.catalog, service: MockConfigurationService())
        let error = #expect(throws: TerminalUnavailable.self) { try menu.run() }
        let program = ProcessInfo.processInfo.processName
        #expect(error?.description.hasPrefix("\(program)'s debug menu needs an interactive terminal") == true)
        #expect(error?.description.contains("config-menu") == (program == "config-menu"))
    }
}
