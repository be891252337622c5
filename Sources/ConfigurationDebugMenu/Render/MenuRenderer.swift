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
        draw(state, into: &grid, theme: theme)
        return grid
    }

    /// Draws the screen of `state`'s mode. Help, and a question about an edit, draw the mode they were opened
    /// from, then themselves over it.
    private func draw(_ state: MenuState, into grid: inout ScreenGrid, theme: MenuTheme) {
        switch state.mode {
        case .help(let help):
            drawUnderneath(state, mode: help.returnTo, into: &grid, theme: theme)
            help.draw(into: &grid, on: state.layout.screen, theme: theme)
            grid.fill(state.layout.footer)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        case .confirming(let confirmation) where confirmation.underlyingMode != .browsing:
            drawUnderneath(state, mode: confirmation.underlyingMode, into: &grid, theme: theme)
            confirmation.draw(into: &grid, on: state.layout.screen, theme: theme)
            grid.fill(state.layout.footer)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        case .prompting(let prompt):
            drawUnderneath(state, mode: prompt.returnTo, into: &grid, theme: theme)
            prompt.draw(into: &grid, on: state.layout.screen, theme: theme)
            grid.fill(state.layout.footer)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        case .history(let view):
            drawTop(state, into: &grid, theme: theme)
            view.draw(
                into: &grid, in: state.layout.body, history: state.data.history, origin: state.data.origin,
                theme: theme)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        case .scenarios(let view):
            drawTop(state, into: &grid, theme: theme)
            view.draw(into: &grid, in: state.layout.body, current: state.data.currentOverrides, theme: theme)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        case .paging(let pager):
            drawTop(state, into: &grid, theme: theme)
            pager.draw(into: &grid, state: state, theme: theme)
            Footer.draw(into: &grid, in: state.layout.footer, state: state, theme: theme)
            return
        default:
            break
        }
        let layout = state.layout
        var listActive = state.focus == .keys && state.mode == .browsing
        if case .filtering = state.mode { listActive = true }
        drawTop(state, into: &grid, theme: theme)
        if layout.showsModules {
            state.modules.draw(
                into: &grid, in: layout.modules, data: state.data, selected: ModulePane.index(of: state.filters.scope),
                focused: state.focus == .modules && state.mode == .browsing, theme: theme)
        }
        let pending = state.pendingMarks
        state.list.draw(
            into: &grid, in: layout.keys, data: state.data, filters: state.filters, active: listActive,
            changedElsewhere: state.changedElsewhere, pending: pending, theme: theme)
        if case .editing(let editor) = state.mode {
            editor.draw(into: &grid, in: layout.details, data: state.data, theme: theme)
        } else if case .editingNote(let editor) = state.mode {
            editor.draw(into: &grid, in: layout.details, theme: theme)
        } else {
            DetailsPane.draw(
                into: &grid, in: layout.details, data: state.data, key: state.selectedKey, orphan: state.selectedOrphan,
                unregistered: state.list.selectedUnregistered, pending: pending, theme: theme)
        }
        if case .filtering(let bar) = state.mode {
            bar.draw(into: &grid, in: layout.footer, state: state, theme: theme)
        } else {
            Footer.draw(into: &grid, in: layout.footer, state: state, theme: theme)
        }
        switch state.mode {
        case .editingJSON(let editor):
            editor.draw(
                into: &grid, in: layout.jsonEditor, visibleRows: layout.jsonEditorRows, data: state.data, theme: theme)
        case .picking(let picker): picker.draw(into: &grid, on: layout.screen, data: state.data, theme: theme)
        case .confirming(let confirmation): confirmation.draw(into: &grid, on: layout.screen, theme: theme)
        case .choosingExpiry(let menu): menu.draw(into: &grid, on: layout.screen, data: state.data, theme: theme)
        case .browsing, .filtering, .editing, .editingNote, .help, .history, .scenarios, .prompting, .paging: break
        }
    }

    /// The title bar and, when shown, the server line.
    private func drawTop(_ state: MenuState, into grid: inout ScreenGrid, theme: MenuTheme) {
        let layout = state.layout
        TitleBar.draw(into: &grid, in: layout.titleBar, data: state.data, context: state.keymapContext, theme: theme)
        if layout.showsServerLine, let server = state.data.server {
            ServerLine.draw(into: &grid, in: layout.serverLine, display: server, clock: state.clock, theme: theme)
        }
    }

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
