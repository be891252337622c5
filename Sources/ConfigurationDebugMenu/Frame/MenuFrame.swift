/// The frame around every screen: the title bar and, when shown, the server line at the top, the footer at the
/// bottom, drawn from the menu's state.
enum MenuFrame {
    /// The title bar and, when shown, the server line.
    static func drawTop(_ state: MenuState, into grid: inout ScreenGrid, theme: MenuTheme) {
        let layout = state.layout
        TitleBar.draw(into: &grid, in: layout.titleBar, data: state.data, keymap: state.keymap, theme: theme)
        if layout.showsServerLine, let server = state.data.server {
            ServerLine.draw(into: &grid, in: layout.serverLine, display: server, clock: state.clock, theme: theme)
        }
    }

    /// The footer: the status message and the hints of the keys that apply now.
    static func drawFooter(_ state: MenuState, into grid: inout ScreenGrid, theme: MenuTheme) {
        Footer.draw(
            into: &grid, in: state.layout.footer, status: state.status, keymap: state.keymap, hints: HintContext(state),
            theme: theme)
    }
}
