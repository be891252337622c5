import Foundation
import ServiceConfiguration

/// Draws a ``MenuState`` into a ``ScreenGrid``: a pure function of the state and the screen size. It lays the
/// screen out and asks each component to draw into its rectangle; only the rows on screen are looked at, so
/// 100,000 keys cost what 100 do.
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
            TooSmallScreen.draw(into: &grid, on: layout.screen, theme: theme)
            return grid
        }
        let browsing = state.mode == .browsing
        var listActive = state.focus == .keys && browsing
        if case .filtering = state.mode { listActive = true }
        TitleBar.draw(into: &grid, in: layout.titleBar, data: state.data, theme: theme)
        state.modules.draw(
            into: &grid, in: layout.modules, data: state.data, selected: ModulePane.index(of: state.filters.scope),
            focused: state.focus == .modules && browsing, theme: theme)
        state.list.draw(
            into: &grid, in: layout.keys, data: state.data, filters: state.filters, active: listActive,
            changedElsewhere: state.changedElsewhere, theme: theme)
        if case .editing(let editor) = state.mode {
            editor.draw(into: &grid, in: layout.details, data: state.data, theme: theme)
        } else {
            DetailsPane.draw(
                into: &grid, in: layout.details, data: state.data, key: state.selectedKey, orphan: state.selectedOrphan,
                theme: theme)
        }
        if case .filtering = state.mode {
            FilterBar(previous: "").draw(into: &grid, in: layout.footer, query: state.filters.query, theme: theme)
        } else {
            Footer.draw(
                into: &grid, in: layout.footer, status: state.status, context: state.keymapContext, theme: theme)
        }
        switch state.mode {
        case .editingJSON(let editor):
            editor.draw(
                into: &grid, in: layout.jsonEditor, visibleRows: layout.jsonEditorRows, data: state.data, theme: theme)
        case .picking(let picker): picker.draw(into: &grid, on: layout.screen, data: state.data, theme: theme)
        case .confirming(let confirmation): confirmation.draw(into: &grid, on: layout.screen, theme: theme)
        case .help(let help): help.draw(into: &grid, on: layout.screen, theme: theme)
        default: break
        }
        return grid
    }
}

extension CellStyle {
    func merging(bold: Bool) -> CellStyle {
        var copy = self
        copy.bold = copy.bold || bold
        return copy
    }
}
