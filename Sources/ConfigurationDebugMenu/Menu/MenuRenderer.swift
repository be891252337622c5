import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Draws a ``MenuState`` into a ``ScreenGrid``: a pure function of the state and the screen size. It gives the
/// component that has the keyboard the room its ``MenuComponent/placement`` asks for and draws the frame around it;
/// only the rows on screen are looked at, so 100,000 keys cost what 100 do.
package struct MenuRenderer: Sendable {
    /// Whether to use colours (off for `NO_COLOR`; bold, dim, reverse and underline stay).
    package var colors: Bool

    package init(colors: Bool = true) {
        self.colors = colors
    }

    /// The screen for `state`.
    package func render(_ state: MenuState) -> ScreenGrid {
        let theme = MenuTheme(colors: colors)
        var grid = ScreenGrid(width: state.width, height: state.height)
        let layout = state.layout
        guard !layout.isTooSmall else {
            TooSmallScreen.draw(into: &grid, in: layout.screen, theme: theme)
            return grid
        }
        draw(state, into: &grid, theme: theme)
        return grid
    }

    /// Draws the screen of `state`'s mode where its component's placement says: the browse screen (with the
    /// component in its details box, its footer, or over it), the body under the title bar, or over the screen of
    /// the mode it was opened from.
    private func draw(_ state: MenuState, into grid: inout ScreenGrid, theme: MenuTheme) {
        let component = state.mode.component
        let layout = state.layout
        switch component.placement {
        case .screen:
            component.draw(into: &grid, in: layout.screen, menu: state, theme: theme)
        case .details, .footer, .dialog:
            BrowseScreen.draw(state, around: component, into: &grid, theme: theme)
        case .body:
            MenuFrame.drawTop(state, into: &grid, theme: theme)
            component.draw(into: &grid, in: layout.body, menu: state, theme: theme)
            MenuFrame.drawFooter(state, into: &grid, theme: theme)
        case .overlay(let underneath):
            drawUnderneath(state, mode: underneath, into: &grid, theme: theme)
            component.draw(into: &grid, in: layout.screen, menu: state, theme: theme)
            grid.fill(layout.footer)
            MenuFrame.drawFooter(state, into: &grid, theme: theme)
        }
    }

    /// The screen of `mode` as it was before the overlay opened: no status, no caret.
    private func drawUnderneath(_ state: MenuState, mode: MenuState.Mode, into grid: inout ScreenGrid, theme: MenuTheme)
    {
        var underneath = state
        underneath.mode = mode
        underneath.status = nil
        draw(underneath, into: &grid, theme: theme)
        grid.cursor = nil
    }
}

extension CellStyle {
    func merging(bold: Bool) -> CellStyle {
        var copy = self
        copy.bold = copy.bold || bold
        return copy
    }
}
