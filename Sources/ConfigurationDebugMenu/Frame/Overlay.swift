/// A framed box drawn over the screen's centre (picker, confirmation, help): at most `width`×`height`, leaving a
/// column free on each side and the title bar uncovered. Returns the box; its inside is `inset(by: 1)`.
func overlayBox(
    _ grid: inout ScreenGrid, on screen: Rect, width: Int, height: Int, title: String, theme: MenuTheme
) -> Rect {
    let rect = screen.centered(width: min(width, screen.width - 2), height: min(height, screen.height - 2), minimumY: 1)
    grid.fill(rect)
    grid.box(rect, title: title, style: theme.overlayBorder)
    return rect
}

/// On the bottom border of `box`, for a text of `count` lines scrolled to `first` with `visible` on screen: where to
/// go for more (`↓ j/PgDn: more`, or back up at the end) on the left, the lines shown (`1–31 of 49`) on the right.
/// Nothing when everything fits.
func drawScrollMarks(
    _ grid: inout ScreenGrid, on box: Rect, first: Int, visible: Int, count: Int, style: CellStyle
) {
    guard count > visible else { return }
    let more = first + visible < count ? " ↓ j/PgDn: more " : " ↑ k/PgUp: back "
    let position = " \(first + 1)–\(min(count, first + visible)) of \(count) "
    grid.write(more, x: box.x + 2, y: box.maxY - 1, style: style)
    grid.write(position, x: box.maxX - TextWidth.of(position) - 2, y: box.maxY - 1, style: style)
}
