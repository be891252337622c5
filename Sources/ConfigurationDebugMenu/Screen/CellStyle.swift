/// How a cell is drawn: colours and attributes. With colour off (`NO_COLOR`), only the attributes are used, so
/// every distinction the menu makes must also be visible through words or attributes.
public struct CellStyle: Hashable, Sendable {
    /// A terminal colour from the basic eight.
    public enum Color: Int, Hashable, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
    }

    /// The text colour; `nil` keeps the terminal's default.
    public var foreground: Color?
    /// The background colour; `nil` keeps the terminal's default.
    public var background: Color?
    /// Bold text.
    public var bold = false
    /// Dim text.
    public var dim = false
    /// Foreground and background swapped.
    public var reverse = false
    /// Underlined text.
    public var underline = false

    /// Creates a style.
    public init(
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
    public static let plain = CellStyle()

    /// The same style without colours, for terminals (or people) that want none.
    public var withoutColor: CellStyle {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }
}
