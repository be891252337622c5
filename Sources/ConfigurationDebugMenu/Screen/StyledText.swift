import ServiceConfiguration

/// Text in styled runs, wrapped to a width: how the details pane shows whole values.
package struct StyledText: Sendable {
    /// One run of text in one style.
    package typealias Run = (text: String, style: CellStyle)

    /// The runs, in order.
    package var runs: [Run]

    package init(_ runs: [Run]) {
        self.runs = runs
    }

    /// One unit of layout: a character, or the escape of an invisible one (never split).
    private struct Unit {
        var text: String
        var width: Int
        var style: CellStyle
        var isEscape: Bool
        var isSpace: Bool
    }

    /// The text cut into lines of at most `width` columns, breaking after spaces where possible; lines after the
    /// first start with `indent` spaces.
    package func wrapped(to width: Int, indent: Int) -> [[Run]] {
        guard width > indent + 1 else { return [runs] }
        var units: [Unit] = []
        for run in runs {
            for piece in VisibleText.pieces(of: run.text) {
                if piece.isEscape {
                    var style = run.style
                    style.underline = true
                    units.append(
                        Unit(
                            text: piece.text, width: TextWidth.of(piece.text), style: style, isEscape: true,
                            isSpace: false))
                } else {
                    for character in piece.text {
                        units.append(
                            Unit(
                                text: String(character), width: TextWidth.of(character), style: run.style,
                                isEscape: false, isSpace: character == " "))
                    }
                }
            }
        }
        var lines: [[Unit]] = [[]]
        var used = 0
        var index = 0
        while index < units.count {
            let unit = units[index]
            let limit = lines.count == 1 ? width : width - indent
            if used + unit.width <= limit {
                lines[lines.count - 1].append(unit)
                used += unit.width
                index += 1
                continue
            }
            // Break after the last space of the line when it is not too far back; otherwise cut here.
            var line = lines[lines.count - 1]
            var carried: [Unit] = []
            if let space = line.lastIndex(where: \.isSpace), space > 0, line.count - space < 20 {
                carried = Array(line[(space + 1)...])
                line.removeSubrange((space + 1)...)
            }
            lines[lines.count - 1] = line
            if line.isEmpty, carried.isEmpty {
                // A unit wider than the line: put it alone.
                lines[lines.count - 1] = [unit]
                index += 1
                lines.append([])
                used = 0
                continue
            }
            lines.append(carried)
            used = carried.reduce(0) { $0 + $1.width }
        }
        if lines.count > 1, lines[lines.count - 1].isEmpty { lines.removeLast() }
        return lines.enumerated().map { number, line in
            var result: [Run] = number == 0 ? [] : [(String(repeating: " ", count: indent), .plain)]
            for unit in line {
                if !unit.isEscape, let last = result.last, last.style == unit.style, number == 0 || result.count > 1 {
                    result[result.count - 1].text += unit.text
                } else {
                    result.append((unit.text, unit.style))
                }
            }
            return result
        }
    }
}
