import Foundation
import ServiceConfiguration

/// Draws a ``MenuState`` into a ``ScreenGrid``: a pure function of the state and the screen size. Only the rows
/// on screen are looked at, so 100,000 keys cost what 100 do.
public struct MenuRenderer: Sendable {
    /// Whether to use colours (off for `NO_COLOR`; bold, dim, reverse and underline stay).
    public var colors: Bool

    /// Creates a renderer.
    public init(colors: Bool = true) {
        self.colors = colors
    }

    private var theme: MenuTheme { MenuTheme(colors: colors) }

    /// The screen for `state`.
    public func render(_ state: MenuState) -> ScreenGrid {
        var grid = ScreenGrid(width: state.width, height: state.height)
        let layout = state.layout
        guard !layout.isTooSmall else {
            drawTooSmall(&grid, state)
            return grid
        }
        drawTitle(&grid, state)
        drawModules(&grid, state, layout)
        drawKeys(&grid, state, layout)
        switch state.mode {
        case .editing(let editor): drawLineEditor(&grid, state, editor, layout)
        default: drawDetails(&grid, state, layout)
        }
        drawFooter(&grid, state, layout)
        switch state.mode {
        case .editingJSON(let editor): drawJSONEditor(&grid, state, editor, layout)
        case .picking(let picker): drawPicker(&grid, state, picker)
        case .confirming(let confirmation): drawConfirmation(&grid, state, confirmation)
        case .help(let context, _): drawHelp(&grid, state, context)
        default: break
        }
        return grid
    }

    // MARK: Frame

    private func drawTooSmall(_ grid: inout ScreenGrid, _ state: MenuState) {
        let lines = [
            "Terminal too small: \(state.width)×\(state.height).",
            "The menu needs at least \(MenuLayout.minimumWidth)×\(MenuLayout.minimumHeight).",
            "Enlarge the window, or press q to quit.",
        ]
        for (offset, line) in lines.enumerated() {
            let text = TextWidth.truncate(line, to: state.width)
            let y = max(0, state.height / 2 - 1 + offset)
            grid.write(
                text, x: max(0, (state.width - TextWidth.of(text)) / 2), y: y,
                style: offset == 0 ? theme.problem : theme.text)
        }
    }

    private func drawTitle(_ grid: inout ScreenGrid, _ state: MenuState) {
        let data = state.data
        grid.fill(x: 0, y: 0, width: state.width, height: 1, style: theme.titleBar)
        let left =
            " ServiceConfiguration · \(data.label) · \(data.table.keys.count) keys · \(data.overrideCount) overridden"
        let end = grid.write(TextWidth.truncate(left, to: state.width - 1), x: 0, y: 0, style: theme.titleBar)
        let right: String
        let style: CellStyle
        if let problem = data.storeProblem {
            right = "store error: \(problem) "
            style = theme.titleBarError
        } else if let path = data.storePath {
            right = "store: \(path) "
            style = theme.titleBar
        } else {
            right = "overrides in memory "
            style = theme.titleBar
        }
        let room = state.width - end - 2
        guard room > 16 else { return }
        let prefix = right.hasPrefix("store: ") ? "store: …" : "…"
        let shown = TextWidth.of(right) <= room ? right : prefix + String(right.suffix(room - TextWidth.of(prefix)))
        grid.write(shown, x: state.width - TextWidth.of(shown), y: 0, style: style)
    }

    private func drawModules(_ grid: inout ScreenGrid, _ state: MenuState, _ layout: MenuLayout) {
        let box = layout.modules
        let focused = state.focus == .modules && state.mode == .browsing
        grid.box(
            x: box.x, y: box.y, width: box.width, height: box.height, title: "Modules",
            style: focused ? theme.focusedBorder : theme.border)
        let inner = box.width - 2
        let numbers = 11
        let nameWidth = inner - numbers - 1
        grid.write(
            pad("Module", nameWidth) + String(repeating: " ", count: numbers - 8) + "keys ovr", x: box.x + 1,
            y: box.y + 1, style: theme.columnHeader, maxX: box.x + box.width - 1)
        let selected = state.scope.map { $0 + 1 } ?? 0
        for row in 0..<layout.moduleRows {
            let index = state.moduleScroll + row
            guard index < state.moduleCount else { break }
            let name: String
            let keys: Int
            let overrides: Int
            if index == 0 {
                name = "All"
                keys = state.data.table.keys.count
                overrides = state.data.overrideCount
            } else {
                let scope = state.data.table.scopes[index - 1]
                name = scope.name
                keys = scope.range.count
                overrides = state.data.scopeOverrideCounts[index - 1]
            }
            let y = layout.firstModuleRow + row
            let numbersText = leftPad(String(keys), 6) + leftPad(overrides > 0 ? String(overrides) : "", 4)
            let line = " " + pad(TextWidth.truncate(name, to: nameWidth - 1), nameWidth - 1) + numbersText + " "
            let style: CellStyle = index == selected ? (focused ? theme.selected : theme.selectedUnfocused) : theme.text
            grid.write(line, x: box.x + 1, y: y, style: style, maxX: box.x + box.width - 1)
            if overrides > 0, index != selected {
                grid.restyle(x: box.x + 1 + nameWidth + 6, y: y, count: 4) { $0 = theme.source(.overridden) }
            }
        }
    }

    // MARK: Key list

    private struct Columns {
        var title: Int
        var name: Int
        var value: Int
        static let source = 10
        static let flags = 3
    }

    private func columns(innerWidth: Int) -> Columns {
        let rest = max(12, innerWidth - 1 - Columns.source - Columns.flags - 4)
        let title = rest * 27 / 100
        let name = rest * 46 / 100
        return Columns(title: title, name: name, value: rest - title - name)
    }

    private func drawKeys(_ grid: inout ScreenGrid, _ state: MenuState, _ layout: MenuLayout) {
        let box = layout.keys
        let focused = state.focus == .keys && state.mode == .browsing
        grid.box(
            x: box.x, y: box.y, width: box.width, height: box.height, title: keyPaneTitle(state),
            style: focused || isFiltering(state) ? theme.focusedBorder : theme.border)
        let inner = box.width - 2
        let columns = columns(innerWidth: inner)
        let matcher = FuzzyMatcher(query: state.query)
        if state.rows.isEmpty {
            let message =
                state.data.table.keys.isEmpty
                ? "The catalog has no keys." : "No keys match the filters. Esc clears them."
            grid.write(message, x: box.x + 2, y: box.y + 1, style: theme.muted, maxX: box.x + box.width - 1)
        }
        for line in 0..<layout.keyRows {
            let index = state.scroll + line
            guard index < state.rows.count else { break }
            let y = box.y + 1 + line
            let isSelected = index == state.selection
            switch state.rows[index] {
            case .heading(let scope):
                let info = state.data.table.scopes[scope]
                let overrides = state.data.scopeOverrideCounts[scope]
                var text = "── \(info.name) · \(info.range.count) keys"
                if overrides > 0 { text += " · \(overrides) overridden" }
                text += " "
                grid.write(
                    text + String(repeating: "─", count: max(0, inner - TextWidth.of(text))), x: box.x + 1, y: y,
                    style: theme.heading, maxX: box.x + box.width - 1)
            case .orphanHeading:
                let text = "── Orphaned overrides (keys not in this catalog) "
                grid.write(
                    text + String(repeating: "─", count: max(0, inner - TextWidth.of(text))), x: box.x + 1, y: y,
                    style: theme.problem, maxX: box.x + box.width - 1)
            case .key(let key):
                drawKeyRow(
                    &grid, state, key: key, y: y, x: box.x + 1, width: inner, columns: columns, selected: isSelected,
                    matcher: matcher)
            case .orphan(let orphan):
                let info = state.data.orphans[orphan]
                let row = Row(
                    title: "(orphaned)", name: info.name, value: info.override.value, source: "OVERRIDDEN", flags: "?")
                drawRow(
                    &grid, row, x: box.x + 1, y: y, width: inner, columns: columns, selected: isSelected,
                    focused: focused || isFiltering(state), sourceStyle: theme.source(.overridden))
            }
        }
        if state.rows.count > layout.keyRows {
            let position = "\(state.rows.isEmpty ? 0 : state.selection + 1)/\(state.rows.count)"
            grid.write(
                " \(position) ", x: box.x + box.width - TextWidth.of(position) - 4, y: box.y + box.height - 1,
                style: theme.border)
        }
    }

    private func isFiltering(_ state: MenuState) -> Bool {
        if case .filtering = state.mode { return true }
        return false
    }

    private func keyPaneTitle(_ state: MenuState) -> String {
        var parts = ["Keys"]
        if !state.query.isEmpty || state.scope != nil || state.onlyOverridden || state.onlyProblems {
            parts.append("\(state.keyRowCount) of \(state.data.table.keys.count)")
        }
        if let scope = state.scope { parts.append(state.data.table.scopes[scope].name) }
        if !state.query.isEmpty { parts.append("/\(state.query)") }
        if state.onlyOverridden { parts.append("overridden only") }
        if state.onlyProblems { parts.append("problems only") }
        return parts.joined(separator: " · ")
    }

    private struct Row {
        var title: String
        var name: String
        var value: String
        var source: String
        var flags: String
    }

    private func drawKeyRow(
        _ grid: inout ScreenGrid,
        _ state: MenuState,
        key: Int,
        y: Int,
        x: Int,
        width: Int,
        columns: Columns,
        selected: Bool,
        matcher: FuzzyMatcher
    ) {
        let descriptor = state.data.table.keys[key].descriptor
        let status = state.data.statuses[key]
        var flags = ""
        if status.isRejected { flags += "!" }
        if status.isStale { flags += "~" }
        let row = Row(
            title: descriptor.title,
            name: descriptor.name,
            value: ValueText.short(status.value, of: descriptor),
            source: status.source.description,
            flags: flags
        )
        let focused = state.focus == .keys && (state.mode == .browsing || isFiltering(state))
        drawRow(
            &grid, row, x: x, y: y, width: width, columns: columns, selected: selected, focused: focused,
            sourceStyle: theme.source(status.source))
        guard !matcher.isEmpty else { return }
        // Highlight the matched characters of the title and the wire name.
        let positions = Set(matcher.positions(in: state.data.table, key: key))
        let titleBytes = descriptor.title.utf8.count
        highlight(
            &grid, text: row.title, byteOffset: 0, positions: positions, x: x + 1, y: y, width: columns.title,
            selected: selected)
        highlight(
            &grid, text: row.name, byteOffset: titleBytes + 1, positions: positions, x: x + 2 + columns.title, y: y,
            width: columns.name, selected: selected)
    }

    private func highlight(
        _ grid: inout ScreenGrid,
        text: String,
        byteOffset: Int,
        positions: Set<Int>,
        x: Int,
        y: Int,
        width: Int,
        selected: Bool
    ) {
        var byte = byteOffset
        var column = x
        let limit = x + width - (TextWidth.of(text) > width ? 1 : 0)  // a truncated text ends in "…"
        for character in text {
            let columns = TextWidth.of(character)
            guard column + columns <= limit else { break }
            let bytes = String(character).utf8.count
            if (byte..<(byte + bytes)).contains(where: positions.contains) {
                grid.restyle(x: column, y: y, count: columns) { style in
                    style.bold = true
                    style.underline = true
                    if colors && !selected { style.foreground = .magenta }
                }
            }
            byte += bytes
            column += columns
        }
    }

    private func drawRow(
        _ grid: inout ScreenGrid,
        _ row: Row,
        x: Int,
        y: Int,
        width: Int,
        columns: Columns,
        selected: Bool,
        focused: Bool,
        sourceStyle: CellStyle
    ) {
        let base = selected ? (focused ? theme.selected : theme.selectedUnfocused) : theme.text
        grid.fill(x: x, y: y, width: width, height: 1, style: base)
        var column = x + 1
        grid.write(TextWidth.truncate(row.title, to: columns.title), x: column, y: y, style: base)
        column = x + 2 + columns.title
        grid.write(TextWidth.truncate(row.name, to: columns.name), x: column, y: y, style: base)
        column += columns.name + 1
        grid.write(TextWidth.truncate(row.value, to: columns.value), x: column, y: y, style: base)
        column += columns.value + 1
        var source = sourceStyle
        if selected { source = base.merging(bold: sourceStyle.bold) }
        grid.write(row.source, x: column, y: y, style: source)
        column += Columns.source + 1
        grid.write(
            row.flags, x: column, y: y, style: selected ? base.merging(bold: true) : theme.problem, maxX: x + width)
    }

    // MARK: Details

    private func drawDetails(_ grid: inout ScreenGrid, _ state: MenuState, _ layout: MenuLayout) {
        let box = layout.details
        grid.box(x: box.x, y: box.y, width: box.width, height: box.height, title: "Details", style: theme.border)
        let lines: [[(String, CellStyle)]]
        if let key = state.selectedKey {
            lines = detailLines(state, key: key)
        } else if let orphan = state.selectedOrphan {
            let info = state.data.orphans[orphan]
            lines = [
                [(info.name, theme.label), ("  orphaned override", theme.problem)],
                [("Override  ", theme.muted), (info.override.value, theme.text)] + metadata(info.override.entry),
                [
                    (
                        "This program's catalog has no key by that name (removed, or the store comes from another build).",
                        theme.muted
                    )
                ],
                [("It stays in the store until you reset it: r removes it.", theme.muted)],
            ]
        } else {
            lines = [[("Select a key to see where its value comes from.", theme.muted)]]
        }
        for (offset, segments) in lines.prefix(box.height - 2).enumerated() {
            var x = box.x + 2
            for (text, style) in segments {
                x = grid.write(text, x: x, y: box.y + 1 + offset, style: style, maxX: box.x + box.width - 2)
            }
            if x >= box.x + box.width - 2, let last = segments.last, !last.0.isEmpty {
                grid.write("…", x: box.x + box.width - 3, y: box.y + 1 + offset, style: theme.muted)
            }
        }
    }

    private func detailLines(_ state: MenuState, key: Int) -> [[(String, CellStyle)]] {
        let descriptor = state.data.table.keys[key].descriptor
        let status = state.data.statuses[key]
        let scope = state.data.table.scopes[state.data.table.keys[key].scope].name
        var lines: [[(String, CellStyle)]] = [
            [
                (descriptor.title, theme.label), ("  \(descriptor.name)", theme.text),
                ("  \(scope) · \(descriptor.valueTypeName) · \(descriptor.control.kindName)", theme.muted),
            ],
            [
                ("Value     ", theme.muted), (ValueText.short(status.value, of: descriptor), theme.text),
                ("  \(status.source)", theme.source(status.source)),
                ("   default \(ValueText.quoted(descriptor.defaultValueString))", theme.muted),
            ],
        ]
        var server: [(String, CellStyle)] = [
            ("Server    ", theme.muted), (ValueText.quoted(status.serverValue), theme.text),
        ]
        if let rejection = status.rejections.first(where: { $0.source == .server }) {
            server.append(("  ✗ rejected: \(rejection.reason)", theme.problem))
        }
        lines.append(server)
        var override: [(String, CellStyle)] = [("Override  ", theme.muted)]
        if let info = status.override {
            override.append((ValueText.quoted(info.value), theme.source(.overridden)))
            override += metadata(info.entry)
            if let rejection = status.rejections.first(where: { $0.source == .overridden }) {
                override.append(("  ✗ not applied: \(rejection.reason)", theme.problem))
            }
        } else {
            override.append(("none", theme.muted))
        }
        lines.append(override)
        if status.isStale, let entry = status.override?.entry {
            lines.append([
                (
                    "~ stale: the server sent \(ValueText.quoted(entry.serverValueWhenSet)) when this was set and sends \(ValueText.quoted(status.serverValue)) now",
                    theme.problem
                )
            ])
        }
        if let summary = descriptor.summary { lines.append([(summary, theme.muted)]) }
        if case .picker(let choices) = descriptor.control {
            lines.append([("Choices   ", theme.muted), (choices.map(\.title).joined(separator: ", "), theme.muted)])
        }
        return lines
    }

    private func metadata(_ entry: OverrideEntry?) -> [(String, CellStyle)] {
        guard let entry else { return [] }
        var parts: [String] = []
        if let setAt = entry.setAt { parts.append("set \(ValueText.time(setAt))") }
        if let note = entry.note { parts.append("note: \(note)") }
        return parts.isEmpty ? [] : [("  · " + parts.joined(separator: " · "), theme.muted)]
    }

    // MARK: Editors and overlays

    private func drawLineEditor(
        _ grid: inout ScreenGrid, _ state: MenuState, _ editor: TextEditor, _ layout: MenuLayout
    ) {
        let box = layout.details
        let descriptor = state.data.table.keys[editor.key].descriptor
        grid.box(
            x: box.x, y: box.y, width: box.width, height: box.height,
            title: "Edit \(descriptor.name) · \(descriptor.control.kindName)", style: theme.overlayBorder)
        let fieldWidth = box.width - 6
        let text = String(editor.text)
        // Scroll the field horizontally so the caret stays visible.
        let caretColumn = TextWidth.of(String(editor.text.prefix(editor.cursor)))
        let offset = max(0, caretColumn - fieldWidth + 1)
        var visible = ""
        var skipped = 0
        for character in text {
            if skipped < offset {
                skipped += TextWidth.of(character)
                continue
            }
            visible.append(character)
        }
        grid.write("> ", x: box.x + 2, y: box.y + 1, style: theme.key)
        grid.write(visible, x: box.x + 4, y: box.y + 1, style: CellStyle(underline: true), maxX: box.x + 4 + fieldWidth)
        grid.cursor = (box.x + 4 + caretColumn - offset, box.y + 1)
        switch editor.validation {
        case .valid(let canonical):
            grid.write(
                "✓ valid: \(canonical)", x: box.x + 2, y: box.y + 2, style: theme.valid, maxX: box.x + box.width - 2)
        case .invalid(let reason):
            grid.write("✗ \(reason)", x: box.x + 2, y: box.y + 2, style: theme.problem, maxX: box.x + box.width - 2)
        }
        if box.height > 4 {
            grid.write(
                "default \(ValueText.quoted(descriptor.defaultValueString)) · \(descriptor.valueTypeName)",
                x: box.x + 2, y: box.y + 3, style: theme.muted, maxX: box.x + box.width - 2)
        }
    }

    private func drawJSONEditor(
        _ grid: inout ScreenGrid, _ state: MenuState, _ editor: JSONEditor, _ layout: MenuLayout
    ) {
        let descriptor = state.data.table.keys[editor.key].descriptor
        let top = 1
        let height = state.height - 2
        grid.fill(x: 0, y: top, width: state.width, height: height)
        grid.box(
            x: 0, y: top, width: state.width, height: height, title: "Edit JSON · \(descriptor.name)",
            style: theme.overlayBorder)
        let rows = MenuReducer.jsonEditorRows(state)
        let gutter = 5
        for line in 0..<rows {
            let index = editor.scroll + line
            guard index < editor.lines.count else { break }
            let y = top + 1 + line
            grid.write(leftPad(String(index + 1), gutter - 1) + " ", x: 1, y: y, style: theme.muted)
            grid.write(String(editor.lines[index]), x: 1 + gutter, y: y, maxX: state.width - 1)
        }
        let caretColumn = TextWidth.of(String(editor.lines[editor.row].prefix(editor.column)))
        grid.cursor = (min(state.width - 2, 1 + gutter + caretColumn), top + 1 + editor.row - editor.scroll)
        let statusY = top + height - 2
        switch editor.validation {
        case .valid:
            grid.write(
                "✓ valid JSON for \(descriptor.valueTypeName)", x: 2, y: statusY, style: theme.valid,
                maxX: state.width - 2)
        case .invalid(let reason):
            grid.write("✗ \(reason)", x: 2, y: statusY, style: theme.problem, maxX: state.width - 2)
        }
    }

    private func centeredBox(_ grid: inout ScreenGrid, _ state: MenuState, width: Int, height: Int, title: String)
        -> MenuLayout.Rect
    {
        let width = min(width, state.width - 2)
        let height = min(height, state.height - 2)
        let rect = MenuLayout.Rect(
            x: (state.width - width) / 2, y: max(1, (state.height - height) / 2), width: width, height: height)
        grid.fill(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        grid.box(x: rect.x, y: rect.y, width: rect.width, height: rect.height, title: title, style: theme.overlayBorder)
        return rect
    }

    private func drawPicker(_ grid: inout ScreenGrid, _ state: MenuState, _ picker: Picker) {
        let descriptor = state.data.table.keys[picker.key].descriptor
        let widest = picker.choices.map { TextWidth.of($0.title) }.max() ?? 0
        let rect = centeredBox(
            &grid, state, width: max(40, widest + 14), height: picker.choices.count + 4,
            title: "Choose \(descriptor.title)")
        let rows = rect.height - 4
        let first = max(0, min(picker.selected - rows / 2, picker.choices.count - rows))
        for line in 0..<rows {
            let index = first + line
            guard index < picker.choices.count else { break }
            let choice = picker.choices[index]
            let marker = index == picker.current ? "● " : "○ "
            var text = " " + marker + choice.title
            if index == picker.current { text += "  (current)" }
            let style = index == picker.selected ? theme.selected : theme.text
            grid.fill(x: rect.x + 1, y: rect.y + 1 + line, width: rect.width - 2, height: 1, style: style)
            grid.write(text, x: rect.x + 1, y: rect.y + 1 + line, style: style, maxX: rect.x + rect.width - 1)
        }
        grid.write(
            descriptor.name, x: rect.x + 2, y: rect.y + rect.height - 2, style: theme.muted,
            maxX: rect.x + rect.width - 2)
    }

    private func drawConfirmation(_ grid: inout ScreenGrid, _ state: MenuState, _ confirmation: Confirmation) {
        let question: String
        switch confirmation {
        case .resetAll(let count): question = "Reset all \(count) override\(count == 1 ? "" : "s")?"
        case .resetScope(let name, let keys):
            question = "Reset \(keys.count) override\(keys.count == 1 ? "" : "s") in \(name)?"
        }
        let hint = "y resets · n, Enter or Esc keeps · u undoes a reset"
        let rect = centeredBox(
            &grid, state, width: max(TextWidth.of(hint), TextWidth.of(question)) + 8, height: 6, title: "Confirm")
        grid.write(question, x: rect.x + 3, y: rect.y + 2, style: theme.label, maxX: rect.x + rect.width - 2)
        grid.write(hint, x: rect.x + 3, y: rect.y + 3, style: theme.muted, maxX: rect.x + rect.width - 2)
    }

    private func drawHelp(_ grid: inout ScreenGrid, _ state: MenuState, _ context: KeymapContext) {
        let bindings = Keymap.bindings(for: context)
        var lines: [(String, String)] = bindings.map { ($0.keyLabel, $0.help) }
        if context == .keys || context == .modules {
            lines.append(("", ""))
            lines.append(("Sources", "OVERRIDDEN (set here) > SERVER (last sync) > DEFAULT"))
            lines.append(("Flags", "! rejected value · ~ stale override · ? orphaned override"))
            lines.append(("Mouse", "click selects, the wheel scrolls (config-menu --no-mouse turns it off)"))
        }
        let keyWidth = min(22, (lines.map { TextWidth.of($0.0) }.max() ?? 0) + 2)
        let rect = centeredBox(
            &grid, state, width: min(state.width - 4, 100), height: lines.count + 4,
            title: "Help · \(context.title) · Esc closes")
        for (offset, line) in lines.prefix(rect.height - 3).enumerated() {
            let y = rect.y + 2 + offset
            grid.write(line.0, x: rect.x + 3, y: y, style: theme.key, maxX: rect.x + 3 + keyWidth)
            grid.write(line.1, x: rect.x + 3 + keyWidth, y: y, style: theme.text, maxX: rect.x + rect.width - 2)
        }
    }

    // MARK: Footer

    private func drawFooter(_ grid: inout ScreenGrid, _ state: MenuState, _ layout: MenuLayout) {
        let y = layout.footerRow
        if case .filtering = state.mode {
            let end = grid.write("/" + state.query, x: 0, y: y, style: theme.label)
            grid.cursor = (min(end, state.width - 1), y)
            drawHints(&grid, Keymap.bindings(for: .filtering), x: end + 3, y: y, width: state.width)
            return
        }
        if let status = state.status {
            grid.write(
                " " + status.text, x: 0, y: y, style: status.isError ? theme.problem : theme.label, maxX: state.width)
            return
        }
        drawHints(&grid, Keymap.bindings(for: state.keymapContext), x: 1, y: y, width: state.width)
    }

    private func drawHints(_ grid: inout ScreenGrid, _ bindings: [KeyBinding], x: Int, y: Int, width: Int) {
        var column = x
        for binding in bindings {
            guard let hint = binding.hint, let key = binding.keys.first?.label else { continue }
            let needed = TextWidth.of(key) + 1 + TextWidth.of(hint) + 2
            guard column + needed <= width else { break }
            column = grid.write(key, x: column, y: y, style: theme.key)
            column = grid.write(" " + hint + "  ", x: column, y: y, style: theme.muted)
        }
    }
}

private func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - TextWidth.of(text)))
}

private func leftPad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - TextWidth.of(text))) + text
}

extension CellStyle {
    func merging(bold: Bool) -> CellStyle {
        var copy = self
        copy.bold = copy.bold || bold
        return copy
    }
}

/// How values are written on screen.
enum ValueText {
    /// A value in the key list: toggles as `[x] Y` / `[ ] N`, others as their wire string on one line.
    static func short(_ value: String?, of descriptor: ConfigurationKeyDescriptor) -> String {
        guard let value else { return "—" }
        if descriptor.control == .toggle { return (value == descriptor.toggleStrings.on ? "[x] " : "[ ] ") + value }
        return value.replacingOccurrences(of: "\n", with: "⏎")
    }

    /// A wire string in quotes, or "none".
    static func quoted(_ value: String?) -> String {
        guard let value else { return "none" }
        let shown = value.count > 120 ? String(value.prefix(119)) + "…" : value
        return "\"\(shown.replacingOccurrences(of: "\n", with: "⏎"))\""
    }

    /// A UTC time to the minute: `2026-11-29 14:05 UTC` (no clocks that change on screen).
    static func time(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }
}
