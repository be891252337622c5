/// A rectangle of screen cells. Components draw into the rectangle they are given; the layout cuts the screen into
/// rectangles with these operations instead of adding offsets by hand.
package struct Rect: Equatable, Sendable {
    /// The left column.
    package var x: Int
    /// The top row.
    package var y: Int
    /// The width in columns (never negative).
    package var width: Int
    /// The height in rows (never negative).
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The column just right of the rectangle.
    package var maxX: Int { x + width }
    /// The row just below the rectangle.
    package var maxY: Int { y + height }
    /// Whether it holds no cell.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether the cell at (`column`, `row`) is inside.
    package func contains(_ column: Int, _ row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The rectangle shrunk by `amount` on every side (a box's inside: `inset(by: 1)`).
    package func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// The rectangle shrunk by the given amounts.
    package func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// The rows `range` (relative to the top), clipped to the rectangle.
    package func rows(_ range: Range<Int>) -> Rect {
        let top = min(max(0, range.lowerBound), height)
        let bottom = min(max(top, range.upperBound), height)
        return Rect(x: x, y: y + top, width: width, height: bottom - top)
    }

    /// Row `index` (relative to the top) as a one-row rectangle.
    package func row(_ index: Int) -> Rect { rows(index..<index + 1) }

    /// The columns `range` (relative to the left edge), clipped to the rectangle.
    package func columns(_ range: Range<Int>) -> Rect {
        let left = min(max(0, range.lowerBound), width)
        let right = min(max(left, range.upperBound), width)
        return Rect(x: x + left, y: y, width: right - left, height: height)
    }

    /// The top `rows` rows and the rest (all of it when `rows` is more than the height: a split never fails).
    package func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let cut = min(max(0, rows), height)
        return (self.rows(0..<cut), self.rows(cut..<height))
    }

    /// The bottom `rows` rows and the rest above them (all of it when `rows` is more than the height).
    package func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let cut = max(0, height - max(0, rows))
        return (self.rows(0..<cut), self.rows(cut..<height))
    }

    /// The left `columns` columns and the rest (all of it when `columns` is more than the width).
    package func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let cut = min(max(0, columns), width)
        return (self.columns(0..<cut), self.columns(cut..<width))
    }

    /// A rectangle of at most `width`×`height` centred in this one, never above `minimumY`.
    package func centered(width: Int, height: Int, minimumY: Int = 0) -> Rect {
        let width = min(width, self.width)
        let height = min(height, self.height)
        return Rect(
            x: x + (self.width - width) / 2, y: max(minimumY, y + (self.height - height) / 2), width: width,
            height: height)
    }
}
