extension KeyList {
    /// The columns of a key row.
    struct Columns {
        var title: Int
        var name: Int
        var value: Int
        static let source = 10
        static let flags = 3

        init(innerWidth: Int) {
            let rest = max(12, innerWidth - 1 - Self.source - Self.flags - 4)
            title = rest * 27 / 100
            name = rest * 46 / 100
            value = rest - title - name
        }
    }

    /// One key row's texts.
    struct RowText {
        var title: String
        var name: String
        var value: String
        var source: String
        var flags: String
    }

    /// Draws the list in `box`: a border titled with the filters, the visible rows, and the position.
    /// `active` is true when the list has the keyboard (browsing it or typing a filter).
    /// Keys another process changed recently (`changedElsewhere`, by name) are marked `*`.
    package func draw(
        into grid: inout ScreenGrid, in box: Rect, data: MenuData, filters: KeyFilters, active: Bool,
        changedElsewhere: [String: Double], theme: MenuTheme
    ) {
        let inner = grid.box(
            box, title: title(data: data, filters: filters), style: active ? theme.focusedBorder : theme.border)
        let columns = Columns(innerWidth: inner.width)
        let matcher = FuzzyMatcher(query: filters.query)
        if rows.isEmpty {
            let message =
                data.table.keys.isEmpty ? "The catalog has no keys." : "No keys match the filters. Esc clears them."
            grid.write(message, in: inner.row(0).inset(left: 1), style: theme.muted)
        }
        for line in 0..<inner.height {
            let index = scroll + line
            guard index < rows.count else { break }
            let rect = inner.row(line)
            let isSelected = index == selection
            switch rows[index] {
            case .heading(let scope):
                let info = data.table.scopes[scope]
                let overrides = data.scopeOverrideCounts[scope]
                var text = "── \(info.name) · \(info.range.count) keys"
                if overrides > 0 { text += " · \(overrides) overridden" }
                drawRule(&grid, text + " ", in: rect, style: theme.heading)
            case .orphanHeading:
                drawRule(&grid, "── Orphaned overrides (keys not in this catalog) ", in: rect, style: theme.problem)
            case .key(let key):
                let descriptor = data.table.keys[key].descriptor
                let status = data.statuses[key]
                let text = RowText(
                    title: descriptor.title,
                    name: descriptor.name,
                    value: ValueText.short(status.value, of: descriptor),
                    source: status.source.description,
                    flags: (status.isRejected ? "!" : "") + (status.isStale ? "~" : "")
                        + (changedElsewhere[descriptor.name] != nil ? "*" : "")
                )
                drawRow(
                    &grid, text, in: rect, columns: columns, selected: isSelected, active: active,
                    sourceStyle: theme.source(status.source), theme: theme)
                if !matcher.isEmpty {
                    highlightMatches(
                        &grid, matcher: matcher, table: data.table, key: key, text: text, in: rect, columns: columns,
                        selected: isSelected, theme: theme)
                }
            case .orphan(let orphan):
                let info = data.orphans[orphan]
                let text = RowText(
                    title: "(orphaned)", name: info.name, value: info.override.value, source: "OVERRIDDEN",
                    flags: "?" + (changedElsewhere[info.name] != nil ? "*" : ""))
                drawRow(
                    &grid, text, in: rect, columns: columns, selected: isSelected, active: active,
                    sourceStyle: theme.source(.overridden), theme: theme)
            }
        }
        if rows.count > inner.height {
            let position = " \(rows.isEmpty ? 0 : selection + 1)/\(rows.count) "
            grid.write(position, x: box.maxX - TextWidth.of(position) - 2, y: box.maxY - 1, style: theme.border)
        }
    }

    /// "Keys", and the filters that are on: "Keys · 3 of 55 · Photos · /hdr · overridden only".
    private func title(data: MenuData, filters: KeyFilters) -> String {
        var parts = ["Keys"]
        if filters.isActive { parts.append("\(keyCount) of \(data.table.keys.count)") }
        if let scope = filters.scope { parts.append(data.table.scopes[scope].name) }
        if !filters.query.isEmpty { parts.append("/\(filters.query)") }
        if filters.onlyOverridden { parts.append("overridden only") }
        if filters.onlyProblems { parts.append("problems only") }
        return parts.joined(separator: " · ")
    }

    private func drawRule(_ grid: inout ScreenGrid, _ text: String, in rect: Rect, style: CellStyle) {
        let end = grid.write(text, in: rect, style: style)
        grid.write(
            String(repeating: "─", count: max(0, rect.maxX - end)), x: end, y: rect.y, style: style, maxX: rect.maxX)
    }

    private func drawRow(
        _ grid: inout ScreenGrid, _ row: RowText, in rect: Rect, columns: Columns, selected: Bool, active: Bool,
        sourceStyle: CellStyle, theme: MenuTheme
    ) {
        let base = selected ? (active ? theme.selected : theme.selectedUnfocused) : theme.text
        grid.fill(rect, style: base)
        let cells = cellRects(rect, columns)
        grid.write(row.title, in: cells.title, style: base)
        grid.write(row.name, in: cells.name, style: base)
        grid.write(row.value, in: cells.value, style: base)
        grid.write(row.source, in: cells.source, style: selected ? base.merging(bold: sourceStyle.bold) : sourceStyle)
        grid.write(row.flags, in: cells.flags, style: selected ? base.merging(bold: true) : theme.problem)
    }

    private func cellRects(_ rect: Rect, _ columns: Columns)
        -> (title: Rect, name: Rect, value: Rect, source: Rect, flags: Rect)
    {
        let title = rect.columns(1..<1 + columns.title)
        let name = rect.columns(title.maxX - rect.x + 1..<title.maxX - rect.x + 1 + columns.name)
        let value = rect.columns(name.maxX - rect.x + 1..<name.maxX - rect.x + 1 + columns.value)
        let source = rect.columns(value.maxX - rect.x + 1..<value.maxX - rect.x + 1 + Columns.source)
        let flags = rect.columns(source.maxX - rect.x + 1..<rect.width)
        return (title, name, value, source, flags)
    }

    /// Underlines and emboldens the characters of the title and the wire name that the query matched.
    private func highlightMatches(
        _ grid: inout ScreenGrid, matcher: FuzzyMatcher, table: KeyTable, key: Int, text: RowText, in rect: Rect,
        columns: Columns, selected: Bool, theme: MenuTheme
    ) {
        let positions = Set(matcher.positions(in: table, key: key))
        let cells = cellRects(rect, columns)
        highlight(
            &grid, text.title, byteOffset: 0, positions: positions, in: cells.title, selected: selected, theme: theme)
        highlight(
            &grid, text.name, byteOffset: text.title.utf8.count + 1, positions: positions, in: cells.name,
            selected: selected, theme: theme)
    }

    private func highlight(
        _ grid: inout ScreenGrid, _ text: String, byteOffset: Int, positions: Set<Int>, in rect: Rect, selected: Bool,
        theme: MenuTheme
    ) {
        var byte = byteOffset
        var column = rect.x
        let limit = rect.maxX - (ScreenGrid.displayWidth(of: text) > rect.width ? 1 : 0)  // a cut text ends in "…"
        for character in text {
            let width = ScreenGrid.displayWidth(of: String(character))
            guard column + width <= limit else { break }
            let bytes = String(character).utf8.count
            if (byte..<(byte + bytes)).contains(where: positions.contains) {
                grid.restyle(x: column, y: rect.y, count: width) { style in
                    style = selected ? style.merging(bold: true) : theme.highlight
                    style.underline = true
                    style.bold = true
                }
            }
            byte += bytes
            column += width
        }
    }
}
