import Foundation
package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The scenarios folder: its profiles on the left, and what applying the selected one would change on the right
/// (added, removed, changed, with values). Enter applies it (after a question), `m` switches between merging it into
/// the overrides and replacing them, `s` saves the current overrides as a new scenario.
package struct ScenariosView: OpenableComponent {
    /// The folder as last read; `nil` while it is being read.
    package var listing: ScenarioListing?
    /// The selected scenario.
    package var selection = 0
    /// The first row shown.
    package var scroll = 0
    /// Whether applying replaces every override (otherwise the scenario's are merged in).
    package var replace = false

    package init(listing: ScenarioListing? = nil) {
        self.listing = listing
    }

    /// The selected scenario, if any.
    package var selected: Scenario? {
        guard let scenarios = listing?.scenarios, scenarios.indices.contains(selection) else { return nil }
        return scenarios[selection]
    }

    /// The overrides after applying `scenario` to `current` (merged or replacing them).
    package func result(of scenario: Scenario, over current: [String: OverrideEntry]) -> [String: OverrideEntry] {
        replace ? scenario.entries : current.merging(scenario.entries) { $1 }
    }

    /// The list's rows in `box`.
    static func listRows(in box: Rect) -> Rect {
        box.inset(by: 1).splitLeft(min(34, max(20, box.width / 3))).left.inset(top: 1)
    }

    /// Moves the selection or switches the mode; returns `false` for any other intent.
    mutating func select(_ intent: MenuIntent, visibleRows: Int) -> Bool {
        let count = listing?.scenarios.count ?? 0
        switch intent {
        case .move(let delta): selection += delta
        case .page(let direction): selection += direction * max(1, visibleRows - 1)
        case .top: selection = 0
        case .bottom: selection = count - 1
        case .toggleScenarioMode: replace.toggle()
        default: return false
        }
        selection = max(0, min(selection, count - 1))
        if selection < scroll { scroll = selection }
        if selection >= scroll + visibleRows { scroll = selection - visibleRows + 1 }
        return true
    }

    /// Draws the view in `box`, comparing with the current overrides.
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let current = menu.data.currentOverrides
        grid.fill(box)
        let folder = listing?.folder ?? "…"
        let inner = grid.box(box, title: "Scenarios · \(folder)", style: theme.focusedBorder)
        let (left, right) = inner.splitLeft(min(34, max(20, box.width / 3)))
        grid.write(" Profile", in: left.row(0), style: theme.columnHeader)
        let list = Self.listRows(in: box)
        guard let listing else {
            grid.write("Reading the folder…", in: list.row(0).inset(left: 1), style: theme.muted)
            return
        }
        if listing.scenarios.isEmpty {
            let text = listing.problem ?? "No scenarios yet. s saves the current overrides as one."
            grid.write(
                text, in: list.row(0).inset(left: 1), style: listing.problem == nil ? theme.muted : theme.problem)
        }
        for line in 0..<list.height {
            let index = scroll + line
            guard index < listing.scenarios.count else { break }
            let scenario = listing.scenarios[index]
            let rect = list.row(line)
            let style = index == selection ? theme.selected : theme.text
            grid.fill(rect, style: style)
            let count = scenario.problem == nil ? "\(scenario.entries.count)" : "✗"
            let end = grid.write(" " + scenario.name, in: rect.inset(right: TextWidth.of(count) + 1), style: style)
            grid.write(
                count, x: max(end + 1, rect.maxX - TextWidth.of(count) - 1), y: rect.y, style: style, maxX: rect.maxX)
        }
        let preview = right.inset(left: 1, right: 1)
        for row in 0..<inner.height { grid.write("│", x: right.x, y: right.y + row, style: theme.border) }
        guard let scenario = selected else { return }
        drawPreview(&grid, scenario, current: current, in: preview.inset(left: 1), theme)
    }

    private func drawPreview(
        _ grid: inout ScreenGrid, _ scenario: Scenario, current: [String: OverrideEntry], in rect: Rect,
        _ theme: MenuTheme
    ) {
        if let problem = scenario.problem {
            grid.write("✗ \(scenario.name) cannot be used: \(problem)", in: rect.row(0), style: theme.problem)
            return
        }
        let diff = OverrideDiff(importing: scenario.entries, into: current, mode: replace ? .replace : .merge)
        let mode = replace ? "replaces every override (m: merge)" : "merges into the overrides (m: replace)"
        let end = grid.write(scenario.name, in: rect.row(0), style: theme.label)
        grid.write(" " + mode, x: end, y: rect.y, style: theme.muted, maxX: rect.maxX)
        grid.write(diff.summary, in: rect.row(1), style: theme.muted)
        var row = 3
        if diff.isEmpty {
            grid.write("Nothing would change.", in: rect.row(row), style: theme.muted)
        }
        for change in diff.all {
            guard row < rect.height else { break }
            let (mark, text, style): (String, String, CellStyle)
            switch (change.old, change.new) {
            case (nil, let new?):
                (mark, text, style) = ("+ ", "\(change.key) = \(ValueText.quoted(new.value))", theme.valid)
            case (let old?, nil):
                (mark, text, style) = ("- ", "\(change.key) = \(ValueText.quoted(old.value))", theme.problem)
            default:
                (mark, text, style) = (
                    "~ ",
                    "\(change.key): \(ValueText.quoted(change.old?.value)) → \(ValueText.quoted(change.new?.value))",
                    theme.label
                )
            }
            let end = grid.write(mark, in: rect.row(row), style: style)
            grid.write(text, in: rect.row(row).inset(left: end - rect.x), style: theme.text)
            row += 1
        }
        let room = rect.height - 3
        if diff.all.count > room, room > 0 {
            grid.fill(rect.row(rect.height - 1))
            grid.write("… \(diff.all.count - room + 1) more", in: rect.row(rect.height - 1), style: theme.muted)
        }
    }
}
