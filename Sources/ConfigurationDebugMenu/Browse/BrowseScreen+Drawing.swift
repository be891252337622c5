extension BrowseScreen {
    /// Draws the browse screen of `state`: the title bar (and the server line), the module pane, the key list, the
    /// details and the footer. A `component` placed in the details box or the footer is drawn there instead; one
    /// placed over the screen (a dialog) is drawn over it. The pane that has the keyboard is drawn so: the focused
    /// pane while browsing, the list while a filter is typed into it, none under an editor or a dialog.
    static func draw(
        _ state: MenuState, around component: (any MenuComponent)?, into grid: inout ScreenGrid, theme: MenuTheme
    ) {
        let layout = state.layout
        let placement = component?.placement ?? .screen
        let listActive = placement == .footer || (placement == .screen && state.focus == .keys)
        MenuFrame.drawTop(state, into: &grid, theme: theme)
        if layout.showsModules {
            state.modules.draw(
                into: &grid, in: layout.modules, data: state.data, selected: ModulePane.index(of: state.filters.scope),
                focused: placement == .screen && state.focus == .modules, theme: theme)
        }
        let pending = state.pendingMarks
        state.list.draw(
            into: &grid, in: layout.keys, data: state.data, filters: state.filters, active: listActive,
            changedElsewhere: state.changedElsewhere, pending: pending, marks: state.marks, theme: theme)
        if let component, placement == .details {
            component.draw(into: &grid, in: layout.details, menu: state, theme: theme)
        } else {
            DetailsPane.draw(
                into: &grid, in: layout.details, data: state.data, key: state.selectedKey, orphan: state.selectedOrphan,
                unregistered: state.list.selectedUnregistered, pending: pending, now: state.wallClock, theme: theme)
        }
        if let component, placement == .footer {
            component.draw(into: &grid, in: layout.footer, menu: state, theme: theme)
        } else {
            MenuFrame.drawFooter(state, into: &grid, theme: theme)
        }
        if let component, placement == .dialog {
            component.draw(into: &grid, in: layout.screen, menu: state, theme: theme)
        }
    }
}
