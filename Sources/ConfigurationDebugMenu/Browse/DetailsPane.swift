package import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// The details pane: why the selected key has its value. Wire name, scope, type and control; the value and its
/// source; the server value and why it was rejected; the override with its time and note; staleness; the key's
/// summary and choices. It has no state of its own.
package enum DetailsPane {
    /// A line of styled segments.
    typealias Line = [(text: String, style: CellStyle)]

    /// Draws the details of the selected key or orphan (or a hint) in `box`; what does not fit ends in
    /// ``moreHint``.
    package static func draw(
        into grid: inout ScreenGrid, in box: Rect, data: MenuData, key: Int?, orphan: Int?, unregistered: Int? = nil,
        pending: [String: PendingMark] = [:], now: Date? = nil, theme: MenuTheme
    ) {
        let inner = grid.box(box, title: "Details", style: theme.border)
        let lines =
            subject(data: data, key: key, orphan: orphan, unregistered: unregistered).map {
                Self.lines(of: $0, data: data, pending: pending, now: now, theme: theme)
            } ?? [[("Select a key to see where its value comes from.", theme.muted)]]
        let content = inner.inset(left: 1, right: 1)
        let wrapped = fit(lines, width: content.width, height: content.height, theme: theme)
        for (offset, segments) in wrapped.enumerated() {
            grid.write(segments: segments, in: content.row(offset), ellipsisStyle: theme.muted)
        }
    }

    /// What the pane shows: the selected key, orphan or unregistered key, if any.
    static func subject(data: MenuData, key: Int?, orphan: Int?, unregistered: Int?) -> Pager.DetailsSubject? {
        if let key { return .key(key) }
        if let orphan { return .orphan(data.orphans[orphan].name) }
        if let unregistered { return .unregistered(data.coverage.unregistered[unregistered].name) }
        return nil
    }

    /// Every line about `subject`, unwrapped (for an orphan reset meanwhile, or a key no program reports any more,
    /// a line that says so). With `now`, an expiry time also says how far off it is ("in 59 min").
    static func lines(
        of subject: Pager.DetailsSubject, data: MenuData, pending: [String: PendingMark] = [:], now: Date? = nil,
        theme: MenuTheme
    ) -> [Line] {
        switch subject {
        case .key(let key):
            var lines = keyLines(data: data, key: key, now: now, theme: theme)
            if let mark = pending[data.table.keys[key].descriptor.name] {
                lines.insert(pendingLine(mark, theme), at: min(4, lines.count))
            }
            return lines
        case .orphan(let name):
            guard let orphan = data.orphans.first(where: { $0.name == name }) else {
                return [[("\(name) has no override any more.", theme.muted)]]
            }
            var lines = orphanLines(orphan, now: now, theme: theme)
            if let mark = pending[name] { lines.insert(pendingLine(mark, theme), at: min(2, lines.count)) }
            return lines
        case .unregistered(let name):
            guard let key = data.coverage.unregistered.first(where: { $0.name == name }) else {
                return [[("No program reports reading \(name) any more.", theme.muted)]]
            }
            return unregisteredLines(key, coverage: data.coverage, theme: theme)
        }
    }

    /// What a line cut short ends with: the key that shows the details whole, from the key map.
    static var moreHint: String {
        " … " + (Keymap.keys.keyLabel(for: .showDetails) ?? "?") + " shows all"
    }

    /// Wraps each line (continuation lines indented under the value) and fits them in `height` rows: every line
    /// keeps its first row; the rows left over go to the earliest lines' continuations; a line cut short ends in
    /// ``moreHint`` (`… d shows all`).
    static func fit(_ lines: [Line], width: Int, height: Int, theme: MenuTheme) -> [Line] {
        // The heading line (title, name, module, type) is cut, not wrapped; the values below it wrap.
        let wrapped = lines.enumerated().map { index, line in
            index == 0 ? [line] : StyledText(line).wrapped(to: width, indent: 10)
        }
        var budget = height - min(height, wrapped.count)
        var result: [Line] = []
        for lineRows in wrapped.prefix(height) {
            let extra = min(budget, lineRows.count - 1)
            budget -= extra
            var shown = Array(lineRows.prefix(1 + extra))
            if shown.count < lineRows.count, var last = shown.popLast() {
                let note = moreHint
                var room = width - TextWidth.of(note)
                var cut: Line = []
                for run in last {
                    let text = TextWidth.truncate(run.text, to: room + 1)
                    let kept = text.hasSuffix("…") && TextWidth.of(run.text) > room ? String(text.dropLast()) : text
                    cut.append((kept, run.style))
                    room -= TextWidth.of(kept)
                    if room <= 0 { break }
                }
                last = cut + [(note, theme.muted)]
                shown.append(last)
            }
            result += shown
        }
        return result
    }

    private static func orphanLines(_ info: ConfigurationKeyStatus, now: Date?, theme: MenuTheme) -> [Line] {
        var override: Line = [("Override  ", theme.muted)]
        if let entry = info.override {
            override += [(ValueText.quoted(entry.value), theme.text)] + metadata(entry, now: now, theme)
        }
        return [
            [(info.name, theme.label), ("  orphaned override", theme.problem)],
            override + storeProblems(info.storeProblems, theme),
            [
                (
                    "This program's catalog has no key by that name (removed, or the store comes from another build).",
                    theme.muted
                )
            ],
            [("It stays in the store until you reset it: r removes it.", theme.muted)],
        ]
    }

    private static func keyLines(data: MenuData, key: Int, now: Date?, theme: MenuTheme) -> [Line] {
        let descriptor = data.table.keys[key].descriptor
        let status = data.statuses[key]
        let scope = data.table.scopes[data.table.keys[key].scope].name
        var lines: [Line] = [
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
        var server: Line = [("Server    ", theme.muted), (ValueText.quoted(status.serverValue), theme.text)]
        // What an evaluating server (OFREP) said: the variant and reason beside the value, or why it sent none.
        let evaluation = data.server?.status.evaluations[status.name]
        if let summary = evaluation?.summary, !summary.isEmpty, status.serverValue != nil {
            server.append((" · " + summary, theme.muted))
        }
        if let rejection = status.rejections.first(where: { $0.source == .server }) {
            server.append(("  ✗ rejected: \(rejection.reason)", theme.problem))
        } else if status.serverValue == nil, let rejection = evaluation?.rejection {
            server.append(("  ✗ rejected: \(rejection)", theme.problem))
        }
        if let previous = data.syncChanges[status.name] {
            let text =
                previous == nil
                ? "new in the last sync"
                : status.serverValue == nil
                    ? "removed by the last sync; was \(ValueText.quoted(previous))"
                    : "was \(ValueText.quoted(previous)) before the last sync"
            server.append(("  ↻ " + text, theme.label))
        }
        lines.append(server)
        var override: Line = [("Override  ", theme.muted)]
        if let entry = status.override {
            override.append((ValueText.quoted(entry.value), theme.source(.overridden)))
            override += metadata(entry, now: status.isExpired ? nil : now, theme)
            if let rejection = status.rejections.first(where: { $0.source == .overridden }) {
                override.append(("  ✗ not applied: \(rejection.reason)", theme.problem))
            }
        } else if !status.isQuarantined {
            override.append(("none", theme.muted))
        }
        lines.append(override + storeProblems(status.storeProblems, theme))
        if let entry = status.override {
            for (program, reason) in data.coverage.rejections(of: status.name, value: entry.value).prefix(3) {
                lines.append([("Rejected  ", theme.muted), ("✗ by \(program.label): \(reason)", theme.problem)])
            }
        }
        lines += launchLines(status, coverage: data.coverage, theme: theme)
        if let read = readLine(data.coverage, name: descriptor.name, overridden: status.override != nil, theme: theme) {
            lines.append(read)
        }
        if !data.overridesApply {
            lines.append([
                (
                    "Overrides do not apply in this build of the program (release build, or the DebugOverrides trait off).",
                    theme.problem
                )
            ])
        }
        if let expiration = status.expiration {
            lines.append([
                (
                    "⊘ \(expiration.description): not applied · x gives it a new expiry, P removes expired overrides",
                    theme.problem
                )
            ])
        }
        if status.isRedundant {
            lines.append([
                (
                    "= equals the server value: it changes nothing now and will stop following the server · x: until "
                        + "the server changes · r removes it", theme.problem
                )
            ])
        }
        let changes = data.history.changes(forKey: status.name)
        if !changes.isEmpty {
            var history: Line = [("History   ", theme.muted)]
            for (offset, record) in changes.suffix(3).reversed().enumerated() {
                let change = record.changes.first { $0.key == status.name }
                let who = record.origin == data.origin ? "you" : record.origin.shortDescription
                let what: String =
                    switch (change?.old, change?.new) {
                    case (let old?, let new?) where old.value == new.value:
                        old.expiry != new.expiry ? "changed the expiry" : "changed the note"
                    case (_, let new?): "= " + ValueText.quoted(new.value)
                    default: "removed"
                    }
                let time = ValueText.time(record.time).dropLast(4)
                history.append(((offset > 0 ? " · " : "") + "\(time) \(who) \(what)", theme.text))
            }
            history.append(("  (H: all changes)", theme.muted))
            lines.append(history)
        }
        if status.isStale, let entry = status.override {
            lines.append([
                (
                    "~ stale: the server sent \(ValueText.quoted(entry.serverValueWhenSet)) when this was set and sends \(ValueText.quoted(status.serverValue)) now",
                    theme.problem
                )
            ])
        }
        if let summary = descriptor.summary { lines.append([(summary, theme.muted)]) }
        if let lifecycle = descriptor.lifecycle.summary(at: now, version: nil) {
            let pastDue = now.map { descriptor.lifecycle.removeBy?.standing(at: $0, version: nil).isPastDue == true }
            lines.append([("Owner     ", theme.muted), (lifecycle, pastDue == true ? theme.problem : theme.muted)])
        }
        if let range = descriptor.control.numberRange {
            // Every rule shown: a plain integer key's range is its type's.
            let text =
                range.isWholeInt64
                ? "any integer, from \(range.minimum) to \(range.maximum) (< and > go to the ends)"
                : range.description + " (+ and - step, < and > go to the ends)"
            lines.append([("Range     ", theme.muted), (text, theme.muted)])
        }
        if !descriptor.pattern.isAny {
            lines.append([("Format    ", theme.muted), (descriptor.pattern.expectation, theme.muted)])
        }
        if case .picker(let choices) = descriptor.control {
            lines.append([("Choices   ", theme.muted), (choices.map(\.title).joined(separator: ", "), theme.muted)])
        }
        return lines
    }

    /// `Saving    "5" · sent to the store; not confirmed yet`, or for a change the store did not answer, why its
    /// outcome is unknown.
    static func pendingLine(_ mark: PendingMark, _ theme: MenuTheme) -> Line {
        let asked = mark.override.map { ValueText.quoted($0) } ?? "override removed"
        guard let reason = mark.unanswered else {
            return [
                ("Saving    ", theme.label), (asked, theme.text), ("  · not confirmed by the store yet", theme.muted),
            ]
        }
        return [
            ("No answer ", theme.problem), (asked, theme.text),
            ("  · \(reason) · read again until the store answers", theme.problem),
        ]
    }

    /// What the store says about the entry: kept but not applied (with what it holds), or a field it could not read.
    private static func storeProblems(_ problems: [OverrideStoreProblem], _ theme: MenuTheme) -> Line {
        problems.map { problem in
            if let field = problem.field { return ("  ⚠ \(field) ignored: \(problem.reason)", theme.problem) }
            return (
                "✗ kept in the store but not applied: \(problem.reason) · stored as \(problem.storedJSON)",
                theme.problem
            )
        }
    }

    private static func metadata(_ entry: OverrideEntry?, now: Date?, _ theme: MenuTheme) -> Line {
        guard let entry else { return [] }
        var parts: [String] = []
        if let setAt = entry.setAt { parts.append("set \(ValueText.time(setAt))") }
        if !entry.expiry.isNever {
            var relative = ""
            if let at = entry.expiry.expiresAt, let now { relative = " (\(ExpiryChoice.relative(at, from: now)))" }
            parts.append("expires \(entry.expiry.description)\(relative)")
        }
        if let note = entry.note { parts.append("note: \(note)") }
        return parts.isEmpty ? [] : [("  · " + parts.joined(separator: " · "), theme.muted)]
    }
}

extension ScreenGrid {
    /// Writes styled segments one after another in `rect`'s first row; when they do not fit, the last column shows
    /// "…".
    package mutating func write(segments: [(text: String, style: CellStyle)], in rect: Rect, ellipsisStyle: CellStyle) {
        var x = rect.x
        for (text, style) in segments {
            x = write(text, x: x, y: rect.y, style: style, maxX: rect.maxX)
        }
        // Only a cut line ends in "…"; one that fills the row exactly (a wrapped row) is shown whole.
        let needed = segments.reduce(0) { $0 + ScreenGrid.displayWidth(of: $1.text) }
        if x >= rect.maxX, needed > rect.width, let last = segments.last, !last.text.isEmpty {
            write("…", x: rect.maxX - 1, y: rect.y, style: ellipsisStyle)
        }
    }
}
