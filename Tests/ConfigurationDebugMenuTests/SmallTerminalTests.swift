import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Terminals of every size down to 1×1: never a crash; below the menu's minimum, the "too small" message.
@Suite("Tiny terminals: every size from 1×1 draws, the too-small ones say so")
struct SmallTerminalTests {
    let renderer = MenuRenderer(colors: true)

    /// The too-small screen: what is wrong (and, with room, what the menu needs and how to quit), every row the
    /// screen's width.
    func expectTooSmall(_ grid: ScreenGrid, sourceLocation: SourceLocation = #_sourceLocation) {
        let size = "\(grid.width)×\(grid.height)"
        let text = grid.text
        let words =
            grid.width >= 40
            ? ["Terminal too small: \(size).", "The menu needs at least 60×16.", "press q to quit"]
            : grid.width >= 16
                ? ["Too small: \(size)", "Needs 60×16.", "q quits."]
                : [String("Too small".prefix(grid.width - (grid.width >= 4 ? 1 : 0)))]
        for (line, word) in words.enumerated() where line < grid.height {
            #expect(text.contains(word), "\(size): no \"\(word)\" in\n\(text)", sourceLocation: sourceLocation)
        }
        for y in 0..<grid.height {
            #expect(grid.drawnWidth(ofRow: y) == grid.width, sourceLocation: sourceLocation)
        }
    }

    @Test("every height 1 to 17 at every width 1 to 130 (and some wider): the menu or the too-small message")
    func everySize() throws {
        let data = try MenuFixture.data()
        for height in 1...17 {
            for width in Array(1...130) + [150, 200, 300] {
                let state = MenuState(data: data, width: width, height: height)
                let grid = renderer.render(state)
                #expect(grid.width == width && grid.height == height)
                if state.layout.isTooSmall {
                    expectTooSmall(grid)
                } else {
                    #expect(grid.text.contains("Chat"), "\(width)×\(height): the menu is drawn")
                }
            }
        }
    }

    @Test("resizing from 150×45 to 150×2, 3×1, 1×1 and back, in every mode: no crash, the message, then the menu")
    func resizeInEveryMode() throws {
        let starts: [(String, [MenuIntent])] = [
            ("browsing", []), ("help", [.help]), ("filter", [.startFilter, .filterInsert("chat")]),
            ("editor", [.activate]), ("history", [.openHistory]), ("modules", [.focusModules]),
            ("scenarios", [.openScenarios]),
            ("bottom", [.bottom]),
        ]
        for (name, actions) in starts {
            var state = try MenuFixture.state(width: 150, height: 45)
            MenuFixture.select("function.chat.greeting", in: &state)
            for action in actions { reduce(&state, action) }
            _ = renderer.render(state)
            for (width, height) in [(150, 2), (150, 1), (150, 6), (3, 1), (1, 1), (1, 45), (60, 16), (150, 45)] {
                reduce(&state, .resize(width: width, height: height))
                let grid = renderer.render(state)
                if state.layout.isTooSmall {
                    expectTooSmall(grid)
                } else {
                    #expect(!grid.text.contains("Terminal too small"), "\(name) at \(width)×\(height)")
                }
                // Keys pressed while the terminal is tiny do not crash either.
                for action: MenuIntent in [.move(1), .page(1), .move(-1), .bottom, .top, .wheel(1, x: 0, y: 0)] {
                    reduce(&state, action)
                    _ = renderer.render(state)
                }
            }
        }
    }
}
