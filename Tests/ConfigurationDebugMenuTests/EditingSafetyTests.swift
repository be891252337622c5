import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Work in an editor is never lost without a question, and another process's change is never overwritten or
/// undone without a word.
@Suite("Editing safely: nothing discarded or overwritten silently")
struct EditingSafetyTests {
    @Test("Esc in an unchanged editor closes it; in a changed one it asks, and n goes back to the same text")
    func escapeAsks() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        reduce(&state, .activate, .editCancel)
        #expect(state.mode == .browsing)
        reduce(&state, .activate, .editInsert("7"))
        guard case .editing(let editor) = state.mode else {
            Issue.record("editor expected")
            return
        }
        reduce(&state, .editCancel)
        #expect(state.mode == .confirming(.discardEdit(key: "function.media.quality", editor: .editing(editor))))
        reduce(&state, .cancel)
        #expect(state.mode == .editing(editor), "n keeps editing, text and caret as they were")
        reduce(&state, .editCancel, .confirm)
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "Discarded your changes to function.media.quality")
    }

    @Test("the JSON editor asks too, and Ctrl-C with unsaved changes asks before quitting")
    func jsonAndQuit() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(&state, .activate, .editNewline)
        #expect(reduce(&state, .quit).isEmpty, "Ctrl-C does not quit at once")
        guard case .confirming(.quitDiscardingEdit(let key, let editor)) = state.mode else {
            Issue.record("expected the question")
            return
        }
        #expect(key == "function.chat.reactions")
        reduce(&state, .cancel)
        #expect(state.mode == editor)
        reduce(&state, .editCancel)
        guard case .confirming(.discardEdit) = state.mode else {
            Issue.record("Esc in a changed JSON editor asks")
            return
        }
        reduce(&state, .cancel)
        #expect(reduce(&state, .quit).isEmpty)
        #expect(reduce(&state, .quit) == [.quit], "Ctrl-C twice quits")
    }

    @Test("an unknown escape sequence or a paste is never Esc: the editor stays open")
    func unknownKeys() throws {
        #expect(Keymap.editing.action(for: .unknown("\u{1B}[99~")) == nil)
        #expect(Keymap.editingJSON.action(for: .unknown("\u{1B}x")) == nil)
        #expect(EscapeSequence.decode(Array("[1~")) == .complete(.home))
        #expect(EscapeSequence.decode(Array("[4~")) == .complete(.end))
        #expect(EscapeSequence.decode(Array("OH")) == .complete(.home))
        #expect(EscapeSequence.decode(Array("[1;5C")) == .complete(.right))
        #expect(EscapeSequence.decode(Array("[200~")) == .pasteStart)
        #expect(EscapeSequence.decode(Array("[1")) == .incomplete)
        #expect(EscapeSequence.decode(Array("[99~")) == .complete(.unknown("\u{1B}[99~")))
        #expect(Keymap.editing.action(for: .paste("a\nb")) == .editInsert("a b"), "no Enter from a paste")
        #expect(Keymap.editingJSON.action(for: .paste("a\nb")) == .editInsert("a\nb"))
    }

    @Test("a key changed elsewhere while its editor is open: the editor says so and saving asks first")
    func changedUnderneath() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.quality", in: &state)
        let key = MenuFixture.key("function.media.quality", in: state)
        reduce(&state, .activate, .editDelete(.toLineStart), .editInsert("777"))
        let theirs = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: "85", override: OverrideEntry(value: "123", setAt: nil))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: theirs], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.quality"], time: 100)))
        guard case .editing(let editor) = state.mode else {
            Issue.record("still editing")
            return
        }
        #expect(editor.changedElsewhere == "123")
        #expect(editor.field.string == "777", "the person's text is untouched")
        #expect(MenuRenderer().render(state).text.contains("⚠ changed elsewhere to 123 while you edit"))
        #expect(reduce(&state, .editSave).isEmpty, "Enter asks instead of saving")
        guard case .confirming(.overwrite(let name, "123", _)) = state.mode else {
            Issue.record("expected the overwrite question")
            return
        }
        #expect(name == "function.media.quality")
        reduce(&state, .cancel)
        #expect(state.mode == .editing(editor))
        reduce(&state, .editSave)
        let effects = reduce(&state, .confirm)
        guard case .write(let write)? = effects.first else {
            Issue.record("y saves")
            return
        }
        #expect(write.changes == [.init(key: "function.media.quality", value: "777")])
    }

    @Test("changes made elsewhere are marked for a few seconds and named in the footer")
    func marks() throws {
        var state = try MenuFixture.state()
        let key = MenuFixture.key("function.media.upload_mode", in: state)
        let status = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: "always",
            override: OverrideEntry(value: "never", setAt: nil))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: status], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.upload_mode"], time: 50)))
        #expect(state.status?.text == "Changed elsewhere: function.media.upload_mode = never")
        let row = try #require(
            MenuRenderer().render(state).text.split(separator: "\n").first { $0.contains("Upload Mode") })
        #expect(row.contains("OVERRIDDEN *"), "row: \(row)")
        reduce(&state, .tick(53))
        #expect(state.changedElsewhere["function.media.upload_mode"] == 50)
        reduce(&state, .tick(56))
        #expect(state.changedElsewhere.isEmpty)
    }
}

@Suite("Notes in the menu")
struct NoteEditingTests {
    @Test("n edits the selected override's note; the value, time and server value stay; an empty note removes it")
    func editNote() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-note-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try MenuFixture.service(in: folder)
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        let loop = MenuLoop(source: source, terminal: SilentTerminal(), label: "fixture")
        var state = MenuState(data: source.initialData(label: "fixture"), width: 100, height: 30)
        MenuFixture.select("function.media.quality", in: &state)
        let before = try #require(service.overrideStore.entry(forKey: "function.media.quality"))
        #expect(loop.performAndWait([.editNote, .editInsert("slow network")], on: &state))
        #expect(MenuRenderer().render(state).text.contains("Note for function.media.quality"))
        #expect(loop.performAndWait([.editSave], on: &state))
        var after = try #require(service.overrideStore.entry(forKey: "function.media.quality"))
        #expect(after.note == "slow network")
        #expect(after.value == before.value && after.setAt == before.setAt)
        #expect(after.serverValueWhenSet == before.serverValueWhenSet)
        #expect(state.status?.text == "Saved: note of function.media.quality: slow network")
        // A value change from the menu keeps the note.
        #expect(loop.performAndWait([.activate, .editDelete(.toLineStart), .editInsert("42"), .editSave], on: &state))
        after = try #require(service.overrideStore.entry(forKey: "function.media.quality"))
        #expect(after.value == "42" && after.note == "slow network")
        // u undoes the value change, then the note.
        #expect(loop.performAndWait([.undo], on: &state))
        #expect(loop.performAndWait([.undo], on: &state))
        #expect(service.overrideStore.entry(forKey: "function.media.quality") == before)
        // An empty note removes it.
        #expect(loop.performAndWait([.editNote, .editInsert("x"), .editSave], on: &state))
        #expect(loop.performAndWait([.editNote, .editDelete(.toLineStart), .editSave], on: &state))
        #expect(service.overrideStore.entry(forKey: "function.media.quality")?.note == nil)
    }

    @Test("n on a key without an override says what to do")
    func noOverride() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .editNote)
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "A note goes with an override: set one first, then n")
    }
}
