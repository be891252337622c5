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

    /// Creates the layout for a screen.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether the screen is too small to draw the menu.
    package var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The whole screen.
    package var screen: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    /// The title bar: the first row.
    package var titleBar: Rect { screen.row(0) }
    /// The footer: hints, the filter prompt or a status message, on the last row.
    package var footer: Rect { screen.row(height - 1) }
    /// Everything between the title bar and the footer.
    package var body: Rect { screen.inset(top: 1, bottom: 1) }

    /// The details box's height (borders included).
    package var detailsHeight: Int { height >= 34 ? 10 : height >= 24 ? 8 : 6 }
    /// The details box (also where the one-line editor opens).
    package var details: Rect { body.splitBottom(detailsHeight).bottom }
    /// The module pane's box.
    package var modules: Rect { body.splitBottom(detailsHeight).rest.splitLeft(width >= 100 ? 28 : 24).left }
    /// The key list's box.
    package var keys: Rect { body.splitBottom(detailsHeight).rest.splitLeft(modules.width).rest }
    /// The number of rows inside the key list's box.
    package var keyRows: Int { max(1, keys.height - 2) }
    /// The module rows inside the module pane's box (below its column header).
    package var moduleRows: Rect { modules.inset(by: 1).inset(top: 1) }
    /// The full-screen box of the JSON editor.
    package var jsonEditor: Rect { body }
    /// The number of text rows the JSON editor shows.
    package var jsonEditorRows: Int { max(3, height - 8) }
}
