import ServiceConfiguration

extension MenuReducer {
    /// A write of `value` as the key's override, with what it replaces as the undo step.
    static func set(_ state: inout MenuState, key: Int, value: String) -> [MenuEffect] {
        let name = state.data.table.keys[key].descriptor.name
        let previous = state.data.statuses[key].override
        return [
            .write(
                OverrideWrite(changes: [.init(key: name, value: value)], summary: "\(name) = \(value)"),
                undo: UndoStep(
                    entries: [name: previous], expected: [name: value],
                    summary: previous.map { "\(name) = \($0.value)" } ?? "\(name) override removed")
            )
        ]
    }

    /// `+`/`-`: moves a number key with a range by `steps` steps, within its range.
    static func step(_ state: inout MenuState, by steps: Int) -> [MenuEffect] {
        guard let key = state.selectedKey else {
            nothingSelected(&state)
            return []
        }
        let descriptor = state.data.table.keys[key].descriptor
        guard case .number(let kind, let range?) = descriptor.control else {
            state.inform("+ and - step numbers with a range; Enter edits this value")
            return []
        }
        let current = currentText(state, key)
        guard let next = range.stepped(current, by: steps, kind: kind), next != current else {
            state.inform(
                "\(descriptor.name) is at the \(steps > 0 ? "top" : "bottom") of its range (\(range.description))")
            return []
        }
        return set(&state, key: key, value: next)
    }

    /// `r`: removes the selected key's (or orphan's) override.
    static func resetSelected(_ state: inout MenuState) -> [MenuEffect] {
        let name: String
        if let key = state.selectedKey {
            name = state.data.table.keys[key].descriptor.name
        } else if let orphan = state.selectedOrphan {
            name = state.data.orphans[orphan].name
        } else {
            nothingSelected(&state)
            return []
        }
        guard let previous = currentOverride(state, name) else {
            // An entry the store kept without applying it (unreadable) can be removed, but not put back.
            if status(state, name)?.isQuarantined == true {
                return [
                    .write(
                        OverrideWrite(
                            changes: [.init(key: name, value: nil)], summary: "\(name) unreadable entry removed"),
                        undo: UndoStep(entries: [:], expected: [:], summary: "nothing to restore"))
                ]
            }
            state.inform("\(name) has no override")
            return []
        }
        return [
            .write(
                OverrideWrite(changes: [.init(key: name, value: nil)], summary: "\(name) override removed"),
                undo: UndoStep(
                    entries: [name: previous], expected: [name: String?.none],
                    summary: "\(name) = \(previous.value)")
            )
        ]
    }

    /// Removes the overrides of `names`, with every entry as stored as the undo step.
    static func reset(_ state: inout MenuState, _ names: [String], summary: String) -> [MenuEffect] {
        var previous: [String: OverrideEntry?] = [:]
        for name in names { previous[name] = currentOverride(state, name) }
        return [
            .write(
                OverrideWrite(changes: names.map { .init(key: $0, value: nil) }, summary: summary),
                undo: UndoStep(
                    entries: previous, expected: Dictionary(uniqueKeysWithValues: names.map { ($0, String?.none) }),
                    summary: "\(names.count) override\(names.count == 1 ? "" : "s") restored")
            )
        ]
    }

    /// `u`: undoes the menu's last change, after asking if another process changed those keys since.
    static func undo(_ state: inout MenuState) -> [MenuEffect] {
        guard let step = state.undoStack.last else {
            state.inform("Nothing to undo")
            return []
        }
        let changed = step.expected.keys.sorted().filter {
            currentOverride(state, $0)?.value != step.expected[$0] ?? nil
        }
        if !changed.isEmpty {
            state.mode = .confirming(.undoOverChanges(step: step, keys: changed))
            return []
        }
        return [.undo(step)]
    }

    /// The status of the key or orphan named `name`, if listed.
    static func status(_ state: MenuState, _ name: String) -> ConfigurationKeyStatus? {
        if let index = state.data.table.index(of: name) { return state.data.statuses[index] }
        return state.data.orphans.first { $0.name == name }
    }

    /// The current override of the key or orphan named `name`, if any, as stored (time, note, server value then).
    static func currentOverride(_ state: MenuState, _ name: String) -> OverrideEntry? {
        status(state, name)?.override
    }
}
