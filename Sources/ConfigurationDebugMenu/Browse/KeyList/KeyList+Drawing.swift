import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

extension KeyList {
    /// The columns of a key row, sized to their content. The value column needs at most 16 cells to be useful (the
    /// details show a long value whole), so the titles and names get the free width first: whole when they fit
    /// beside it, the value taking the rest; otherwise the title and the name share the room, the name keeping at
    /// least 60% (its end tells keys apart) and the title what the name leaves over.
    struct Columns {
        var title: Int
        var name: Int
        var value: Int
        static let source = 10
        static let flags = 4

        init(innerWidth: Int, titleNeeds: Int, nameNeeds: Int, valueNeeds: Int) {
            let available = max(20, innerWidth - 1 - 4 - Self.source - Self.flags)
            let room = available - min(valueNeeds, 16)
            if titleNeeds + nameNeeds <= room {
                title = titleNeeds
                name = nameNeeds
            } else {
                name = min(nameNeeds, max(room - titleNeeds, room * 60 / 100))
                title = max(min(6, room - name), min(titleNeeds, room - name))
            }
            value = max(1, available - title - name)
        }
    }

    /// Draws the list in `box`: a border with the key count, the active filters, the visible rows, and the
    /// position. `active` is true when the list has the keyboard (browsing it or typing a filter). Keys another
    /// process changed recently (`changedElsewhere`, by name) are marked `*`; keys with a change the store has not
    /// confirmed (`pending`) show the value asked for, marked `saving…` (`no answer` once the store did not answer).
    /// Keys marked for a bulk action (`marks`, by name) show `+` before the title, and the title counts them.
    package func draw(
        into grid: inout ScreenGrid, in box: Rect, data: MenuData, filters: KeyFilters, active: Bool,
        changedElsewhere: [String: Double], pending: [String: PendingMark] = [:], marks: Set<String> = [],
        theme: MenuTheme
    ) {
        var title = filters.isActive ? "Keys · \(keyCount) of \(data.table.keys.count)" : "Keys · \(keyCount)"
        // While a newer query is ranked, the rows (and this count) are the last query's.
        if pendingRank != nil { title += " · searching…" }
        if orphanCount > 0 { title += " · \(orphanCount) orphaned" }
        title += Self.coverageTitle(data.coverage, read: data.coverageReadCount, unregistered: unregisteredCount)
        if !marks.isEmpty { title += " · \(marks.count) marked" }
        var inner = grid.box(box, title: title, style: active ? theme.focusedBorder : theme.border)
        if filters.isActive {
            drawFilterLine(&grid, filters: filters, data: data, in: inner.row(0), theme: theme)
            inner = inner.inset(top: 1)
        }
        let query = shownQuery
        let headings = query.isEmpty
        let shown = rows[min(scroll, rows.count)..<min(rows.count, scroll + inner.height)]
        let valueNeeds = shown.reduce(4) { widest, row in
            guard case .key(let key) = row else { return widest }
            return max(
                widest,
                ScreenGrid.displayWidth(
                    of: String(
                        ValueText.short(data.statuses[key].value, of: data.table.keys[key].descriptor).prefix(200))))
        }
        let columns = Columns(
            innerWidth: inner.width, titleNeeds: data.table.widestTitle,
            nameNeeds: headings ? data.table.widestShortName : data.table.widestName, valueNeeds: valueNeeds)
        let matcher = FuzzyMatcher(query: query)
        if rows.isEmpty {
            let message =
                data.table.keys.isEmpty
                ? "The catalog has no keys."
                : filters.effectiveScope != nil && !query.isEmpty
                    ? "No matches in this module. Tab (while typing the filter) searches every module."
                    : "No keys match the filters. Esc clears them."
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
                // Under a filter a heading says how many of its keys are shown: "2 of 6 keys".
                let shownKeys = rows[(index + 1)...].prefix { if case .key = $0 { true } else { false } }.count
                let count =
                    shownKeys < info.range.count ? "\(shownKeys) of \(info.range.count)" : "\(info.range.count)"
                var text = "── \(info.name) · \(count) keys"
                if !info.namePrefix.isEmpty { text += " · \(info.namePrefix)*" }
                if overrides > 0 { text += " · \(overrides) overridden" }
                drawRule(&grid, text + " ", in: rect, style: theme.heading)
            case .orphanHeading:
                drawRule(&grid, "── Orphaned overrides (keys not in this catalog) ", in: rect, style: theme.problem)
            case .key(let key):
                let descriptor = data.table.keys[key].descriptor
                let status = data.statuses[key]
                let mark = pending[descriptor.name]
                let text = RowText(
                    title: descriptor.title,
                    name: snippet(key, data: data, query: query).map {
                        TextWidth.truncate($0, to: columns.name)
                    }
                        ?? TextWidth.truncateMiddle(
                            headings ? data.table.shortName(of: key) : descriptor.name, to: columns.name),
                    value: mark.map { ValueText.short($0.value, of: descriptor) }
                        ?? ValueText.short(status.value, of: descriptor),
                    source: mark.map(Self.pendingSource) ?? status.source.description,
                    flags: Self.flags(
                        status, rejectedByProgram: data.coverage.rejectsOverride(of: status),
                        syncChanged: data.syncChanges[descriptor.name] != nil,
                        changed: changedElsewhere[descriptor.name] != nil,
                        launched: status.launchValue != nil
                            || !data.coverage.launchOverrides(of: descriptor.name).isEmpty)
                )
                drawRow(
                    &grid, text, in: rect, columns: columns, selected: isSelected, active: active,
                    sourceStyle: mark.map { Self.pendingStyle($0, theme) } ?? theme.source(status.source), theme: theme)
                drawReadMarker(
                    &grid, data.coverage.read(named: descriptor.name), in: rect, selected: isSelected, theme: theme)
                if marks.contains(descriptor.name) {
                    grid.write(
                        Self.markMarker, x: rect.x, y: rect.y,
                        style: isSelected ? theme.selected.merging(bold: true) : theme.label.merging(bold: true),
                        maxX: rect.x + 1)
                }
                if !matcher.isEmpty, textMatches[key] == nil {
                    highlightMatches(
                        &grid, matcher: matcher, table: data.table, key: key, text: text, in: rect, columns: columns,
                        selected: isSelected, theme: theme)
                }
            case .orphan(let orphan):
                let info = data.orphans[orphan]
                let mark = pending[info.name]
                let text = RowText(
                    title: "(orphaned)", name: TextWidth.truncateMiddle(info.name, to: columns.name),
                    value: mark.map { $0.override ?? "(removing)" } ?? info.override?.value
                        ?? info.storeProblems.first?.storedJSON ?? "",
                    source: mark.map(Self.pendingSource) ?? "OVERRIDDEN",
                    flags: "?" + (info.isOverrideNotApplied ? "✗" : "") + (info.isExpired ? "⊘" : "")
                        + (changedElsewhere[info.name] != nil ? "*" : ""))
                drawRow(
                    &grid, text, in: rect, columns: columns, selected: isSelected, active: active,
                    sourceStyle: mark.map { Self.pendingStyle($0, theme) } ?? theme.source(.overridden), theme: theme)
            case .unregisteredHeading:
                drawRule(&grid, Self.unregisteredHeading, in: rect, style: theme.problem)
            case .unregistered(let index):
                drawRow(
                    &grid, Self.unregisteredRow(data.coverage.unregistered[index], columns: columns), in: rect,
                    columns: columns, selected: isSelected, active: active, sourceStyle: theme.problem, theme: theme)
            }
        }
        if rows.count > inner.height || filters.isActive {
            let position = " \(selectedOrdinal)/\(keyCount + orphanCount + unregisteredCount) "
            grid.write(position, x: box.maxX - TextWidth.of(position) - 2, y: box.maxY - 1, style: theme.border)
        }
    }

    /// The source column of a row whose change is pending: `saving…`, or `no answer` once the store did not answer.
    static func pendingSource(_ mark: PendingMark) -> String { mark.unanswered == nil ? "saving…" : "no answer" }

    private static func pendingStyle(_ mark: PendingMark, _ theme: MenuTheme) -> CellStyle {
        mark.unanswered == nil ? theme.label : theme.problem
    }

    /// For a key found by its description or note, that text from just before the match, marked `≈`: shown in the
    /// name column, so the value stays in its own (the details pane shows the name and the text whole).
    private func snippet(_ key: Int, data: MenuData, query: String) -> String? {
        let text: String
        switch textMatches[key] {
        case .summary: text = data.table.keys[key].descriptor.summary ?? ""
        case .note: text = "note: " + (data.statuses[key].override?.note ?? "")
        default: return nil
        }
        guard let term = query.split(separator: " ").first,
            let match = text.range(of: term, options: .caseInsensitive)
        else { return "≈ " + text }
        let start = text.index(match.lowerBound, offsetBy: -8, limitedBy: text.startIndex) ?? text.startIndex
        return "≈ " + (start == text.startIndex ? "" : "…") + text[start...]
    }

    /// The markers of a key row: `!` the server sent a value the key rejects, `✗` the override is not applied
    /// (here, or by a program that reported it), `⊘` the override has expired (`◷`: it will), `~` the override is
    /// stale, `=` the
    /// override equals the server value, `↻` the last server sync changed its server value, `*` changed elsewhere
    /// moments ago, `»` this program or a running one was launched with its own value (source LAUNCH until it ends).
    static func flags(
        _ status: ConfigurationKeyStatus, rejectedByProgram: Bool, syncChanged: Bool, changed: Bool,
        launched: Bool = false
    ) -> String {
        var flags = ""
        if status.isServerValueRejected { flags += "!" }
        if status.isOverrideNotApplied || rejectedByProgram { flags += "✗" }
        if status.isExpired {
            flags += "⊘"
        } else if let entry = status.override, !entry.expiry.isNever {
            flags += "◷"
        }
        if status.isStale { flags += "~" }
        if status.isRedundant { flags += "=" }
        if syncChanged { flags += "↻" }
        if changed { flags += "*" }
        if launched { flags += "»" }
        return flags
    }

    /// One line naming every active filter, and how to clear them all.
    private func drawFilterLine(
        _ grid: inout ScreenGrid, filters: KeyFilters, data: MenuData, in row: Rect, theme: MenuTheme
    ) {
        var parts: [String] = []
        if let scope = filters.scope {
            parts.append(
                "module \(data.table.scopes[scope].name)" + (filters.effectiveScope == nil ? " (searching all)" : ""))
        }
        if !filters.query.isEmpty { parts.append("text \"\(filters.query)\"") }
        if filters.onlyOverridden { parts.append("overridden only") }
        if filters.onlyProblems { parts.append("problems only") }
        if filters.onlySyncChanged { parts.append("changed by the last sync") }
        if filters.onlyUnread { parts.append("never read in this run") }
        if filters.onlyInvisible { parts.append("invisible or control characters") }
        let end = grid.write(" Filters: ", in: row, style: theme.muted)
        let rest = row.inset(left: end - row.x)
        let clear = "  Esc clears all "
        let shown = grid.write(
            parts.joined(separator: " · "), in: rest.inset(right: TextWidth.of(clear)), style: theme.label)
        grid.write(clear, in: row.inset(left: shown - row.x), style: theme.muted)
    }

    /// The gutter's mark of a key marked for a bulk action (over the read mark: marks are for the moment).
    static let markMarker = "+"

    func drawRule(_ grid: inout ScreenGrid, _ text: String, in rect: Rect, style: CellStyle) {
        let end = grid.write(text, in: rect, style: style)
        grid.write(
            String(repeating: "─", count: max(0, rect.maxX - end)), x: end, y: rect.y, style: style, maxX: rect.maxX)
    }

    func drawRow(
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

    /// One key row's texts.
    struct RowText {
        var title: String
        var name: String
        var value: String
        var source: String
        var flags: String
    }

    private func cellRects(_ rect: Rect, _ columns: Columns)
        -> (title: Rect, name: Rect, value: Rect, source: Rect, flags: Rect)
    {
        // `count` columns one after `previous` (a column of its own before them), clipped to the row: on a row
        // narrower than the columns the last ones are empty.
        func after(_ previous: Rect?, _ count: Int) -> Rect {
            let start = min(previous.map { $0.maxX - rect.x + 1 } ?? 1, rect.width)
            return rect.columns(start..<max(start, start + count))
        }
        let title = after(nil, columns.title)
        let name = after(title, columns.name)
        let value = after(name, columns.value)
        let source = after(value, Columns.source)
        let flags = after(source, rect.width)
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
        // The name may be cut in the middle: highlight only while it is shown as it is.
        let name = table.keys[key].descriptor.name
        let shownPrefix =
            text.name.hasSuffix("…") || !text.name.contains("…") ? text.name : String(text.name.prefix { $0 != "…" })
        highlight(
            &grid, String(name.prefix(shownPrefix.count)), byteOffset: table.keys[key].descriptor.title.utf8.count + 1,
            positions: positions, in: cells.name, selected: selected, theme: theme)
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
