import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// The menu as a power tool (issue 25): bulk expiry, notes and scenarios of the marked keys; every rule in the
/// editor with keys to move in the range; find anything (exact first, snippets beside the value, invisible
/// characters); the module compare view; Ctrl-Z; confirmations with one title style.
@Suite("the menu as a power tool: bulk expiry, notes, scenarios, rules, search, compare, Ctrl-Z")
struct PowerToolTests {
    let renderer = MenuRenderer()

    @Test("a on marks: expiry for every marked override is one confirmed write; a note and a scenario ask a line")
    func bulkExpiryNoteScenario() throws {
        var state = try MenuFixture.state()
        reduce(&state, .markShown, .openBulkMenu)
        guard case .bulkActions(let menu) = state.mode,
            let expiry = menu.choices.firstIndex(where: { $0.action == .chooseExpiry })
        else {
            Issue.record("the bulk menu offers an expiry: \(state.mode)")
            return
        }
        reduce(&state, .move(expiry), .pickerChoose)
        guard case .bulkActions(let choices) = state.mode else {
            Issue.record("the expiry choices: \(state.mode)")
            return
        }
        #expect(choices.choices.map(\.action) == ExpiryChoice.presets.map { .expire($0) }, "the same choices as x")
        #expect(renderer.render(state).text.contains("When the 4 marked overrides expire"), "the orphan is not marked")
        let week = try #require(ExpiryChoice.presets.firstIndex { $0.title.contains("1 week") })
        reduce(&state, .move(week), .pickerChoose)
        guard case .confirming(.bulk(let question, let write)) = state.mode else {
            Issue.record("one confirmation: \(state.mode)")
            return
        }
        #expect(question.hasPrefix("Make 4 overrides expire: for 1 week?"), "\(question)")
        #expect(renderer.render(state).text.contains("Confirm · bulk change"))
        #expect(write.expiry == ExpiryChoice.presets[week])
        #expect(
            Set(write.changes.map(\.key)) == [
                "function.media.hdr.enabled", "function.media.quality", "function.chat.greeting",
                "function.payments.daily_limit",
            ])
        #expect(write.changes.first { $0.key == "function.media.quality" }?.value == "95", "the values are kept")
        let effects = reduce(&state, .confirm)
        #expect(effects.count == 1 && state.marks.isEmpty, "one write; the marks are done with")

        // A note: typed once, one effect for every marked override.
        reduce(&state, .markShown, .openBulkMenu)
        guard case .bulkActions(let again) = state.mode,
            let note = again.choices.firstIndex(where: { $0.action == .note }),
            let scenario = again.choices.firstIndex(where: { $0.action == .saveScenario })
        else {
            Issue.record("note and scenario offered: \(state.mode)")
            return
        }
        reduce(&state, .move(note), .pickerChoose, .editInsert("release 14.2 QA"))
        #expect(renderer.render(state).text.contains("Note for the 4 marked overrides"))
        let noted = reduce(&state, .editSave)
        guard case .note(let keys, let text, let id)? = noted.first else {
            Issue.record("a note effect: \(noted)")
            return
        }
        #expect(keys.count == 4 && text == "release 14.2 QA" && id > 0 && state.marks.isEmpty)

        reduce(&state, .markShown, .openBulkMenu, .move(scenario), .pickerChoose, .editInsert("../x"))
        #expect(reduce(&state, .editSave).isEmpty, "a bad scenario name is refused")
        reduce(&state, .editMove(.lineEnd), .editDelete(.toLineStart), .editInsert("payments"))
        let saved = reduce(&state, .editSave)
        guard case .saveScenario(let name, let only?)? = saved.first else {
            Issue.record("a scenario of the marked keys: \(saved)")
            return
        }
        #expect(name == "payments" && only.count == 4)
    }

    @Test("the editor shows the range and the keys that move in it; ↑ ↓ step, PgUp and PgDn go to the ends")
    func editorRange() throws {
        var state = try MenuFixture.state(width: 110, height: 40)
        MenuFixture.select("function.payments.daily_limit", in: &state)
        reduce(&state, .activate)
        #expect(
            renderer.render(state).text.contains(
                "any integer, from -9223372036854775808 to 9223372036854775807 · ↑ ↓ step · PgUp max · PgDn min"))
        reduce(&state, .toBound(true))
        guard case .editing(let top) = state.mode else {
            Issue.record("still editing: \(state.mode)")
            return
        }
        #expect(top.field.string == "9223372036854775807" && top.validation == .valid("9223372036854775807"))
        reduce(&state, .step(1))
        guard case .editing(let still) = state.mode else { return }
        #expect(still.field.string == "9223372036854775807", "the top stays the top")
        reduce(&state, .toBound(false), .step(1))
        guard case .editing(let bottom) = state.mode else { return }
        #expect(bottom.field.string == "-9223372036854775807")
        reduce(&state, .editMove(.lineEnd), .editDelete(.toLineStart), .editInsert("9223372036854775808"))
        guard case .editing(let past) = state.mode else { return }
        #expect(
            past.validation
                == .invalid(
                    "expected an integer from -9223372036854775808 to 9223372036854775807, got \"9223372036854775808\"")
        )
        reduce(&state, .editCancel, .confirm)

        // A text key: the keys say what they are for, the field is untouched.
        MenuFixture.select("function.chat.greeting", in: &state)
        reduce(&state, .activate, .toBound(true))
        guard case .editing(let text) = state.mode else { return }
        #expect(text.field.string == text.original)
        #expect(state.status?.text == "↑ ↓ step and PgUp PgDn go to the ends of numbers with a range")
    }

    @Test("exact and prefix matches on a value or name rank above fuzzy ones; a description match keeps the value")
    func search() throws {
        var state = try MenuFixture.state(width: 140, height: 40)
        // "always" is the upload mode's server value: exact, so first, before any key whose name holds a, l, w…
        reduce(&state, .startFilter, .filterInsert("always"))
        #expect(state.selectedKey.map { state.data.table.keys[$0].descriptor.name } == "function.media.upload_mode")
        // "hi" is the start of the greeting's value: a prefix match, first.
        reduce(&state, .filterErase, .filterInsert("hi"))
        #expect(state.selectedKey.map { state.data.table.keys[$0].descriptor.name } == "function.chat.greeting")
        // A description match shows the snippet in the name column and keeps the value.
        reduce(&state, .filterErase, .filterInsert("sending"))
        let row = try #require(
            renderer.render(state).text.split(separator: "\n").first { $0.contains("≈") }.map(String.init))
        #expect(row.contains("≈ …") && row.contains("when sending") && row.contains("[x] Y"), "\(row)")
        // Tab with no module selected says what it does instead of doing nothing.
        reduce(&state, .toggleSearchEverywhere)
        #expect(state.status?.text.contains("\\t finds a tab") == true)
        #expect(renderer.render(state).text.contains("Tab searches the selected module or all"))
    }

    @Test("invisible characters: found by what the screen shows; I lists the keys whose values hold them")
    func invisible() throws {
        var entries = MenuFixture.entries
        entries["function.chat.greeting"] = OverrideEntry(value: "Hi\u{200B}there\tall", setAt: MenuFixture.setAt)
        var state = try MenuFixture.state(entries: entries)
        reduce(&state, .startFilter, .filterInsert("\\u{200b}"), .filterAccept)
        #expect(state.list.keyCount == 1)
        #expect(state.selectedKey.map { state.data.table.keys[$0].descriptor.name } == "function.chat.greeting")
        reduce(&state, .clearFilters, .startFilter, .filterInsert("there\\t"), .filterAccept)
        #expect(state.list.keyCount == 1, "\\t finds the tab")
        reduce(&state, .clearFilters, .toggleOnlyInvisible)
        #expect(state.list.keyCount == 1 && state.filters.isActive)
        #expect(renderer.render(state).text.contains("Filters: invisible or control characters"))
        reduce(&state, .toggleOnlyInvisible)
        #expect(state.list.keyCount == state.data.table.keys.count)
    }

    @Test("C compares a module side by side: differences marked, f only them, y copies Markdown, Enter goes to the key")
    func compare() throws {
        var state = try MenuFixture.state(width: 120, height: 30)
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .openCompare)
        guard case .comparing(let view) = state.mode else {
            Issue.record("C opens the compare view: \(state.mode)")
            return
        }
        #expect(view.rows(state.data).count == 3 && view.selection == 1, "the module's keys, the selected one chosen")
        try expectScreen(renderer.render(state), "compare")
        let text = renderer.render(state).text
        #expect(text.contains("Compare · Photos · 3 keys · function.media.* · 3 differ from their default"))
        let quality = try #require(text.split(separator: "\n").first { $0.contains(" quality ") })
        #expect(quality.contains("≠") && quality.contains("70") && quality.contains("85") && quality.contains("95"))
        let copied = reduce(&state, .openCopyMenu)
        guard case .copyToClipboard(let markdown)? = copied.first else {
            Issue.record("y copies: \(copied)")
            return
        }
        #expect(markdown.contains("| ≠ | function.media.quality | `70` | `85` | **`95`** |"), "\(markdown)")
        #expect(state.status?.text.contains("comparison of Photos (3 keys, Markdown)") == true)
        reduce(&state, .move(1), .activate)
        #expect(state.mode == .browsing)
        #expect(state.selectedKey.map { state.data.table.keys[$0].descriptor.name } == "function.media.upload_mode")

        // Payments: a refused server value says so.
        MenuFixture.select("function.payments.daily_limit", in: &state)
        reduce(&state, .openCompare)
        #expect(renderer.render(state).text.contains("1,000 ✗ refused"))
        reduce(&state, .toggleHistoryFilter)
        guard case .comparing(let differences) = state.mode else { return }
        #expect(differences.onlyDifferences && differences.rows(state.data).count == 1, "only the test differs")
    }

    @Test("Ctrl-Z suspends from every mode; confirmations share one title style; pickers fit '(current)'")
    func manners() throws {
        for keymap in [Keymap.keys, .editing, .filtering, .history, .compare, .confirming] {
            #expect(keymap.action(for: .control("z")) == .suspend, "\(keymap.name)")
        }
        var state = try MenuFixture.state()
        #expect(reduce(&state, .suspend) == [.suspend])
        #expect(Keymap.keys.bindings.contains { $0.keys == [.control("z")] }, "help lists Ctrl-Z")
        reduce(&state, .resetAll)
        #expect(renderer.render(state).text.contains("┌ Confirm · reset "))
        reduce(&state, .cancel)
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .activate)
        let picker = renderer.render(state).text
        #expect(picker.contains("(current)"), "\(picker)")
    }
}

/// Digits jump to a module, the key list keeping the keyboard (what brings the QA task under 10 keys).
@Suite("digits jump to a module")
struct ModuleDigitTests {
    @Test("2 filters by the second module and selects its first key; 0 is All; a digit past the last says so")
    func digits() throws {
        var state = try MenuFixture.state()
        #expect(Keymap.keys.action(for: .character("2")) == .jumpToModule(2))
        #expect(Keymap.modules.action(for: .character("0")) == .jumpToModule(0))
        #expect(Keymap.keys.bindings.contains { $0.keyLabel == "0–9" }, "help lists them once, as 0–9")
        reduce(&state, .jumpToModule(2))
        #expect(state.filters.scope.map { state.data.table.scopes[$0].name } == "Chat")
        #expect(state.focus == .keys)
        #expect(state.selectedKey.map { state.data.table.keys[$0].descriptor.name } == "function.chat.greeting")
        reduce(&state, .jumpToModule(0))
        #expect(state.filters.scope == nil)
        reduce(&state, .jumpToModule(9))
        #expect(state.filters.scope == nil && state.status?.text == "There is no module 9: the pane lists 3")
    }
}

/// "Revert to here" in the history (issue 25 item 6).
@Suite("revert to here, from the history")
struct RevertToHereTests {
    @Test("r on a change asks, naming the later changes and the keys; y writes one revert; the newest has nothing")
    func revert() throws {
        var state = try MenuFixture.state(width: 120, height: 36)
        reduce(&state, .openHistory)
        reduce(&state, .revertToHere)
        #expect(state.status?.text == "This is the newest change: there is nothing after it to revert")
        reduce(&state, .bottom, .revertToHere)
        guard case .confirming(.revert(let proposal, _)) = state.mode else {
            Issue.record("r asks first: \(state.mode)")
            return
        }
        #expect(proposal.record.id == "1" && proposal.laterChanges.map(\.id) == ["2", "3", "4"])
        #expect(proposal.restores["function.chat.greeting"]??.value == "Hello", "what the hand edit replaced")
        let text = MenuRenderer().render(state).text
        #expect(text.contains("Confirm · revert") && text.contains("That undoes the 3 later changes at once"))
        let effects = reduce(&state, .confirm)
        guard case .revert(let sent, let id)? = effects.first else {
            Issue.record("y reverts: \(effects)")
            return
        }
        #expect(sent == proposal && id > 0)
        guard case .history = state.mode else {
            Issue.record("back in the history: \(state.mode)")
            return
        }
    }
}

/// Redo in the menu (issue 25 item 6): `U` reverses the last undo.
@Suite("redo in the menu")
struct MenuRedoTests {
    @Test("U asks the runtime; no undo since: says so; this menu's own undo is redone at once, another's is asked")
    func redo() throws {
        var state = try MenuFixture.state()
        #expect(reduce(&state, .redo) == [.proposeRedo])
        reduce(&state, MenuFeedback.redoProposed(nil))
        #expect(state.status?.text == "Nothing to redo: no undo since the last change")
        // The fixture's record 3 is this menu's undo of record 2 (quality 95 → 60 undone back to 95).
        let undo = try #require(MenuFixture.history.records.first { $0.id == "3" })
        var current: [String: OverrideEntry] = [:]
        for status in state.data.statuses { if let entry = status.override { current[status.name] = entry } }
        let own = OverrideUndoProposal(record: undo, current: current, redoing: true)
        let effects = reduce(&state, MenuFeedback.redoProposed(own))
        guard case .undo(let sent, _)? = effects.first else {
            Issue.record("this menu's own undo is redone at once: \(effects)")
            return
        }
        #expect(sent.isRedo && sent.restores["function.media.quality"]??.value == "60")
        reduce(&state, MenuFeedback.redoSucceeded(undo.summary, id: 0))
        #expect(state.status?.text.hasPrefix("Redone: reversed ") == true)

        var other = undo
        other.origin = OverrideChangeOrigin(kind: .cli, name: "config-menu", pid: 1)
        reduce(&state, MenuFeedback.redoProposed(OverrideUndoProposal(record: other, current: current, redoing: true)))
        guard case .confirming(.undo(let asked, own: false, _)) = state.mode else {
            Issue.record("another's undo is asked first: \(state.mode)")
            return
        }
        #expect(asked.isRedo)
        let text = MenuRenderer().render(state).text
        #expect(text.contains("Confirm · redo") && text.contains("Redo: reverse the undo by cli"), "\(text)")
        reduce(&state, .cancel)
        #expect(state.status?.text == "Nothing was redone; the undo stays")
    }

    @Test("the history marks a change (undone) while its undo stands, not after a redo of that undo")
    func undoneMark() throws {
        var state = try MenuFixture.state(width: 120, height: 36)
        reduce(&state, .openHistory)
        let row = { (text: String) in text.split(separator: "\n").first { $0.contains("\"60\"") && $0.contains("set ") }
        }
        #expect(row(MenuRenderer().render(state).text)?.contains("(undone)") == true, "record 2, undone by 3")
        var history = state.data.history
        let undo = try #require(history.records.first { $0.id == "3" })
        history.records.append(
            OverrideJournalRecord(
                id: "5", time: undo.time.addingTimeInterval(60), origin: MenuFixture.origin,
                reason: OverrideChangeReason(.redo, undoes: "3"),
                changes: undo.changes.map { .init(key: $0.key, old: $0.new, new: $0.old) }))
        state.data.history = history
        #expect(row(MenuRenderer().render(state).text)?.contains("(undone)") == false, "redone")
    }
}
