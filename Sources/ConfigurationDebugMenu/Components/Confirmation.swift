/// A reset waiting for y/N.
package enum Confirmation: Equatable, Sendable {
    /// Remove every override (`count` of them).
    case resetAll(count: Int)
    /// Remove the overrides of one scope's keys.
    case resetScope(name: String, keys: [String])

    /// The question asked.
    package var question: String {
        switch self {
        case .resetAll(let count): "Reset all \(count) override\(count == 1 ? "" : "s")?"
        case .resetScope(let name, let keys): "Reset \(keys.count) override\(keys.count == 1 ? "" : "s") in \(name)?"
        }
    }

    /// Draws the question centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, theme: MenuTheme) {
        let hint = "y resets · n, Enter or Esc keeps · u undoes a reset"
        let box = overlayBox(
            &grid, on: screen, width: max(TextWidth.of(hint), ScreenGrid.displayWidth(of: question)) + 8, height: 6,
            title: "Confirm", theme: theme)
        let content = box.inset(by: 1).inset(top: 1, left: 2, right: 1)
        grid.write(question, in: content.row(0), style: theme.label)
        grid.write(hint, in: content.row(1), style: theme.muted)
    }
}
