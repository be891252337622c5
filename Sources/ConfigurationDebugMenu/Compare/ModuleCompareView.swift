import ServiceConfiguration

/// One module's keys side by side (`C`): each key's default, server value and override, the one in effect
/// highlighted in its source's colour and the keys whose value now differs from the default marked `≠` — what a
/// developer asks QA for when a bug report arrives. `y` copies the table as Markdown for the report, `f` lists only
/// the differences, Enter goes to the selected key in the list.
package struct ModuleCompareView: OpenableComponent {
    /// The module, by index in the ``KeyTable``'s scopes.
    package var scope: Int
    /// Whether only keys whose value now differs from their default are listed.
    package var onlyDifferences = false
    /// The selected row.
    package var selection = 0
    /// The first row shown.
    package var scroll = 0

    package init(scope: Int) {
        self.scope = scope
    }

    /// `C`: the module of the selected key, or the one highlighted in the module pane.
    package static func open(_ state: inout MenuState) -> MenuOutcome {
        guard let scope = BrowseScreen.scopeToReset(state) else {
            state.inform("Select a module (or a key in it) to compare its keys")
            return .stay
        }
        var view = ModuleCompareView(scope: scope)
        if let key = state.selectedKey, let row = view.rows(state.data).firstIndex(of: key) { view.selection = row }
        return .go(.comparing(view))
    }

    package var mode: MenuState.Mode { .comparing(self) }

    package var placement: MenuPlacement { .body }

    package func keymap(in menu: MenuState) -> Keymap { .compare }

    /// The keys listed, by index in the ``KeyTable``.
    package func rows(_ data: MenuData) -> [Int] {
        let keys = Array(data.table.scopes[scope].range)
        return onlyDifferences ? keys.filter { Self.differs(data.statuses[$0], data.table.keys[$0].descriptor) } : keys
    }

    /// Whether the key's value now differs from its default.
    static func differs(_ status: ConfigurationKeyStatus, _ descriptor: ConfigurationKeyDescriptor) -> Bool {
        status.value != descriptor.defaultValueString
    }

    /// The rows of the table in `box` (under its header line, above the selected key's lines).
    static func tableRows(in box: Rect) -> Rect {
        let inner = box.inset(by: 1)
        return inner.rows(1..<max(2, inner.height - 3))
    }

    package mutating func update(_ intent: MenuIntent, menu state: inout MenuState) -> MenuOutcome {
        let rows = rows(state.data)
        let visible = Self.tableRows(in: state.layout.body).height
        switch intent {
        case .closeView: return .go(.browsing)
        case .toggleHistoryFilter:
            onlyDifferences.toggle()
            selection = 0
            scroll = 0
            if onlyDifferences, self.rows(state.data).isEmpty {
                state.inform("Every key of \(state.data.table.scopes[scope].name) has its default value")
            }
            return .stay
        case .openCopyMenu:
            let name = state.data.table.scopes[scope].name
            state.inform(
                "Sent the comparison of \(name) (\(rows.count) keys, Markdown) to the terminal's clipboard (OSC 52)")
            return .stay([.copyToClipboard(markdown(state.data))])
        case .activate:
            guard rows.indices.contains(selection) else { return .stay }
            let key = rows[selection]
            let shown = state.list.rows.firstIndex(of: .key(key))
            guard let shown else {
                state.inform(
                    "\(state.data.table.keys[key].descriptor.name) is hidden by the filters; Esc in the list clears them"
                )
                return .go(.browsing)
            }
            state.list.selection = shown
            state.focus = .keys
            state.list.keepVisible(visibleRows: state.visibleKeyRows)
            return .go(.browsing)
        case .move(let delta): selection += delta
        case .page(let direction): selection += direction * max(1, visible - 1)
        case .top: selection = 0
        case .bottom: selection = rows.count - 1
        default: return .ignored
        }
        selection = max(0, min(selection, rows.count - 1))
        if selection < scroll { scroll = selection }
        if selection >= scroll + visible { scroll = selection - visible + 1 }
        return .stay
    }

    /// The table as Markdown, for a bug report: one row per key, the value in effect in bold.
    package func markdown(_ data: MenuData) -> String {
        let info = data.table.scopes[scope]
        func cell(_ value: String?, bold: Bool) -> String {
            guard let value else { return "—" }
            let escaped = VisibleText.escaped(value).replacingOccurrences(of: "|", with: "\\|")
            let code = "`" + escaped.replacingOccurrences(of: "`", with: "'") + "`"
            return bold ? "**" + code + "**" : code
        }
        var lines = [
            "\(info.name): default, server value and override of each key (in effect: bold; ≠: differs from default)",
            "", "| | key | default | server | override |", "|---|---|---|---|---|",
        ]
        for key in rows(data) {
            let status = data.statuses[key]
            let descriptor = data.table.keys[key].descriptor
            lines.append(
                "| \(Self.differs(status, descriptor) ? "≠" : "") | \(descriptor.name) | "
                    + "\(cell(descriptor.defaultValueString, bold: status.source == .default)) | "
                    + cell(status.serverValue, bold: status.source == .server)
                    + (status.isServerValueRejected ? " (refused)" : "") + " | "
                    + cell(status.override?.value, bold: status.source == .overridden)
                    + (status.isOverrideNotApplied ? " (refused)" : "") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Draws the table and the selected key whole under it.
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let data = menu.data
        let info = data.table.scopes[scope]
        let all = Array(info.range)
        let differing = all.filter { Self.differs(data.statuses[$0], data.table.keys[$0].descriptor) }.count
        let rows = rows(data)
        grid.fill(box)
        var title = "Compare · \(info.name) · \(all.count) keys"
        if !info.namePrefix.isEmpty { title += " · \(info.namePrefix)*" }
        title += " · \(differing) differ from their default"
        if onlyDifferences { title += " · only those shown" }
        let inner = grid.box(box, title: title, style: theme.focusedBorder)
        let table = Self.tableRows(in: box)
        // Columns: a mark, the key (its short name), then default, server and override sharing what is left.
        let nameWidth = min(
            max(12, rows.map { TextWidth.of(data.table.shortName(of: $0)) }.max() ?? 12), max(12, inner.width / 3))
        let valueWidth = max(4, (inner.width - 3 - nameWidth - 3) / 3)
        let nameX = 3
        let valueX = (0..<3).map { nameX + nameWidth + 1 + $0 * (valueWidth + 1) }
        let header = inner.row(0)
        for (text, x) in zip(["key", "default", "server", "override"], [nameX] + valueX) {
            grid.write(text, x: header.x + x, y: header.y, style: theme.heading, maxX: header.maxX)
        }
        if rows.isEmpty {
            grid.write(
                "No key of \(info.name) differs from its default. f lists them all.", in: table.row(0).inset(left: 1),
                style: theme.muted)
        }
        for line in 0..<table.height {
            let index = scroll + line
            guard index < rows.count else { break }
            let key = rows[index]
            let status = data.statuses[key]
            let descriptor = data.table.keys[key].descriptor
            let rect = table.row(line)
            let selected = index == selection
            let base = selected ? theme.selected : theme.text
            grid.fill(rect, style: base)
            if Self.differs(status, descriptor) {
                grid.write("≠", x: rect.x + 1, y: rect.y, style: selected ? base : theme.problem, maxX: rect.maxX)
            }
            grid.write(
                TextWidth.truncateMiddle(data.table.shortName(of: key), to: nameWidth), x: rect.x + nameX,
                y: rect.y, style: base, maxX: rect.maxX)
            let cells: [(String?, ValueOrigin)] = [
                (descriptor.defaultValueString, .default), (status.serverValue, .server),
                (status.override?.value, .overridden),
            ]
            for (offset, (value, source)) in cells.enumerated() {
                let inEffect = status.source == source && value != nil
                // A value the key refuses (a bad server value, an override not applied) says so.
                let refused =
                    source == .server
                    ? status.isServerValueRejected : source == .overridden && status.isOverrideNotApplied
                let style = selected ? base : refused ? theme.problem : inEffect ? theme.source(source) : theme.muted
                let text = (value ?? "—") + (refused ? " ✗ refused" : "")
                grid.write(
                    TextWidth.truncate(text, to: valueWidth), x: rect.x + valueX[offset], y: rect.y,
                    style: style, maxX: min(rect.maxX, rect.x + valueX[offset] + valueWidth))
            }
        }
        drawSelected(&grid, rows: rows, data: data, in: inner.rows(max(1, inner.height - 2)..<inner.height), theme)
    }

    /// The selected key under the table: its whole name, where its value comes from, and its override's note.
    private func drawSelected(_ grid: inout ScreenGrid, rows: [Int], data: MenuData, in rect: Rect, _ theme: MenuTheme)
    {
        guard rows.indices.contains(selection), rect.height > 0 else { return }
        let key = rows[selection]
        let status = data.statuses[key]
        let descriptor = data.table.keys[key].descriptor
        grid.write(String(repeating: "─", count: rect.width), in: rect.row(0), style: theme.border)
        guard rect.height > 1 else { return }
        var text = " \(descriptor.name) = \(ValueText.quoted(status.value)) from \(status.source)"
        if let note = status.override?.note { text += " · note: \(note)" }
        if let expiration = status.expiration { text += " · expired (\(expiration))" }
        grid.write(text, in: rect.row(1), style: theme.text)
    }
}

extension MenuIntent {
    /// Compare the selected module's keys side by side.
    package static let openCompare = MenuIntent.open(ComponentType(ModuleCompareView.self))
}

extension Keymap {
    /// The compare view's keys.
    package static let compare = Keymap(
        "compare", title: "Comparing a module",
        choiceMoves("key") + [
            bind([.pageDown, .control("f")], .page(1), "next page"),
            bind([.pageUp, .control("b")], .page(-1), "previous page"),
            bind([.enter], .activate, "go to the selected key in the list", hint: "go to key", priority: 10),
            bind(
                [.character("f")], .toggleHistoryFilter, "only the keys whose value differs from the default, or all",
                hint: "differences", priority: 20),
            bind(
                [.character("y")], .openCopyMenu, "copy the table as Markdown, for a bug report (OSC 52)",
                hint: "copy table", priority: 30),
            showMessages,
            closeView,
            bind([.character("C")], .closeView, "back to the key list"),
            showHelp,
            quit,
        ], wheel: .moves)
}
