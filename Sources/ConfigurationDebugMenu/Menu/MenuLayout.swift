/// Where each part of the menu goes on a screen of a given size. The reducer uses it for paging and mouse clicks,
/// the renderer for drawing, so the two always agree.
package struct MenuLayout: Equatable, Sendable {
    /// The smallest screen the menu draws on.
    package static let minimumWidth = 60
    /// The smallest screen the menu draws on.
    package static let minimumHeight = 16

    /// The screen's width.
    package let width: Int
    /// The screen's height.
    package let height: Int
    /// Whether the module pane is shown (it is hidden on narrow screens until asked for).
    package let showsModules: Bool
    /// Whether the server line is shown under the title bar.
    package let showsServerLine: Bool

    /// Creates the layout for a screen.
    package init(width: Int, height: Int, showsModules: Bool = true, showsServerLine: Bool = false) {
        self.width = width
        self.height = height
        self.showsModules = showsModules
        self.showsServerLine = showsServerLine
    }

    /// The narrowest screen that shows the module pane without being asked.
    package static let modulePaneWidth = 100

    /// Whether the screen is too small to draw the menu.
    package var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The whole screen.
    package var screen: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    /// The title bar: the first row.
    package var titleBar: Rect { screen.row(0) }
    /// The footer: hints, the filter prompt or a status message, on the last row.
    package var footer: Rect { screen.row(height - 1) }
    /// The server line, under the title bar (empty when it is not shown).
    package var serverLine: Rect { showsServerLine ? screen.row(1) : screen.row(1).inset(bottom: 1) }
    /// Everything between the title bar (and the server line) and the footer.
    package var body: Rect { screen.inset(top: showsServerLine ? 2 : 1, bottom: 1) }

    /// The details box's height (borders included).
    package var detailsHeight: Int { height >= 34 ? 10 : height >= 24 ? 8 : 6 }
    /// The details box (also where the one-line editor opens).
    package var details: Rect { body.splitBottom(detailsHeight).bottom }
    /// The module pane's box.
    package var modules: Rect {
        body.splitBottom(detailsHeight).rest.splitLeft(showsModules ? (width >= Self.modulePaneWidth ? 28 : 24) : 0)
            .left
    }
    /// The key list's box.
    package var keys: Rect { body.splitBottom(detailsHeight).rest.splitLeft(modules.width).rest }
    /// The key list's rows: inside its box, below the line of active filters when there is one.
    package func listRows(filtered: Bool) -> Rect { keys.inset(by: 1).inset(top: filtered ? 1 : 0) }
    /// The module rows inside the module pane's box (below its column header).
    package var moduleRows: Rect { modules.inset(by: 1).inset(top: 1) }
    /// The full-screen box of the JSON editor.
    package var jsonEditor: Rect { body }
    /// The number of text rows the JSON editor shows.
    package var jsonEditorRows: Int { max(3, height - 8) }
}
