import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Each test reads as: state in, action, state out (and effects).
@Suite("MenuReducer: state in, action, state out")
struct ReducerTests {
    typealias Row = KeyList.Row

    func name(_ state: MenuState) -> String? {
        state.selectedKey.map { state.data.table.keys[$0].descriptor.name }
    }

    // MARK: Moving

    @Test("the first key is selected at start; j/k move over keys and skip headings")
    func moving() throws {
        var state = try MenuFixture.state()
        #expect(state.list.rows.first == .heading(scope: 0))
        #expect(name(state) == "function.media.hdr.enabled")
        reduce(&state, .move(3))
        #expect(name(state) == "function.chat.greeting", "the Chat heading is skipped")
        reduce(&state, .move(-1))
        #expect(name(state) == "function.media.upload_mode")
        reduce(&state, .move(-10))
        #expect(name(state) == "function.media.hdr.enabled")
        #expect(state.list.scroll == 0, "the first heading stays visible")
    }

    @Test("g and G jump to the ends; the last row is the orphan")
    func topBottom() throws {
        var state = try MenuFixture.state()
        reduce(&state, .bottom)
        #expect(state.selectedOrphan == 0)
        reduce(&state, .top)
        #expect(name(state) == "function.media.hdr.enabled")
    }

    @Test("paging moves a screenful and keeps the selection visible")
    func paging() throws {
        var state = try MenuFixture.state(width: 80, height: 18)
        let rows = state.visibleKeyRows
        reduce(&state, .page(1))
        #expect(state.list.selection >= rows - 1)
        #expect(state.list.selection >= state.list.scroll && state.list.selection < state.list.scroll + rows)
        reduce(&state, .page(-1))
        #expect(name(state) == "function.media.hdr.enabled")
    }

    @Test("Tab switches panes; moving in the module pane filters by scope")
    func modules() throws {
        var state = try MenuFixture.state()
        reduce(&state, .focusModules)
        #expect(state.focus == .modules)
        reduce(&state, .move(2))
        #expect(state.filters.scope == 1)
        #expect(state.list.rows == [.heading(scope: 1), .key(3), .key(4), .key(5)])
        #expect(name(state) == "function.chat.greeting")
        reduce(&state, .top)
        #expect(state.filters.scope == nil)
        reduce(&state, .bottom)
        #expect(state.filters.scope == 2)
        reduce(&state, .focusKeys)
        #expect(state.focus == .keys)
        reduce(&state, .focusModules)
        #expect(state.focus == .modules)
        reduce(&state, .activate)
        #expect(state.focus == .keys, "Enter in the module pane goes to the keys")
    }

    // MARK: Filtering

    @Test("/ starts an incremental filter; Enter keeps it; Esc clears it")
    func filtering() throws {
        var state = try MenuFixture.state()
        reduce(&state, .startFilter)
        #expect(state.mode == .filtering(FilterBar(previous: "")))
        reduce(&state, .filterInsert("l"), .filterInsert("i"), .filterInsert("m"))
        #expect(state.filters.query == "lim")
        #expect(state.list.rows == [.key(MenuFixture.key("function.payments.daily_limit", in: state))])
        reduce(&state, .filterBackspace)
        #expect(state.filters.query == "li")
        reduce(&state, .filterAccept)
        #expect(state.mode == .browsing)
        #expect(state.filters.query == "li")
        reduce(&state, .startFilter, .filterCancel)
        #expect(state.filters.query == "")
        #expect(state.mode == .browsing)
        #expect(state.list.rows.count == 13)
        reduce(&state, .startFilter, .filterInsert("x"), .filterErase)
        #expect(state.filters.query == "")
    }

    @Test("narrowing reuses the previous matches, and results equal a fresh search")
    func narrowing() throws {
        var state = try MenuFixture.state()
        reduce(&state, .startFilter, .filterInsert("f"), .filterInsert("u"))
        #expect(state.list.cache?.query == "fu")
        reduce(&state, .filterInsert("n"))
        let narrowed = state.list.rows
        var fresh = try MenuFixture.state()
        fresh.filters.query = "fun"
        fresh.refreshList()
        #expect(narrowed == fresh.list.rows)
    }

    @Test("o shows only overridden keys; ! only problems; Esc clears every filter")
    func toggles() throws {
        var state = try MenuFixture.state()
        reduce(&state, .toggleOnlyOverridden)
        let overridden = state.list.rows.compactMap { row -> String? in
            if case .key(let key) = row { return state.data.table.keys[key].descriptor.name }
            return nil
        }
        #expect(
            overridden == [
                "function.media.hdr.enabled", "function.media.quality", "function.chat.greeting",
                "function.payments.daily_limit",
            ])
        #expect(state.list.rows.last == .orphan(0))
        #expect(state.status?.text == "Showing only overridden keys")
        reduce(&state, .toggleOnlyOverridden, .toggleOnlyProblems)
        let problems = state.list.rows.compactMap { row -> String? in
            if case .key(let key) = row { return state.data.table.keys[key].descriptor.name }
            return nil
        }
        #expect(problems == ["function.media.quality", "function.payments.daily_limit"])
        reduce(&state, .focusModules, .move(1), .focusKeys)
        state.filters.query = "qual"
        state.refreshList()
        reduce(&state, .clearFilters)
        #expect(!state.filters.onlyProblems && state.filters.scope == nil && state.filters.query.isEmpty)
        #expect(state.list.rows.count == 13)
    }

    // MARK: Changing values

    @Test("Space flips a Bool: a write effect; the screen waits for the store")
    func toggleBool() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.typing.enabled", in: &state)
        let before = state.data
        let effects = reduce(&state, .toggle)
        #expect(
            effects == [
                .write(
                    OverrideWrite(
                        changes: [.init(key: "function.chat.typing.enabled", value: "Y")],
                        summary: "function.chat.typing.enabled = Y", id: 1))
            ]
        )
        #expect(state.data == before, "nothing is shown as changed before the write succeeds")
        #expect(
            state.pending == [
                PendingChange(
                    id: 1, summary: "function.chat.typing.enabled = Y", values: ["function.chat.typing.enabled": "Y"])
            ])
        let row = MenuRenderer(colors: false).render(state).text.split(separator: "\n").first {
            $0.contains("Typing Enabled")
        }
        #expect(
            row?.contains("[x] Y") == true && row?.contains("saving…") == true, "the value asked for, not saved yet")
        // The next Space flips the value asked for, not the one stored.
        guard case .write(let next)? = reduce(&state, .toggle).first else {
            Issue.record("expected a second write")
            return
        }
        #expect(next.changes == [.init(key: "function.chat.typing.enabled", value: "N")] && next.id == 2)
        reduce(&state, .writeSucceeded(OverrideWrite(changes: [], summary: "function.chat.typing.enabled = Y", id: 1)))
        #expect(state.pending.map(\.id) == [2])
    }

    @Test("Enter on a Bool flips it too; on other keys it opens their control")
    func activate() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.hdr.enabled", in: &state)
        #expect(reduce(&state, .activate).count == 1)
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .activate)
        guard case .picking(let picker) = state.mode else {
            Issue.record("expected the picker")
            return
        }
        #expect(picker.choices.map(\.value) == ["wifi", "always", "never"])
        #expect(picker.current == 1)
        #expect(picker.selected == 1)
        reduce(&state, .pickerCancel)
        #expect(state.mode == .browsing)
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .toggle)
        guard case .editing(let editor) = state.mode else {
            Issue.record("Space on a number opens its editor")
            return
        }
        #expect(editor.field.string == "95")
        #expect(editor.field.cursor == 2)
        #expect(editor.validation == .valid("95"))
    }

    @Test("picker: j/k, g/G, choose writes the choice; choosing the current override changes nothing")
    func picking() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("ab.payments.checkout", in: &state)
        reduce(&state, .activate)
        reduce(&state, .top)
        #expect({ if case .picking(let p) = state.mode { p.selected == 0 } else { false } }())
        reduce(&state, .bottom, .move(-1))
        let effects = reduce(&state, .pickerChoose)
        #expect(effects.count == 1)
        if case .write(let write) = effects[0] {
            #expect(write.changes == [.init(key: "ab.payments.checkout", value: "off")])
        }
        #expect(state.mode == .browsing)
    }

    @Test("the text editor: caret moves, Ctrl-U/W/K, live validation, invalid input cannot be saved")
    func textEditor() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .activate, .editMove(.lineStart), .editInsert("1"))
        guard case .editing(var editor) = state.mode else {
            Issue.record("editor expected")
            return
        }
        #expect(editor.field.string == "195")
        #expect(editor.field.cursor == 1)
        reduce(&state, .editMove(.right), .editDelete(.toLineEnd))
        guard case .editing(let afterKill) = state.mode else {
            Issue.record("editor expected")
            return
        }
        #expect(afterKill.field.string == "19")
        reduce(&state, .editInsert("x"))
        guard case .editing(let invalid) = state.mode else {
            Issue.record("editor expected")
            return
        }
        #expect(invalid.validation == .invalid("expected an integer, got \"19x\""))
        #expect(reduce(&state, .editSave).isEmpty)
        #expect(state.status?.isError == true)
        reduce(&state, .editDelete(.backward), .editMove(.lineEnd), .editInsert(" "), .editInsert("2"))
        reduce(&state, .editDelete(.wordBackward), .editDelete(.backward))
        guard case .editing(let fixed) = state.mode else {
            Issue.record("editor expected")
            return
        }
        #expect(fixed.field.string == "19")
        editor = fixed
        #expect(editor.validation == .valid("19"))
        let effects = reduce(&state, .editSave)
        #expect(state.mode == .browsing)
        if case .write(let write) = effects.first {
            #expect(write.changes == [.init(key: "function.media.quality", value: "19")])
            #expect(write.expiry == nil, "no expiry asked for: a new value never expires")
        } else {
            Issue.record("expected a write")
        }
        reduce(&state, .activate, .editCancel)
        #expect(state.mode == .browsing)
    }

    @Test("the JSON editor: new lines keep indentation, joins lines, saves the canonical form")
    func jsonEditor() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(&state, .activate)
        guard case .editingJSON(let editor) = state.mode else {
            Issue.record("JSON editor expected")
            return
        }
        #expect(editor.lines.map { String($0) } == ["[", "  \"👍\",", "  \"🎉\"", "]"])
        reduce(&state, .editMove(.down), .editMove(.lineEnd), .editNewline)
        reduce(&state, .editInsert("\"🔥\","))
        guard case .editingJSON(let edited) = state.mode else {
            Issue.record("JSON editor expected")
            return
        }
        #expect(edited.lines.map { String($0) } == ["[", "  \"👍\",", "  \"🔥\",", "  \"🎉\"", "]"])
        #expect(edited.validation == .valid(#"["👍","🔥","🎉"]"#))
        reduce(&state, .editMove(.lineStart), .editDelete(.backward))
        guard case .editingJSON(let joined) = state.mode else {
            Issue.record("JSON editor expected")
            return
        }
        #expect(joined.lines.count == 4)
        #expect(String(joined.lines[1]) == "  \"👍\",  \"🔥\",")
        reduce(&state, .editInsert("{"))
        #expect(reduce(&state, .editSave).isEmpty, "invalid JSON cannot be saved")
        reduce(&state, .editDelete(.backward))
        let effects = reduce(&state, .editSave)
        if case .write(let write) = effects.first {
            #expect(write.changes == [.init(key: "function.chat.reactions", value: #"["👍","🔥","🎉"]"#)])
        } else {
            Issue.record("expected a write")
        }
    }

    @Test("$EDITOR returns after another process changed the key: it asks; n keeps the text in the menu's editor")
    func externalEditorConflict() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        let key = MenuFixture.key("function.media.quality", in: state)
        guard case .openExternalEditor(let edit)? = reduce(&state, .externalEdit).first else {
            Issue.record("expected $EDITOR")
            return
        }
        #expect(edit.startedFrom == "95" && edit.text == "95")
        // Unchanged: nothing is saved.
        #expect(reduce(&state, .externalEditFinished(edit, text: "95\n")).isEmpty)
        #expect(state.status?.text == "Nothing saved: the text came back from $EDITOR unchanged")
        // Another process set 111 while the editor ran.
        var theirs = state.data.statuses[key]
        theirs.override = OverrideEntry(value: "111", setAt: MenuFixture.setAt)
        theirs.value = "111"
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: theirs], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.quality"])))
        #expect(reduce(&state, .externalEditFinished(edit, text: "2222\n")).isEmpty, "nothing saved before y")
        guard case .confirming(.overwrite(let name, let value, .editing(let editor))) = state.mode else {
            Issue.record("expected the question, got \(state.mode)")
            return
        }
        #expect(name == "function.media.quality" && value == "111")
        #expect(editor.field.string == "2222" && editor.changedElsewhere == "111" && editor.isChanged)
        reduce(&state, .cancel)
        #expect(state.mode == .editing(editor), "n: back to the text, in the menu's editor")
        reduce(&state, .editSave)
        guard case .write(let write)? = reduce(&state, .confirm).first else {
            Issue.record("y saves")
            return
        }
        #expect(write.changes == [.init(key: "function.media.quality", value: "2222")])
        // Ctrl-O from the JSON editor carries what that editor started from, and what it already saw change.
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(&state, .activate)
        guard case .openExternalEditor(let json)? = reduce(&state, .externalEdit).first else {
            Issue.record("expected $EDITOR from the JSON editor")
            return
        }
        #expect(json.startedFrom == nil && json.changedElsewhere == nil)
    }

    @Test("e opens $EDITOR with pretty JSON; a valid result saves, an invalid one stays in the editor with the reason")
    func externalEditor() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.reactions", in: &state)
        let key = MenuFixture.key("function.chat.reactions", in: state)
        let edit = ExternalEdit(key: key, text: "[\n  \"👍\",\n  \"🎉\"\n]", startedFrom: nil)
        #expect(reduce(&state, .externalEdit) == [.openExternalEditor(edit)])
        let saved = reduce(&state, .externalEditFinished(edit, text: "[\"a\"]\n"))
        if case .write(let write) = saved.first { #expect(write.changes.first?.value == #"["a"]"#) }
        let refused = reduce(&state, .externalEditFinished(edit, text: "[\"a\"\n"))
        #expect(refused.isEmpty)
        guard case .editingJSON(let editor) = state.mode else {
            Issue.record("JSON editor expected")
            return
        }
        #expect(editor.text == "[\"a\"")
        #expect(state.status?.isError == true)
        reduce(&state, .editCancel)
        MenuFixture.select("function.media.hdr.enabled", in: &state)
        #expect(reduce(&state, .externalEdit).isEmpty)
        reduce(&state, .externalEditFailed("vi exited with status 1; nothing was saved"))
        #expect(state.status == .init(text: "error: vi exited with status 1; nothing was saved", isError: true))
    }

    @Test("r resets the selected key; keys without an override say so; orphans can be reset")
    func resetSelected() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        let effects = reduce(&state, .resetSelected)
        #expect(
            effects == [
                .write(
                    OverrideWrite(
                        changes: [.init(key: "function.media.quality", value: nil)],
                        summary: "function.media.quality override removed", id: 1
                    ))
            ]
        )
        MenuFixture.select("function.media.upload_mode", in: &state)
        #expect(reduce(&state, .resetSelected).isEmpty)
        #expect(state.status?.text == "function.media.upload_mode has no override")
        reduce(&state, .bottom)
        if case .write(let write) = reduce(&state, .resetSelected).first {
            #expect(write.changes == [.init(key: "removed.feature.enabled", value: nil)])
        } else {
            Issue.record("expected a write for the orphan")
        }
    }

    @Test("S asks before resetting a scope; y writes, n keeps")
    func resetScope() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .resetScope)
        #expect(
            state.mode
                == .confirming(
                    .resetScope(name: "Photos", keys: ["function.media.hdr.enabled", "function.media.quality"])))
        reduce(&state, .cancel)
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "Nothing was reset")
        reduce(&state, .resetScope)
        let effects = reduce(&state, .confirm)
        guard case .write(let write) = effects.first else {
            Issue.record("expected a write")
            return
        }
        #expect(write.changes.map(\.key) == ["function.media.hdr.enabled", "function.media.quality"])
        #expect(write.changes.allSatisfy { $0.value == nil })
    }

    @Test("R asks before resetting everything, orphans included; nothing to reset says so")
    func resetAll() throws {
        var state = try MenuFixture.state()
        reduce(&state, .resetAll)
        #expect(state.mode == .confirming(.resetAll(count: 5)))
        let effects = reduce(&state, .confirm)
        guard case .write(let write) = effects.first else {
            Issue.record("expected a write")
            return
        }
        #expect(write.changes.count == 5)
        #expect(write.changes.map(\.key).contains("removed.feature.enabled"))
        var empty = try MenuFixture.state(entries: [:])
        reduce(&empty, .resetAll)
        #expect(empty.mode == .browsing)
        #expect(empty.status?.text == "There are no overrides to reset")
    }

    /// A recorded change of the greeting (the fixture's store holds "Hi 👋"), made by `origin`.
    static func greetingProposal(origin: OverrideChangeOrigin, changedSince: Bool = false) -> OverrideUndoProposal {
        let record = OverrideJournalRecord(
            id: "1764425100000-4411-1", time: MenuFixture.setAt, origin: origin, reason: OverrideChangeReason(.set),
            changes: [.init(key: "function.chat.greeting", old: nil, new: OverrideEntry(value: "Hi 👋", setAt: nil))])
        return OverrideUndoProposal(
            record: record,
            current: [
                "function.chat.greeting": OverrideEntry(value: changedSince ? "Hey" : "Hi 👋", setAt: nil)
            ])
    }

    @Test(
        "u asks the runtime for the last recorded change; this menu's own is undone at once, nothing recorded says so")
    func undo() throws {
        var state = try MenuFixture.state()
        #expect(reduce(&state, .undo) == [.proposeUndo])
        #expect(reduce(&state, .undoProposed(nil)).isEmpty)
        #expect(state.status?.text == "Nothing to undo: no change is recorded")
        let own = Self.greetingProposal(origin: state.data.origin)
        #expect(reduce(&state, .undoProposed(own)) == [.undo(own, id: 1)])
        #expect(state.mode == .browsing)
        reduce(&state, .writeFailed("disk full", id: 1))
        #expect(state.status?.isError == true)
        reduce(&state, .undoSucceeded("set function.chat.greeting = \"Hi 👋\"", id: 0))
        #expect(state.status?.text == "Undone: set function.chat.greeting = \"Hi 👋\"")
    }

    @Test("u over another process's change says whose and asks; n keeps their change, y undoes")
    func undoOverOthers() throws {
        var state = try MenuFixture.state()
        let theirs = Self.greetingProposal(origin: OverrideChangeOrigin(kind: .cli, name: "config-menu", pid: 4411))
        #expect(reduce(&state, .undoProposed(theirs)).isEmpty)
        #expect(state.mode == .confirming(.undo(theirs, own: false)))
        guard case .confirming(let question) = state.mode else { return }
        #expect(question.question.contains("the change by cli (pid 4411) at 2025-11-29 14:05:00"))
        #expect(question.question.contains("set function.chat.greeting = \"Hi 👋\""))
        reduce(&state, .cancel)
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "Nothing was undone; their change stays")
        reduce(&state, .undoProposed(theirs))
        #expect(reduce(&state, .confirm) == [.undo(theirs, id: 1)], "the first change this menu asks for")
        // The menu's own change, changed again since by someone else: asked too, naming the key.
        let changed = Self.greetingProposal(origin: state.data.origin, changedSince: true)
        #expect(reduce(&state, .undoProposed(changed)).isEmpty)
        guard case .confirming(let again) = state.mode else {
            Issue.record("expected a question")
            return
        }
        #expect(again.question.contains("function.chat.greeting was changed again since (now \"Hey\")"))
    }

    @Test("a failed write shows the error and changes nothing")
    func writeFailed() throws {
        var state = try MenuFixture.state()
        let before = state.data
        reduce(&state, .writeFailed("/x/overrides.json: cannot save: No space left on device (errno 28)", id: 0))
        #expect(
            state.status
                == .init(
                    text: "error: not saved: /x/overrides.json: cannot save: No space left on device (errno 28)",
                    isError: true))
        #expect(state.data == before)
    }

    @Test("refreshed data updates statuses and counts and keeps the selection on the same key")
    func refreshed() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        let key = MenuFixture.key("function.media.upload_mode", in: state)
        let status = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: "always",
            override: OverrideEntry(value: "never", setAt: nil))
        reduce(&state, .refreshed(MenuDataUpdate(statuses: [key: status], orphans: [], storeProblem: "broken")))
        #expect(state.data.statuses[key] == status)
        #expect(state.data.scopeOverrideCounts[0] == 3)
        #expect(state.data.orphans.isEmpty)
        #expect(state.data.storeProblem == "broken")
        #expect(name(state) == "function.media.upload_mode")
    }

    // MARK: Screens and events

    @Test("help opens for the current mode and returns to it")
    func help() throws {
        var state = try MenuFixture.state()
        reduce(&state, .help)
        #expect(state.mode == .help(HelpScreen(context: .keys, returnTo: .browsing)))
        reduce(&state, .closeHelp)
        #expect(state.mode == .browsing)
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .activate, .help)
        guard case .help(let help) = state.mode, help.context == .editing, case .editing = help.returnTo else {
            Issue.record("help from the editor returns to it")
            return
        }
        reduce(&state, .closeHelp)
        guard case .editing = state.mode else {
            Issue.record("back in the editor")
            return
        }
    }

    @Test("q and Ctrl-C quit from every mode")
    func quit() throws {
        var state = try MenuFixture.state()
        #expect(reduce(&state, .quit) == [.quit])
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .activate)
        #expect(state.keymap.action(for: .control("c")) == .quit)
        #expect(state.keymap.action(for: .character("q")) == .editInsert("q"))
        #expect(reduce(&state, .quit) == [.quit])
    }

    @Test("resizing keeps the selection visible")
    func resize() throws {
        var state = try MenuFixture.state()
        reduce(&state, .bottom)
        reduce(&state, .resize(width: 70, height: 16))
        #expect(state.width == 70)
        #expect(
            state.list.selection >= state.list.scroll && state.list.selection < state.list.scroll + state.visibleKeyRows
        )
        reduce(&state, .resize(width: 40, height: 10))
        #expect(state.layout.isTooSmall)
    }

    @Test("mouse: a click selects a key or a module; the wheel scrolls")
    func mouse() throws {
        var state = try MenuFixture.state()
        let layout = state.layout
        reduce(&state, .click(x: layout.keys.x + 5, y: layout.keys.y + 1 + 3))
        #expect(name(state) == "function.media.upload_mode")
        reduce(&state, .click(x: 3, y: layout.moduleRows.y + 2))
        #expect(state.focus == .modules)
        #expect(state.filters.scope == 1)
        reduce(&state, .wheel(1, x: 3, y: layout.moduleRows.y))
        #expect(state.filters.scope == 2)
        reduce(&state, .click(x: layout.keys.x + 5, y: layout.keys.y + 2))
        reduce(&state, .wheel(1, x: layout.keys.x + 5, y: layout.keys.y + 2))
        #expect(state.focus == .keys)
        #expect(name(state) == "ab.payments.checkout")
    }
}

/// A terminal that never receives input: enough to run the menu loop's effects in tests.
final class SilentTerminal: TerminalDevice {
    var size: (width: Int, height: Int) { (100, 30) }
    var supportsColor: Bool { false }
    var stopRequested: Bool { true }
    func draw(_ grid: ScreenGrid) {}
    func nextEvent(timeout: Int) -> KeyEvent? { nil }
    func suspend<Result>(_ body: () throws -> Result) rethrows -> Result { try body() }
    func copyToClipboard(_ text: String) {}
    func suspendJob() {}
    func close() {}
}

@Suite("The menu loop's effects, against a real service and store")
struct MenuLoopTests {
    @Test("reset all, then undo: every override comes back as it was stored, rejected values and orphans included")
    func undoRestoresEntries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try MenuFixture.service(in: folder)
        let store = service.overrideStore
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        let loop = MenuLoop(source: source, terminal: SilentTerminal(), label: "fixture")
        var state = MenuState(data: source.initialData(label: "fixture"), width: 100, height: 30)
        #expect(loop.performAndWait([.resetAll, .confirm], on: &state))
        #expect(store.entries.isEmpty)
        #expect(state.data.overrideCount == 0, "the screen shows what the store holds after the write")
        #expect(loop.performAndWait([.undo], on: &state))
        #expect(store.entries == MenuFixture.entries, "values the keys reject, orphans, times, notes: all restored")
        #expect(state.status?.text.hasPrefix("Undone: reset 5 overrides") == true, "\(state.status?.text ?? "")")
        #expect(state.data.overrideCount == 5)
        #expect(store.history().records.last?.reason.action == .undo)
    }

    @Test("u undoes another process's change through the journal, after asking whose it is")
    func undoAnotherProcess() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try MenuFixture.service(in: folder)
        let store = service.overrideStore
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        let loop = MenuLoop(source: source, terminal: SilentTerminal(), label: "fixture")
        var state = MenuState(data: source.initialData(label: "fixture"), width: 100, height: 30)
        let cli = FileOverrideStore(url: folder.appendingPathComponent("overrides.json"), origin: .cli)
        try cli.set("5000", forKey: "function.payments.daily_limit")
        store.reload()
        #expect(loop.performAndWait([.undo], on: &state))
        guard case .confirming(.undo(let proposal, own: false, returnTo: .browsing)) = state.mode else {
            Issue.record("expected the question, got \(state.mode)")
            return
        }
        #expect(proposal.record.origin.kind == .cli)
        #expect(loop.performAndWait([.confirm], on: &state))
        #expect(store.entry(forKey: "function.payments.daily_limit")?.value == "lots", "the value before their change")
        #expect(state.status?.text.contains("(by cli (pid") == true)
    }

    @Test("a failed write (a full disk) shows the error and the old value stays")
    func failedWrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-loop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileOverrideStore(
            url: folder.appendingPathComponent("overrides.json"), faults: { $0 == .write ? ENOSPC : nil })
        let service = LiveConfigurationService(
            serverValues: MenuFixture.serverValues,
            catalog: MenuFixture.catalog,
            overrideStore: store,
            watchMode: nil
        )
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        let loop = MenuLoop(source: source, terminal: SilentTerminal(), label: "fixture")
        var state = MenuState(data: source.initialData(label: "fixture"), width: 100, height: 30)
        MenuFixture.select("function.chat.typing.enabled", in: &state)
        let before = state.data
        #expect(loop.performAndWait([.toggle], on: &state))
        #expect(state.status?.isError == true)
        #expect(state.status?.text.contains("cannot save: No space left on device") == true)
        #expect(state.data.statuses == before.statuses, "the old value stays")
        #expect(state.data.storeProblem?.contains("No space left on device") == true, "the title bar says so too")
        #expect(service.overrides.isEmpty)
    }
}
