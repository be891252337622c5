package import ServiceConfiguration
import ServiceConfigurationFileStore

/// A question waiting for y/N: before a reset, before an edit is thrown away, before a save or an undo would
/// replace what another process changed meanwhile. `n`, Enter and Esc answer no, so nothing is lost by accident.
package indirect enum Confirmation: MenuComponent {
    /// Remove every override (`count` of them).
    case resetAll(count: Int)
    /// Remove the overrides of one scope's keys.
    case resetScope(name: String, keys: [String])
    /// Close the editor of `key` and lose its changes; `editor` is the mode to go back to.
    case discardEdit(key: String, editor: MenuState.Mode)
    /// Quit the menu and lose the changes in the editor of `key`.
    case quitDiscardingEdit(key: String, editor: MenuState.Mode)
    /// Quit the menu while `count` changes are not confirmed by the store (some `unanswered`: sent, no answer in
    /// time); `returnTo` is the mode to go back to.
    case quitWithPendingChanges(count: Int, unanswered: Bool, returnTo: MenuState.Mode)
    /// Save the editor's value of `key` although another process changed the key to `theirs` meanwhile.
    case overwrite(key: String, theirs: String, editor: MenuState.Mode)
    /// Undo a recorded change that is not this menu's own (`own` false), or that was changed again since, or that
    /// was chosen in the history; `returnTo` is the mode to go back to (the history it was chosen in).
    case undo(OverrideUndoProposal, own: Bool, returnTo: MenuState.Mode = .browsing)
    /// Remove every expired override (`count` of them).
    case pruneExpired(count: Int)
    /// Apply a scenario: `changes` puts its entries in place (`nil` removes); `view` is the scenarios view to go
    /// back to.
    case applyScenario(name: String, summary: String, changes: [String: OverrideEntry?], view: ScenariosView)
    /// A bulk action on the marked keys: `write` changes them all at once (one history entry, one undo step).
    case bulk(question: String, write: OverrideWrite)
    /// Revert the store to just after a change chosen in the history, undoing every later change; `returnTo` is the
    /// history.
    case revert(OverrideRevertProposal, returnTo: MenuState.Mode)

    /// The mode the question was asked from, drawn under it (an editor stays visible while asked about it).
    package var underlyingMode: MenuState.Mode {
        switch self {
        case .discardEdit(_, let editor), .quitDiscardingEdit(_, let editor), .overwrite(_, _, let editor): editor
        case .applyScenario(_, _, _, let view): .scenarios(view)
        case .undo(_, _, let returnTo), .quitWithPendingChanges(_, _, let returnTo), .revert(_, let returnTo): returnTo
        case .resetAll, .resetScope, .pruneExpired, .bulk: .browsing
        }
    }

    package var mode: MenuState.Mode { .confirming(self) }

    /// Over the list a question about the list; over an editor or a view, that screen as it was.
    package var placement: MenuPlacement {
        underlyingMode == .browsing ? .dialog : .overlay(underlyingMode)
    }

    package func keymap(in menu: MenuState) -> Keymap { .confirming }

    /// The question asked.
    package var question: String {
        switch self {
        case .resetAll(let count): "Reset all \(count) override\(count == 1 ? "" : "s")?"
        case .resetScope(let name, let keys): "Reset \(keys.count) override\(keys.count == 1 ? "" : "s") in \(name)?"
        case .discardEdit(let key, _): "Discard your changes to \(key)?"
        case .quitDiscardingEdit(let key, _): "Quit and discard your changes to \(key)?"
        case .quitWithPendingChanges(let count, let unanswered, _):
            (count == 1 ? "1 change is" : "\(count) changes are") + " not saved yet: the store has not answered"
                + (unanswered ? " (a change it did not answer may still arrive)" : "")
                + ". Quit anyway? Changes not sent yet are lost."
        case .overwrite(let key, let theirs, _):
            "\(key) was changed elsewhere to \(theirs) while you edited. Save yours over it?"
        case .undo(let proposal, let own, _):
            Self.undoQuestion(proposal, own: own)
        case .pruneExpired(let count): "Remove \(count) expired override\(count == 1 ? "" : "s")?"
        case .applyScenario(let name, let summary, _, _): "Apply scenario \(name): \(summary)?"
        case .bulk(let question, _): question
        case .revert(let proposal, _):
            "Revert to \(ValueText.seconds(proposal.record.time)) (\(proposal.record.summary))? That undoes the "
                + "\(BulkMenu.count(proposal.laterChanges.count, "later change")) at once, putting back "
                + BulkMenu.list(proposal.restores.keys.sorted()) + "."
        }
    }

    /// What y and n do.
    package var hint: String {
        switch self {
        case .resetAll, .resetScope: "y resets · n, Enter or Esc keeps · u undoes a reset"
        case .discardEdit: "y discards · n, Enter or Esc keeps editing"
        case .quitDiscardingEdit: "y quits · n, Enter or Esc keeps editing"
        case .quitWithPendingChanges: "y quits · n, Enter or Esc waits"
        case .overwrite: "y saves yours · n, Enter or Esc keeps editing"
        case .undo(let proposal, _, _) where proposal.includesLaterChanges:
            "y undoes back to before it · n, Enter or Esc keeps them"
        case .undo(let proposal, _, _) where proposal.isRedo: "y redoes · n, Enter or Esc keeps the undo"
        case .undo(_, let own, _):
            own ? "y undoes · n, Enter or Esc keeps it" : "y undoes it · n, Enter or Esc keeps their change"
        case .pruneExpired: "y removes them · n, Enter or Esc keeps them · u undoes it"
        case .applyScenario: "y applies it · n, Enter or Esc keeps the overrides · u undoes it"
        case .bulk: "y does it, as one change · n, Enter or Esc keeps the marks · u undoes it"
        case .revert: "y reverts, as one change · n, Enter or Esc keeps them · u undoes the revert"
        }
    }

    /// What is being confirmed, for the one title every question has: `Confirm · reset`.
    var action: String {
        switch self {
        case .resetAll, .resetScope: "reset"
        case .discardEdit: "discard edit"
        case .quitDiscardingEdit, .quitWithPendingChanges: "quit"
        case .overwrite: "overwrite"
        case .undo(let proposal, _, _): proposal.isRedo ? "redo" : "undo"
        case .pruneExpired: "remove expired"
        case .applyScenario: "apply scenario"
        case .bulk: "bulk change"
        case .revert: "revert"
        }
    }

    /// Draws the question centred on `screen`.
    package func draw(into grid: inout ScreenGrid, in screen: Rect, menu: MenuState, theme: MenuTheme) {
        let title = "Confirm · \(action)"
        let width = min(screen.width - 2, max(TextWidth.of(hint), ScreenGrid.displayWidth(of: question)) + 8)
        // A long question (an undo names whose change and what it was) wraps.
        let lines = StyledText([(question, theme.label)]).wrapped(to: max(10, width - 5), indent: 0)
        let box = overlayBox(&grid, on: screen, width: width, height: 5 + lines.count, title: title, theme: theme)
        let content = box.inset(by: 1).inset(top: 1, left: 2, right: 1)
        for (offset, line) in lines.enumerated() {
            grid.write(segments: line.map { ($0.text, $0.style) }, in: content.row(offset), ellipsisStyle: theme.muted)
        }
        grid.write(hint, in: content.row(lines.count), style: theme.muted)
    }

    /// `Undo the change by cli (pid 4411) at 2026-11-29 14:05:12: set KEY = "5000" (was "2500")?`, saying which
    /// keys changed again since; for an undo back to before a change, which later change is in the way.
    static func undoQuestion(_ proposal: OverrideUndoProposal, own: Bool) -> String {
        let record = proposal.record
        if proposal.isRedo {
            let whose = own ? "your undo" : "the undo by \(record.origin)"
            var text = "Redo: reverse \(whose) at \(ValueText.seconds(record.time)) (\(record.summary))?"
            if !proposal.changedSince.isEmpty { text += " Its keys were changed again since; redoing replaces that." }
            return text
        }
        let change =
            own
            ? "your change at \(ValueText.seconds(record.time)): \(record.summary)"
            : "the change by \(record.origin) at \(ValueText.seconds(record.time)): \(record.summary)"
        if proposal.includesLaterChanges, let later = proposal.laterChanges.last {
            let count = proposal.laterChanges.count
            let keys = proposal.restores.count == 1 ? "its key" : "its keys"
            let laterText = "\(later.summary) by \(later.origin) at \(ValueText.seconds(later.time))"
            let way =
                count == 1
                ? "A later change of \(keys) is in the way of undoing \(change): \(laterText)."
                : "\(count) later changes of \(keys) are in the way of undoing \(change); the last: \(laterText)."
            let sorted = proposal.restores.keys.sorted()
            let back =
                sorted.prefix(3).map { key in
                    "\(key): \((proposal.restores[key] ?? nil).map { ValueText.quoted($0.value) } ?? "no override")"
                }.joined(separator: ", ") + (sorted.count > 3 ? ", …" : "")
            return way + " Undo back to before it? That puts back " + back + "."
        }
        var text = "Undo \(change)?"
        if let key = proposal.changedSince.first {
            let now = (proposal.expected[key] ?? nil).map { ValueText.quoted($0.value) } ?? "no override"
            text +=
                proposal.changedSince.count == 1
                ? " \(key) was changed again since (now \(now)); undoing replaces that too."
                : " \(proposal.changedSince.count) of its keys were changed again since; undoing replaces those too."
        }
        return text
    }
}

extension Keymap {
    /// The keys of a question: y, and everything that says no.
    package static let confirming = Keymap(
        "confirming", title: "Answering a question",
        [
            bind([.character("y"), .character("Y")], .confirm, "yes", hint: "yes", priority: 10),
            bind(
                [.character("n"), .character("N"), .escape, .enter], .cancel, "no (the default)", hint: "no",
                priority: 20),
            quit,
        ])
}
