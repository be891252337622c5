/// A question waiting for y/N: before a reset, before an edit is thrown away, before a save or an undo would
/// replace what another process changed meanwhile. `n`, Enter and Esc answer no, so nothing is lost by accident.
package indirect enum Confirmation: Equatable, Sendable {
    /// Remove every override (`count` of them).
    case resetAll(count: Int)
    /// Remove the overrides of one scope's keys.
    case resetScope(name: String, keys: [String])
    /// Close the editor of `key` and lose its changes; `editor` is the mode to go back to.
    case discardEdit(key: String, editor: MenuState.Mode)
    /// Quit the menu and lose the changes in the editor of `key`.
    case quitDiscardingEdit(key: String, editor: MenuState.Mode)
    /// Save the editor's value of `key` although another process changed the key to `theirs` meanwhile.
    case overwrite(key: String, theirs: String, editor: MenuState.Mode)
    /// Undo although other processes changed `keys` since this menu's change.
    case undoOverChanges(step: UndoStep, keys: [String])

    /// The mode the question was asked from, drawn under it (an editor stays visible while asked about it).
    package var underlyingMode: MenuState.Mode {
        switch self {
        case .discardEdit(_, let editor), .quitDiscardingEdit(_, let editor), .overwrite(_, _, let editor): editor
        case .resetAll, .resetScope, .undoOverChanges: .browsing
        }
    }

    /// The question asked.
    package var question: String {
        switch self {
        case .resetAll(let count): "Reset all \(count) override\(count == 1 ? "" : "s")?"
        case .resetScope(let name, let keys): "Reset \(keys.count) override\(keys.count == 1 ? "" : "s") in \(name)?"
        case .discardEdit(let key, _): "Discard your changes to \(key)?"
        case .quitDiscardingEdit(let key, _): "Quit and discard your changes to \(key)?"
        case .overwrite(let key, let theirs, _):
            "\(key) was changed elsewhere to \(theirs) while you edited. Save yours over it?"
        case .undoOverChanges(_, let keys):
            keys.count == 1
                ? "\(keys[0]) was changed elsewhere since your change. Undo anyway?"
                : "\(keys.count) keys were changed elsewhere since your change. Undo anyway?"
        }
    }

    /// What y and n do.
    package var hint: String {
        switch self {
        case .resetAll, .resetScope: "y resets · n, Enter or Esc keeps · u undoes a reset"
        case .discardEdit: "y discards · n, Enter or Esc keeps editing"
        case .quitDiscardingEdit: "y quits · n, Enter or Esc keeps editing"
        case .overwrite: "y saves yours · n, Enter or Esc keeps editing"
        case .undoOverChanges: "y undoes · n, Enter or Esc keeps their change"
        }
    }

    /// Draws the question centred on `screen`.
    package func draw(into grid: inout ScreenGrid, on screen: Rect, theme: MenuTheme) {
        let title: String
        switch self {
        case .resetAll, .resetScope: title = "Confirm"
        default: title = "Are you sure?"
        }
        let width = max(TextWidth.of(hint), ScreenGrid.displayWidth(of: question)) + 8
        let box = overlayBox(&grid, on: screen, width: width, height: 6, title: title, theme: theme)
        let content = box.inset(by: 1).inset(top: 1, left: 2, right: 1)
        grid.write(question, in: content.row(0), style: theme.label)
        grid.write(hint, in: content.row(1), style: theme.muted)
    }
}
