import ServiceConfiguration

/// Marks: keys chosen for one action on all of them (`v` marks the selected key, `V` every key shown, Esc clears,
/// `a` acts). A mark is kept by the key's name, so it stays while the filters change.
extension MenuState {
    /// `v`: marks or unmarks the selected key and moves to the next one.
    mutating func toggleMark() {
        guard let key = selectedKey else {
            inform(selectedOrphan != nil ? "An orphaned override cannot be marked; r removes it" : "No key selected")
            return
        }
        let name = data.table.keys[key].descriptor.name
        if marks.remove(name) == nil { marks.insert(name) }
        list.move(by: 1, visibleRows: visibleKeyRows)
        inform(marksStatus)
    }

    /// `V`: marks every key the list shows; when all of them are marked already, unmarks them.
    mutating func markShown() {
        let shown = list.rows.compactMap { row -> String? in
            guard case .key(let key) = row else { return nil }
            return data.table.keys[key].descriptor.name
        }
        guard !shown.isEmpty else {
            inform("No key is shown to mark")
            return
        }
        if shown.allSatisfy(marks.contains) {
            marks.subtract(shown)
            inform("Unmarked the \(shown.count) keys shown · " + marksStatus)
        } else {
            marks.formUnion(shown)
            inform("Marked the \(shown.count) keys shown · " + marksStatus)
        }
    }

    /// Esc with marks: clears them (a second Esc clears the filters).
    mutating func clearMarks() {
        let count = marks.count
        marks.removeAll()
        inform(
            "\(count) mark\(count == 1 ? "" : "s") cleared"
                + (filters.isActive ? " · Esc again clears the filters" : ""))
    }

    /// The marked keys that are in the catalog, by index, in catalog order.
    var markedKeys: [Int] {
        guard !marks.isEmpty else { return [] }
        return data.table.keys.indices.filter { marks.contains(data.table.keys[$0].descriptor.name) }
    }

    /// "3 marked · a acts on them, Esc clears".
    var marksStatus: String {
        marks.isEmpty ? "No key is marked" : "\(marks.count) marked · a acts on them, Esc clears the marks"
    }
}
