package import ServiceConfiguration

/// An in-memory screen: rows of cells that know character widths. The menu renders into a grid (a pure function
/// of its state and size); the terminal backend draws the grid; tests read it as text.
///
/// Whatever text it is given, every row stays exactly `width` columns wide: a wide character that would straddle
/// the edge becomes a space, and control or invisible characters are drawn as visible escapes (see
/// `VisibleText`), never passed to the terminal.
package struct ScreenGrid: Equatable, Sendable {
    /// One screen cell: a grapheme and its style. The right half of a wide character is a continuation cell.
    package struct Cell: Equatable, Sendable {
        /// The character shown; `nil` for the continuation half of a wide character.
        package var character: Character?
        /// How it is drawn.
        package var style: CellStyle

        /// A blank cell.
        package static let blank = Cell(character: " ", style: .plain)
    }

    /// Width in columns.
    package let width: Int
    /// Height in rows.
    package let height: Int
    /// Cells, row by row.
    package private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown, if anywhere (a text editor's caret).
    package var cursor: (x: Int, y: Int)?

    /// A blank grid.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The whole grid as a rectangle.
    package var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    package static func == (lhs: ScreenGrid, rhs: ScreenGrid) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursor?.x == rhs.cursor?.x && lhs.cursor?.y == rhs.cursor?.y
    }

    /// The cell at column `x`, row `y`.
    package subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from column `x` of row `y`, clipped to `maxX` (exclusive, default the grid's width); returns
    /// the column after the last one written. Escapes for control and invisible characters take `escapeStyle`
    /// (default: `style`, underlined).
    @discardableResult
    package mutating func write(
        _ text: String, x: Int, y: Int, style: CellStyle = .plain, escapeStyle: CellStyle? = nil, maxX: Int? = nil
    ) -> Int {
        let limit = min(maxX ?? width, width)
        guard y >= 0, y < height, x < limit else { return x }
        guard VisibleText.needsEscaping(text) else { return put(text, x: x, y: y, style: style, limit: limit) }
        var escape = style
        escape.underline = true
        var column = x
        for piece in VisibleText.pieces(of: text) {
            column = put(
                piece.text, x: column, y: y, style: piece.isEscape ? escapeStyle ?? escape : style, limit: limit)
            if column >= limit { break }
        }
        return column
    }

    /// Writes text that holds nothing to escape.
    private mutating func put(_ text: String, x: Int, y: Int, style: CellStyle, limit: Int) -> Int {
        var column = x
        for original in text {
            let character = TextWidth.forTerminal(original)
            let columns = TextWidth.of(character)
            if columns == 0 {
                attach(character, before: column, y: y, from: x, limit: limit)
                continue
            }
            guard column + columns <= limit else {
                if column >= 0, column < limit { place(" ", columns: 1, at: column, y: y, style: style) }
                return limit
            }
            if column >= 0 { place(character, columns: columns, at: column, y: y, style: style) }
            column += columns
        }
        return column
    }

    /// Puts one character (one or two columns wide) at `column`, blanking any wide character it cuts in half.
    private mutating func place(_ character: Character, columns: Int, at column: Int, y: Int, style: CellStyle) {
        if self[column, y].character == nil, column > 0 { self[column - 1, y].character = " " }
        let end = column + columns
        if end < width, self[end, y].character == nil { self[end, y].character = " " }
        self[column, y] = Cell(character: character, style: style)
        if columns == 2 { self[column + 1, y] = Cell(character: nil, style: style) }
    }

    /// Adds a zero-width character (a combining mark) to the character before `column`, when the two form one
    /// grapheme; otherwise drops it.
    private mutating func attach(_ character: Character, before column: Int, y: Int, from start: Int, limit: Int) {
        guard column > start, column - 1 < limit, column - 1 >= 0 else { return }
        var target = column - 1
        if self[target, y].character == nil, target > 0 { target -= 1 }
        guard let previous = self[target, y].character else { return }
        let combined = String(previous) + String(character)
        guard combined.count == 1, let merged = combined.first, TextWidth.of(merged) == TextWidth.of(previous)
        else { return }
        self[target, y].character = merged
    }

    /// Writes `text` into `rect`'s first row, escapes included, cut with "…" to fit its width; returns the column
    /// after the last one written.
    @discardableResult
    package mutating func write(_ text: String, in rect: Rect, style: CellStyle = .plain, escapeStyle: CellStyle? = nil)
        -> Int
    {
        guard !rect.isEmpty, rect.y >= 0, rect.y < height else { return rect.x }
        var column = rect.x
        var escape = style
        escape.underline = true
        for piece in Self.fit(text, to: rect.width) {
            column = put(
                piece.text, x: column, y: rect.y, style: piece.isEscape ? escapeStyle ?? escape : style,
                limit: min(rect.maxX, width))
        }
        return column
    }

    /// `text` as shown (escapes included), cut with "…" to at most `columns` columns.
    package static func fit(_ text: String, to columns: Int) -> [VisibleText.Piece] {
        guard columns > 0 else { return [] }
        // Every character after the first takes at least one column once escaped, so this prefix is enough.
        let prefix = text.prefix(columns + 2)
        let pieces = VisibleText.pieces(of: String(prefix))
        let widths = pieces.map { TextWidth.of($0.text) }
        if prefix.endIndex == text.endIndex, widths.reduce(0, +) <= columns { return pieces }
        var result: [VisibleText.Piece] = []
        var used = 0
        for (piece, width) in zip(pieces, widths) {
            if used + width <= columns - 1 {
                result.append(piece)
                used += width
                continue
            }
            guard !piece.isEscape else { break }
            var cut = ""
            for character in piece.text {
                let width = TextWidth.of(character)
                if used + width > columns - 1 { break }
                cut.append(character)
                used += width
            }
            if !cut.isEmpty { result.append(.init(text: cut, isEscape: false)) }
            break
        }
        result.append(.init(text: "…", isEscape: false))
        return result
    }

    /// The number of columns `text` takes on screen, escapes included.
    package static func displayWidth(of text: String) -> Int {
        VisibleText.pieces(of: text).reduce(0) { $0 + TextWidth.of($1.text) }
    }

    /// Fills a rectangle with spaces in `style`. A wide character the rectangle's edge cuts in half is blanked, so
    /// every row keeps exactly the grid's width.
    package mutating func fill(_ rect: Rect, style: CellStyle = .plain) {
        let start = max(0, rect.x)
        let end = max(start, min(width, rect.maxX))
        guard start < end else { return }
        for row in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.maxY)) {
            if start > 0, self[start, row].character == nil { self[start - 1, row].character = " " }
            if end < width, self[end, row].character == nil { self[end, row].character = " " }
            for column in start..<end {
                self[column, row] = Cell(character: " ", style: style)
            }
        }
    }

    /// Applies `change` to the style of cells in row `y` from `x` for `count` columns.
    package mutating func restyle(x: Int, y: Int, count: Int, _ change: (inout CellStyle) -> Void) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<max(max(0, x), min(width, x + count)) {
            change(&self[column, y].style)
        }
    }

    /// Draws a box border with an optional title in its top edge; returns the inside.
    @discardableResult
    package mutating func box(_ rect: Rect, title: String? = nil, style: CellStyle = .plain) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return rect.inset(by: 1) }
        let right = rect.maxX - 1
        let bottom = rect.maxY - 1
        write("┌" + String(repeating: "─", count: rect.width - 2) + "┐", x: rect.x, y: rect.y, style: style)
        write("└" + String(repeating: "─", count: rect.width - 2) + "┘", x: rect.x, y: bottom, style: style)
        for row in (rect.y + 1)..<bottom {
            write("│", x: rect.x, y: row, style: style)
            write("│", x: right, y: row, style: style)
        }
        if let title, rect.width > 4 {
            write(
                " " + TextWidth.truncate(title, to: rect.width - 4) + " ", x: rect.x + 1, y: rect.y, style: style,
                maxX: right)
        }
        return rect.inset(by: 1)
    }

    /// The screen as plain text, one line per row, trailing spaces removed.
    package var text: String {
        (0..<height).map(line).joined(separator: "\n")
    }

    /// Row `y` as plain text, trailing spaces removed.
    package func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var line = ""
        for column in 0..<width {
            if let character = self[column, y].character { line.append(character) }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The number of terminal columns row `y` occupies as drawn: exactly `width` when the grid is consistent.
    package func drawnWidth(ofRow y: Int) -> Int {
        (0..<width).reduce(0) { total, column in
            total + (self[column, y].character.map(TextWidth.of) ?? 0)
        }
    }
}
