import Foundation
package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The history of changes, newest first: when, who (this menu, the command line, a program, a hand edit), what; the
/// selected change in full below. `f` narrows it to the key selected in the list, `u` undoes the selected change.
package struct HistoryView: OpenableComponent {
    /// The selected row.
    package var selection = 0
    /// The first row shown.
    package var scroll = 0
    /// The key selected in the list when the history was opened (what `f` narrows to).
    package var key: String?
    /// Whether only `key`'s changes are listed.
    package var onlyKey = false

    package init(key: String?) {
        self.key = key
    }

    /// The changes listed, newest first (a change not recorded yet, such as a hand edit, on top).
    package func rows(_ history: OverrideHistory) -> [OverrideJournalRecord] {
        let all = history.changes.reversed()
        guard onlyKey, let key else { return Array(all) }
        return all.filter { record in record.changes.contains { $0.key == key } }
    }

    /// The rows the list shows in `box`.
    static func listRows(in box: Rect) -> Rect {
        let inner = box.inset(by: 1)
        return inner.rows(0..<max(1, inner.height - detailsHeight(inner)))
    }

    private static func detailsHeight(_ inner: Rect) -> Int { min(9, max(3, inner.height / 3)) }

    /// Keeps the same change selected when the history changes from `old` to `new` (changes made meanwhile are
    /// listed above it), with `visibleRows` rows on screen.
    package mutating func follow(from old: OverrideHistory, to new: OverrideHistory, visibleRows: Int) {
        let before = rows(old)
        let after = rows(new)
        guard before.indices.contains(selection), let record = new.change(matching: before[selection]),
            let index = after.firstIndex(of: record)
        else {
            selection = max(0, min(selection, after.count - 1))
            return
        }
        selection = index
        if selection < scroll { scroll = selection }
        if selection >= scroll + visibleRows { scroll = selection - visibleRows + 1 }
    }

    /// Moves the selection, or narrows to the key; returns `false` for any other intent.
    mutating func select(_ intent: MenuIntent, count: Int, visibleRows: Int) -> Bool {
        switch intent {
        case .move(let delta): selection += delta
        case .page(let direction): selection += direction * max(1, visibleRows - 1)
        case .top: selection = 0
        case .bottom: selection = count - 1
        case .toggleHistoryFilter:
            guard key != nil else { return false }
            onlyKey.toggle()
            selection = 0
            scroll = 0
        default: return false
        }
        selection = max(0, min(selection, count - 1))
        if selection < scroll { scroll = selection }
        if selection >= scroll + visibleRows { scroll = selection - visibleRows + 1 }
        return true
    }

    /// Draws the list and the selected change in `box`; the menu's own changes say "you".
    package func draw(into grid: inout ScreenGrid, in box: Rect, menu: MenuState, theme: MenuTheme) {
        let history = menu.data.history
        let origin = menu.data.origin
        let rows = rows(history)
        grid.fill(box)
        var title = onlyKey ? "History of \(key ?? "") · \(rows.count)" : "History · \(rows.count)"
        title += rows.count == 1 ? " change" : " changes"
        let inner = grid.box(box, title: title + " (newest first)", style: theme.focusedBorder)
        guard history.isKept else {
            grid.write(
                "This store keeps no history (file and etcd stores keep one).", in: inner.row(0).inset(left: 1),
                style: theme.muted)
            return
        }
        // A change is shown undone while its undo stands; a redo of that undo makes it stand again.
        let redone = Set(history.records.compactMap { $0.reason.action == .redo ? $0.reason.undoes : nil })
        let undone = Set(
            history.records.compactMap { $0.reason.action == .undo && !redone.contains($0.id) ? $0.reason.undoes : nil }
        )
        let list = Self.listRows(in: box)
        if rows.isEmpty {
            grid.write(
                onlyKey ? "No recorded change of this key. f shows every change." : "No change is recorded yet.",
                in: list.row(0).inset(left: 1), style: theme.muted)
        }
        for line in 0..<list.height {
            let index = scroll + line
            guard index < rows.count else { break }
            let record = rows[index]
            let rect = list.row(line)
            let selected = index == selection
            let base = selected ? theme.selected : theme.text
            grid.fill(rect, style: base)
            var end = grid.write(
                " " + ValueText.seconds(record.time) + "  ", in: rect, style: selected ? base : theme.muted)
            let who = Self.who(record, history: history, origin: origin)
            end = grid.write(
                TextWidth.truncate(who, to: 18) + String(repeating: " ", count: max(0, 18 - TextWidth.of(who))) + "  ",
                x: end, y: rect.y, style: selected ? base : theme.label, maxX: rect.maxX)
            var summary = record.summary
            if undone.contains(record.id) { summary += "  (undone)" }
            grid.write(
                TextWidth.truncate(summary, to: rect.maxX - end - 1), x: end, y: rect.y, style: base, maxX: rect.maxX)
        }
        let details = inner.rows(list.maxY - inner.y..<inner.height)
        guard rows.indices.contains(selection), details.height > 1 else { return }
        grid.write(
            String(repeating: "─", count: details.width), x: details.x, y: details.y, style: theme.border,
            maxX: details.maxX)
        drawDetails(&grid, rows[selection], history: history, origin: origin, in: details.inset(top: 1, left: 1), theme)
    }

    /// Who made a change, for the list: `you (menu 4411)`, `cli 4412`, `hand edit`.
    static func who(_ record: OverrideJournalRecord, history: OverrideHistory, origin: OverrideChangeOrigin) -> String {
        if record == history.unrecorded { return "hand edit (new)" }
        return record.origin == origin ? "you (\(record.origin.shortDescription))" : record.origin.shortDescription
    }

    private func drawDetails(
        _ grid: inout ScreenGrid, _ record: OverrideJournalRecord, history: OverrideHistory,
        origin: OverrideChangeOrigin, in rect: Rect, _ theme: MenuTheme
    ) {
        var lines: [(String, CellStyle)] = []
        var heading = "\(ValueText.seconds(record.time)) by \(record.origin)"
        if record.origin == origin { heading += " (this menu)" }
        if record == history.unrecorded { heading += " · not recorded yet: the next change records it" }
        lines.append((heading, theme.label))
        for change in record.changes where key == nil || !onlyKey || change.key == key {
            if record.entriesOmitted {
                lines.append(("\(change.key) (\(OverrideJournalRecord.valuesNotRecorded))", theme.text))
                continue
            }
            var text = "\(change.key): \(ValueText.quoted(change.old?.value)) → \(ValueText.quoted(change.new?.value))"
            if let old = change.old, let new = change.new, old.value == new.value {
                text += old.expiry != new.expiry ? "  (expires \(new.expiry.description))" : "  (note or time)"
            } else if let new = change.new, !new.expiry.isNever {
                text += "  (expires \(new.expiry.description))"
            }
            lines.append((text, theme.text))
        }
        if record.omittedKeys > 0 {
            lines.append(("… and \(record.omittedKeys) keys too many to record", theme.muted))
        }
        if record.entriesOmitted {
            lines.append(("too large to record the values: it cannot be undone", theme.problem))
        }
        for (offset, line) in lines.prefix(rect.height).enumerated() {
            grid.write(line.0, in: rect.row(offset), style: line.1)
        }
        if lines.count > rect.height, rect.height > 0 {
            grid.write(
                "… \(lines.count - rect.height + 1) more", in: rect.row(rect.height - 1), style: theme.muted)
        }
    }
}
