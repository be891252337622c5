package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The menu's styles. Every distinction also shows in words or attributes, so with `NO_COLOR` (colours dropped)
/// the screen reads the same.
package struct MenuTheme: Sendable {
    package let colors: Bool

    package init(colors: Bool) {
        self.colors = colors
    }

    private func style(_ style: CellStyle) -> CellStyle { colors ? style : style.withoutColor }

    package var titleBar: CellStyle {
        style(CellStyle(foreground: .black, background: .cyan, bold: true, reverse: !colors))
    }
    package var titleBarError: CellStyle {
        style(CellStyle(foreground: .white, background: .red, bold: true, reverse: !colors))
    }
    package var border: CellStyle { style(CellStyle(dim: true)) }
    package var focusedBorder: CellStyle { style(CellStyle(foreground: .cyan, bold: true)) }
    package var heading: CellStyle { style(CellStyle(foreground: .blue, bold: true)) }
    package var columnHeader: CellStyle { style(CellStyle(dim: true)) }
    package var text: CellStyle { .plain }
    package var muted: CellStyle { style(CellStyle(dim: true)) }
    package var label: CellStyle { style(CellStyle(bold: true)) }
    package var selected: CellStyle { style(CellStyle(foreground: .black, background: .cyan, reverse: !colors)) }
    package var selectedUnfocused: CellStyle { style(CellStyle(reverse: true)) }
    package var highlight: CellStyle { style(CellStyle(foreground: .magenta, bold: true, underline: true)) }
    package var problem: CellStyle { style(CellStyle(foreground: .red, bold: true)) }
    package var valid: CellStyle { style(CellStyle(foreground: .green, bold: true)) }
    package var key: CellStyle { style(CellStyle(foreground: .cyan, bold: true)) }
    package var overlayBorder: CellStyle { style(CellStyle(foreground: .yellow, bold: true)) }

    /// OVERRIDDEN stands out (bold, yellow), LAUNCH more (bold, magenta: nothing here changes it while the program
    /// runs), SERVER is calm (cyan), DEFAULT recedes (dim): different words, colours and attributes.
    package func source(_ source: ValueOrigin) -> CellStyle {
        switch source {
        case .launch: style(CellStyle(foreground: .magenta, bold: true))
        case .overridden: style(CellStyle(foreground: .yellow, bold: true))
        case .server: style(CellStyle(foreground: .cyan))
        case .default: style(CellStyle(dim: true))
        }
    }
}
