/// Where each part of the menu goes on a screen of a given size. The reducer uses it for paging and mouse clicks,
/// the renderer for drawing, so the two always agree.
public struct MenuLayout: Equatable, Sendable {
    /// A rectangle in screen cells.
    public struct Rect: Equatable, Sendable {
        /// The left column.
        public var x: Int
        /// The top row.
        public var y: Int
        /// The width in columns.
        public var width: Int
        /// The height in rows.
        public var height: Int

        /// Whether the cell at (`px`, `py`) is inside.
        public func contains(_ px: Int, _ py: Int) -> Bool {
            px >= x && px < x + width && py >= y && py < y + height
        }
    }

    /// The smallest screen the menu draws on.
    public static let minimumWidth = 60
    /// The smallest screen the menu draws on.
    public static let minimumHeight = 16

    /// The screen's width.
    public let width: Int
    /// The screen's height.
    public let height: Int

    /// Creates the layout for a screen.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether the screen is too small to draw the menu.
    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The details box's height (borders included).
    public var detailsHeight: Int { height >= 34 ? 10 : height >= 24 ? 8 : 6 }
    /// The module pane's box.
    public var modules: Rect {
        Rect(x: 0, y: 1, width: width >= 100 ? 28 : 24, height: height - 2 - detailsHeight)
    }
    /// The key list's box.
    public var keys: Rect {
        Rect(x: modules.width, y: 1, width: width - modules.width, height: modules.height)
    }
    /// The details box.
    public var details: Rect { Rect(x: 0, y: height - 1 - detailsHeight, width: width, height: detailsHeight) }
    /// The number of rows inside the key list's box.
    public var keyRows: Int { max(1, keys.height - 2) }
    /// The number of module rows inside the module pane's box (below its column header).
    public var moduleRows: Int { max(1, modules.height - 3) }
    /// The screen row of the first module row.
    public var firstModuleRow: Int { modules.y + 2 }
    /// The bottom line: hints, the filter prompt or a status message.
    public var footerRow: Int { height - 1 }
}
