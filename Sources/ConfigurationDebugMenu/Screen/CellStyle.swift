/// How a cell is drawn: colours and attributes. With colour off (`NO_COLOR`), only the attributes are used, so
/// every distinction the menu makes must also be visible through words or attributes.
package struct CellStyle: Hashable, Sendable {
    /// A terminal colour from the basic eight.
    package enum Color: Int, Hashable, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
    }

    /// The text colour; `nil` keeps the terminal's default.
    package var foreground: Color?
    /// The background colour; `nil` keeps the terminal's default.
    package var background: Color?
    /// Bold text.
    package var bold = false
    /// Dim text.
    package var dim = false
    /// Foreground and background swapped.
    package var reverse = false
    /// Underlined text.
    package var underline = false

    /// Creates a style.
    package init(
        foreground: Color? = nil,
        background: Color? = nil,
        bold: Bool = false,
        dim: Bool = false,
        reverse: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default look.
    package static let plain = CellStyle()

    /// The same style without colours, for terminals (or people) that want none.
    package var withoutColor: CellStyle {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }
}
