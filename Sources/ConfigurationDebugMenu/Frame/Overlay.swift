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
