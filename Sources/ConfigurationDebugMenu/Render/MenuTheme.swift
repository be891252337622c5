import ServiceConfiguration

/// The menu's styles. Every distinction also shows in words or attributes, so with `NO_COLOR` (colours dropped)
/// the screen reads the same.
struct MenuTheme {
    let colors: Bool

    private func style(_ style: CellStyle) -> CellStyle { colors ? style : style.withoutColor }

    var titleBar: CellStyle { style(CellStyle(foreground: .black, background: .cyan, bold: true, reverse: !colors)) }
    var titleBarError: CellStyle {
        style(CellStyle(foreground: .white, background: .red, bold: true, reverse: !colors))
    }
    var border: CellStyle { style(CellStyle(dim: true)) }
    var focusedBorder: CellStyle { style(CellStyle(foreground: .cyan, bold: true)) }
    var heading: CellStyle { style(CellStyle(foreground: .blue, bold: true)) }
    var columnHeader: CellStyle { style(CellStyle(dim: true)) }
    var text: CellStyle { .plain }
    var muted: CellStyle { style(CellStyle(dim: true)) }
    var label: CellStyle { style(CellStyle(bold: true)) }
    var selected: CellStyle { style(CellStyle(foreground: .black, background: .cyan, reverse: !colors)) }
    var selectedUnfocused: CellStyle { style(CellStyle(reverse: true)) }
    var highlight: CellStyle { style(CellStyle(foreground: .magenta, bold: true, underline: true)) }
    var problem: CellStyle { style(CellStyle(foreground: .red, bold: true)) }
    var valid: CellStyle { style(CellStyle(foreground: .green, bold: true)) }
    var key: CellStyle { style(CellStyle(foreground: .cyan, bold: true)) }
    var overlayBorder: CellStyle { style(CellStyle(foreground: .yellow, bold: true)) }

    /// OVERRIDDEN stands out (bold, yellow), SERVER is calm (cyan), DEFAULT recedes (dim): different words, colours
    /// and attributes.
    func source(_ source: ValueSource) -> CellStyle {
        switch source {
        case .overridden: style(CellStyle(foreground: .yellow, bold: true))
        case .server: style(CellStyle(foreground: .cyan))
        case .default: style(CellStyle(dim: true))
        }
    }
}
