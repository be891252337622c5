/// An in-memory screen: rows of cells that know character widths. The menu renders into a grid (a pure function
/// of its state and size); the terminal backend draws the grid; tests read it as text.
public struct ScreenGrid: Equatable, Sendable {
    /// One screen cell: a grapheme and its style. The right half of a wide character is a continuation cell.
    public struct Cell: Equatable, Sendable {
        /// The character shown; empty for the continuation half of a wide character.
        public var character: Character?
        /// How it is drawn.
        public var style: CellStyle

        /// A blank cell.
        public static let blank = Cell(character: " ", style: .plain)
    }

    /// Width in columns.
    public let width: Int
    /// Height in rows.
    public let height: Int
    /// Cells, row by row.
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown, if anywhere (a text editor's caret).
    public var cursor: (x: Int, y: Int)?

    /// A blank grid.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// Equal when the sizes, every cell and the cursor are equal.
    public static func == (lhs: ScreenGrid, rhs: ScreenGrid) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursor?.x == rhs.cursor?.x && lhs.cursor?.y == rhs.cursor?.y
    }

    /// The cell at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from column `x` of row `y`, clipped to `maxX` (exclusive, default the grid's width); returns
    /// the column after the last one written. A wide character that would straddle the limit is replaced by a
    /// space.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxX: Int? = nil) -> Int {
        let limit = min(maxX ?? width, width)
        guard y >= 0, y < height else { return x }
        var column = x
        for character in text {
            let columns = TextWidth.of(character)
            if columns == 0 {
                if column > x, column - 1 < limit, let previous = self[column - 1, y].character {
                    self[column - 1, y].character = Character(String(previous) + String(character))
                }
                continue
            }
            guard column + columns <= limit else {
                if column < limit { self[column, y] = Cell(character: " ", style: style) }
                return limit
            }
            if column >= 0 {
                self[column, y] = Cell(character: character, style: style)
                if columns == 2 { self[column + 1, y] = Cell(character: nil, style: style) }
            }
            column += columns
        }
        return column
    }

    /// Fills a rectangle with spaces in `style`.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: CellStyle = .plain) {
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) {
                self[column, row] = Cell(character: " ", style: style)
            }
        }
    }

    /// Applies `change` to the style of cells in row `y` from `x` for `count` columns.
    public mutating func restyle(x: Int, y: Int, count: Int, _ change: (inout CellStyle) -> Void) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(width, x + count) {
            change(&self[column, y].style)
        }
    }

    /// Draws a box border with an optional title in its top edge.
    public mutating func box(x: Int, y: Int, width: Int, height: Int, title: String? = nil, style: CellStyle = .plain) {
        guard width >= 2, height >= 2 else { return }
        let right = x + width - 1
        let bottom = y + height - 1
        write("┌" + String(repeating: "─", count: width - 2) + "┐", x: x, y: y, style: style)
        write("└" + String(repeating: "─", count: width - 2) + "┘", x: x, y: bottom, style: style)
        for row in (y + 1)..<bottom {
            write("│", x: x, y: row, style: style)
            write("│", x: right, y: row, style: style)
        }
        if let title, width > 4 {
            write(" " + TextWidth.truncate(title, to: width - 4) + " ", x: x + 1, y: y, style: style, maxX: right)
        }
    }

    /// The screen as plain text, one line per row, trailing spaces removed.
    public var text: String {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                if let character = self[column, row].character { line.append(character) }
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Row `y` as plain text, trailing spaces removed.
    public func line(_ y: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(y).first.map(String.init) ?? ""
    }
}
