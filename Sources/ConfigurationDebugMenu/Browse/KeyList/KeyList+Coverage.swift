import ServiceConfiguration
import ServiceConfigurationFileStore

/// What the key list shows of the program reports: a `•` before each key a program read (`◦` when its value
/// changed after that read), the count of keys read in the list's title, and the keys the program read whose scope
/// is not in its catalog, in a group of their own below the catalog's keys.
extension KeyList {
    /// The marker of a key the program read, and of one whose value changed since it read it.
    static let readMarker = "•"
    static let readBeforeChangeMarker = "◦"

    /// The heading above the unregistered keys.
    static let unregisteredHeading = "── Unregistered: read by the program, scope not in its catalog "

    /// For the list's title: ` · 10 read by config-demo` (`read`: of the table's keys), and how many unregistered
    /// keys are listed.
    static func coverageTitle(_ coverage: ProgramCoverage, read: Int, unregistered: Int) -> String {
        guard let newest = coverage.programs.first else { return "" }
        var title = ""
        if coverage.recordsReads {
            let by = coverage.programs.count == 1 ? newest.programName : "\(coverage.programs.count) programs"
            let state = coverage.isRunning ? "" : " (\(newest.status.rawValue))"
            title = " · \(read) read by \(VisibleText.escaped(by))\(state)"
        }
        if unregistered > 0 { title += " · \(unregistered) unregistered" }
        return title
    }

    /// The rows of the unregistered group under `filters` (none when a filter about the catalog's keys is on).
    func unregisteredRows(data: MenuData, filters: KeyFilters) -> [Row] {
        let keys = data.coverage.unregistered
        guard !keys.isEmpty, !filters.onlyOverridden, !filters.onlySyncChanged, !filters.onlyUnread else { return [] }
        let query = filters.query.lowercased().filter { $0 != " " }
        let shown = keys.indices.filter { query.isEmpty || keys[$0].name.lowercased().containsSubsequence(query) }
        return shown.isEmpty ? [] : [.unregisteredHeading] + shown.map { .unregistered($0) }
    }

    /// The row of an unregistered key: its scope where the title goes, its name, and what it is.
    static func unregisteredRow(_ key: UnregisteredConfigurationKey, columns: Columns) -> RowText {
        RowText(
            title: key.scopeTypeName.split(separator: ".").last.map(String.init) ?? "(no scope)",
            name: TextWidth.truncateMiddle(key.name, to: columns.name),
            value: "unlisted", source: "READ", flags: "?")
    }

    /// Writes the read marker of a key in the row's first column (left empty for keys not read).
    func drawReadMarker(
        _ grid: inout ScreenGrid, _ read: ProgramCoverage.KeyRead?, in rect: Rect, selected: Bool, theme: MenuTheme
    ) {
        guard let read else { return }
        let marker = read.read.currentValueFirstRead == nil ? Self.readBeforeChangeMarker : Self.readMarker
        grid.write(marker, x: rect.x, y: rect.y, style: selected ? theme.selected : theme.valid, maxX: rect.x + 1)
    }
}
