import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Expiry, history, undo through the journal and scenarios in the menu: state in, action, state and effects out.
@Suite("The menu's expiry, history and scenarios (reducer)")
struct LifecycleReducerTests {
    let renderer = MenuRenderer(colors: false)

    @Test("x offers when the override expires; a preset writes the same value with the rule; a version is typed")
    func expiryMenu() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .chooseExpiry)
        guard case .choosingExpiry(let menu) = state.mode else {
            Issue.record("expected the expiry menu")
            return
        }
        #expect(menu.choices.first == .never)
        #expect(renderer.render(state).text.contains("until the server value changes"))
        let effects = reduce(&state, .move(2), .pickerChoose)
        #expect(
            effects == [
                .write(
                    OverrideWrite(
                        changes: [.init(key: "function.media.quality", value: "95")],
                        summary: "function.media.quality = 95", expiry: .duration(7200), id: 1))
            ])
        #expect(state.mode == .browsing)
        // The last choice asks for a version; a bad one is refused in place, a good one is written.
        reduce(&state, .chooseExpiry, .bottom, .pickerChoose)
        guard case .prompting(let prompt) = state.mode else {
            Issue.record("expected a prompt")
            return
        }
        #expect(prompt.purpose == .expiryVersion(key: MenuFixture.key("function.media.quality", in: state)))
        reduce(&state, .editInsert("14.2-beta"))
        #expect(reduce(&state, .editSave).isEmpty)
        guard case .prompting(let refused) = state.mode else {
            Issue.record("the prompt stays")
            return
        }
        #expect(refused.problem == "not a version like 14.2 (numbers and dots)")
        reduce(&state, .editDelete(.toLineStart), .editInsert("14.2"))
        let version = reduce(&state, .editSave)
        guard case .write(let write)? = version.first else {
            Issue.record("expected a write")
            return
        }
        #expect(write.expiry == .untilVersion(ProgramVersion("14.2")!))
        // A key without an override has nothing to expire.
        MenuFixture.select("function.media.upload_mode", in: &state)
        #expect(reduce(&state, .chooseExpiry).isEmpty)
        #expect(state.mode == .browsing)
        #expect(state.status?.text.contains("has no override to expire") == true)
    }

    @Test("Ctrl-T in an editor steps through expiries; the save carries the chosen one")
    func editorExpiry() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .activate)
        reduce(&state, .cycleExpiry)
        guard case .editing(let editor) = state.mode else {
            Issue.record("expected the editor")
            return
        }
        #expect(editor.expiry == .duration(3600))
        #expect(renderer.render(state).text.contains("expires: for 1 h · Ctrl-T changes"))
        // The same choices as x: 1 h, 2 h, 8 h, 1 day, 1 week, until the server changes, never; then "as before".
        reduce(&state, .cycleExpiry, .cycleExpiry, .cycleExpiry)
        guard case .editing(let day) = state.mode else { return }
        #expect(day.expiry == .duration(86_400))
        reduce(&state, .cycleExpiry)
        guard case .editing(let week) = state.mode else { return }
        #expect(week.expiry == .duration(7 * 86_400))
        reduce(&state, .cycleExpiry)
        guard case .editing(let later) = state.mode else { return }
        #expect(later.expiry == .untilServerChanges)
        reduce(&state, .cycleExpiry, .cycleExpiry)
        guard case .editing(let back) = state.mode else { return }
        #expect(back.expiry == nil, "the cycle returns to 'as before'")
        reduce(&state, .cycleExpiry, .editDelete(.toLineStart), .editInsert("40"))
        guard case .write(let write)? = reduce(&state, .editSave).first else {
            Issue.record("expected a write")
            return
        }
        #expect(write.changes == [.init(key: "function.media.quality", value: "40")])
        #expect(write.expiry == .duration(3600))
    }

    @Test("an expired override: marked ⊘, explained in the details, P asks before removing the expired ones")
    func expiredAndPrune() throws {
        var state = try MenuFixture.state()
        let key = MenuFixture.key("function.media.quality", in: state)
        var status = state.data.statuses[key]
        status = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: status.serverValue, override: status.override,
            expiration: .time(MenuFixture.setAt))
        state.data.setStatus(status, at: key)
        state.refreshList()
        MenuFixture.select("function.media.quality", in: &state)
        let text = renderer.render(state).text
        #expect(text.contains("⊘ expired at 2025-11-29 14:05 UTC: not applied"))
        #expect(text.split(separator: "\n").contains { $0.contains("Quality ") && $0.contains("⊘") })
        #expect(reduce(&state, .pruneExpired).isEmpty)
        #expect(state.mode == .confirming(.pruneExpired(count: 1)))
        #expect(reduce(&state, .confirm) == [.pruneExpired(id: 1)])
        #expect(state.pending.map(\.values) == [["function.media.quality": String?.none]], "saving… until done")
        reduce(&state, .pruned(["function.media.quality"], id: 1))
        #expect(state.pending.isEmpty)
        #expect(state.status?.text == "Removed 1 expired override")
    }

    @Test("a redundant override (equal to the server value): marked =, x suggests following the server")
    func redundant() throws {
        var entries = MenuFixture.entries
        entries["function.media.quality"] = OverrideEntry(
            value: "85", setAt: MenuFixture.setAt, serverValueWhenSet: "80")
        var state = try MenuFixture.state(entries: entries)
        MenuFixture.select("function.media.quality", in: &state)
        let key = MenuFixture.key("function.media.quality", in: state)
        #expect(state.data.statuses[key].isRedundant)
        let grid = renderer.render(state)
        #expect(grid.text.contains("= equals the server value"))
        #expect(grid.line(grid.height - 1).contains("x follow server"))
        reduce(&state, .chooseExpiry)
        guard case .choosingExpiry(let menu) = state.mode else {
            Issue.record("expected the expiry menu")
            return
        }
        #expect(menu.choices[menu.selected] == .untilServerChanges, "the offer is highlighted")
        #expect(renderer.render(state).text.contains("= equals the server value: follow it, or Esc, then r removes it"))
    }

    @Test("H shows the history newest first; f narrows it to the selected key; Esc goes back; u asks the runtime")
    func historyView() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .openHistory)
        guard case .history(let view) = state.mode else {
            Issue.record("expected the history")
            return
        }
        #expect(view.rows(state.data.history).map(\.id) == ["4", "3", "2", "1"])
        let text = renderer.render(state).text
        #expect(text.contains("History · 4 changes (newest first)"))
        #expect(text.contains("you (menu 4242)"))
        #expect(text.contains("(undone)"), "the program's change was undone")
        reduce(&state, .toggleHistoryFilter)
        guard case .history(let narrowed) = state.mode else { return }
        #expect(narrowed.rows(state.data.history).map(\.id) == ["3", "2", "1"])
        reduce(&state, .move(1))
        guard case .history(let moved) = state.mode else { return }
        #expect(moved.selection == 1)
        let chosen = try #require(state.data.history.change(id: "2"))
        #expect(reduce(&state, .undo) == [.proposeUndoOfChange(chosen)], "the selected change, not the newest")
        reduce(&state, .closeView)
        #expect(state.mode == .browsing)
    }

    @Test("the history keeps the same change selected when newer ones arrive, also one recorded after it was shown")
    func historyFollowsSelection() throws {
        var state = try MenuFixture.state()
        reduce(&state, .openHistory, .move(2))
        let chosen = try #require(state.data.history.change(id: "2"))
        var history = state.data.history
        // The hand edit (4) is recorded under an id of its own, and another change comes after it.
        var recorded = try #require(history.records.last)
        history.records.removeLast()
        recorded.id = "4-recorded"
        let newer = OverrideJournalRecord(
            id: "5", time: MenuFixture.setAt.addingTimeInterval(3600), origin: .cli, reason: OverrideChangeReason(.set),
            changes: [.init(key: "function.chat.greeting", old: nil, new: OverrideEntry(value: "Yo"))])
        history.records += [recorded, newer]
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(statuses: [:], orphans: state.data.orphans, storeProblem: nil, history: history)))
        guard case .history(let view) = state.mode else {
            Issue.record("still the history, got \(state.mode)")
            return
        }
        #expect(view.rows(state.data.history)[view.selection] == chosen, "the program's change, not the one above")
        #expect(reduce(&state, .undo) == [.proposeUndoOfChange(chosen)])
        // A change shown before its writer recorded it is found again once recorded.
        let unrecorded = OverrideJournalRecord(
            id: "unrecorded", time: recorded.time, origin: .outside, reason: OverrideChangeReason(.outside),
            changes: recorded.changes)
        #expect(history.change(matching: unrecorded)?.id == "4-recorded")
    }

    @Test("u on a change chosen in the history always asks, naming it, over the history; a later change is named")
    func chosenUndo() throws {
        var state = try MenuFixture.state()
        reduce(&state, .openHistory, .bottom)
        let history = state.data.history
        let current = state.data.currentOverrides
        // The import (1), whose quality the program changed later (2), which was undone (3): both in the way.
        let first = try #require(history.change(id: "1"))
        let back = history.undoProposal(backTo: first, current: current)
        #expect(back.laterChanges.map(\.id) == ["2", "3", "4"])
        reduce(&state, .chosenUndoProposed(back, undoneBy: nil))
        guard case .confirming(.undo(_, let own, .history)) = state.mode else {
            Issue.record("expected the question over the history, got \(state.mode)")
            return
        }
        #expect(!own)
        let question = renderer.render(state).text.replacingOccurrences(of: "│", with: "")
        let words = question.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("3 later changes of its keys are in the way of undoing the change by cli"), "\(words)")
        #expect(words.contains("the last: outside"), "the newest of them, named")
        #expect(words.contains("Undo back to before it?"))
        #expect(words.contains("y undoes back to before it"))
        #expect(reduce(&state, .confirm) == [.undo(back, id: 1)])
        guard case .history = state.mode else {
            Issue.record("back to the history, got \(state.mode)")
            return
        }
        // The program's change (2) was undone already (3).
        let undone = try #require(history.change(id: "2"))
        reduce(
            &state,
            .chosenUndoProposed(history.undoProposal(for: undone, current: current), undoneBy: history.change(id: "3")))
        #expect(
            state.status?.text.hasPrefix("Already undone at 2025-11-29 14:18:00 by you: set function.media.quality")
                == true, "\(state.status?.text ?? "")")
        // This menu's own change is asked about too.
        let mine = try #require(history.change(id: "3"))
        reduce(&state, .chosenUndoProposed(history.undoProposal(for: mine, current: current), undoneBy: nil))
        guard case .confirming(.undo(_, true, _)) = state.mode else {
            Issue.record("expected the question about the menu's own change, got \(state.mode)")
            return
        }
        reduce(&state, .cancel)
        #expect(state.status?.text == "Nothing was undone")
        reduce(&state, .chosenUndoProposed(nil, undoneBy: nil))
        #expect(state.status?.text.hasPrefix("That change is no longer in the history") == true)
    }

    @Test("i reads the scenarios folder; Enter previews and asks; y applies as one change; m replaces instead")
    func scenarios() throws {
        var state = try MenuFixture.state()
        #expect(reduce(&state, .openScenarios) == [.loadScenarios])
        reduce(&state, .scenariosLoaded(MenuFixture.scenarios))
        guard case .scenarios(let view) = state.mode else {
            Issue.record("expected the scenarios view")
            return
        }
        #expect(view.selected?.name == "checkout-one-tap")
        #expect(reduce(&state, .activate).isEmpty)
        guard case .confirming(.applyScenario(let name, let summary, let changes, _)) = state.mode else {
            Issue.record("expected the question, got \(state.mode)")
            return
        }
        #expect(name == "checkout-one-tap")
        #expect(summary == "1 added, 0 removed, 1 changed")
        #expect(changes.keys.sorted() == ["ab.payments.checkout", "function.payments.daily_limit"])
        #expect(reduce(&state, .confirm) == [.applyScenario(name: name, changes: changes, id: 1)])
        guard case .scenarios = state.mode else {
            Issue.record("back in the scenarios view")
            return
        }
        reduce(&state, .scenarioApplied(name, id: 1))
        #expect(state.pending.isEmpty)
        #expect(state.status?.text == "Applied scenario checkout-one-tap (u undoes it)")
        // Replacing: every other stored override is removed by the same change.
        reduce(&state, .toggleScenarioMode, .activate)
        guard case .confirming(.applyScenario(_, let replaced, let replacing, _)) = state.mode else { return }
        #expect(replaced == "1 added, 3 removed, 1 changed")
        #expect(replacing.filter { $0.value == nil }.count == 3)
        reduce(&state, .cancel)
        #expect(state.status?.text == "Nothing was applied")
        // A profile that cannot be used says why and applies nothing.
        reduce(&state, .move(1))
        #expect(reduce(&state, .activate).isEmpty)
        #expect(state.status?.text.contains("broken cannot be used") == true)
    }

    @Test("s in the scenarios view asks for a name; a bad name is refused in place; Esc goes back")
    func saveScenario() throws {
        var state = try MenuFixture.state()
        reduce(&state, .openScenarios)
        reduce(&state, .scenariosLoaded(MenuFixture.scenarios))
        reduce(&state, .saveScenarioAs)
        guard case .prompting(let prompt) = state.mode else {
            Issue.record("expected a prompt")
            return
        }
        #expect(prompt.purpose == .scenarioName())
        reduce(&state, .editInsert("../escape"))
        #expect(reduce(&state, .editSave).isEmpty)
        guard case .prompting(let refused) = state.mode else { return }
        #expect(refused.problem?.contains("cannot start with a dot or hold /") == true)
        reduce(&state, .editDelete(.toLineStart), .editInsert("after QA day.json"))
        #expect(reduce(&state, .editSave) == [.saveScenario(name: "after QA day")])
        guard case .scenarios = state.mode else {
            Issue.record("back in the scenarios view")
            return
        }
        #expect(reduce(&state, .scenarioSaved("after QA day")) == [.loadScenarios])
        reduce(&state, .saveScenarioAs, .editCancel)
        guard case .scenarios = state.mode else {
            Issue.record("Esc goes back to the scenarios")
            return
        }
    }

    @Test("without a scenarios folder, i says how to give one")
    func noScenarioFolder() throws {
        var state = try MenuFixture.state()
        state.data.scenariosFolder = nil
        #expect(reduce(&state, .openScenarios).isEmpty)
        #expect(state.status?.text == "No scenarios folder: start the menu with --profiles DIR")
    }

    @Test("a refresh brings the new history; an override that expired here is announced, not marked as elsewhere")
    func refreshHistoryAndExpiry() throws {
        var state = try MenuFixture.state()
        let key = MenuFixture.key("function.media.quality", in: state)
        let current = state.data.statuses[key]
        let expired = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: current.serverValue, override: current.override,
            expiration: .time(MenuFixture.setAt))
        let history = OverrideHistory(records: Array(MenuFixture.history.records.prefix(1)))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: expired], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.quality"], time: 1, history: history)))
        #expect(state.data.history == history)
        #expect(state.data.statuses[key].isExpired)
        #expect(state.changedElsewhere.isEmpty, "not another process's change")
        #expect(
            state.status?.text == "Expired: function.media.quality (no longer applied; P removes expired overrides)")
    }
}
