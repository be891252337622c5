import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// A QA day without traps: problems stay visible, the layout reads at any width, one counter, a footer that offers
/// what the selection offers, visible filters, help that scrolls, search by what keys do.
@Suite("QA day: problems, layout, counters, footer, filters, help, search")
struct QADayTests {
    let renderer = MenuRenderer(colors: false)

    func row(_ grid: ScreenGrid, containing text: String) -> String? {
        (0..<grid.height).map(grid.line).first { $0.contains(text) }
    }

    @Test("degraded live reload is named in the title bar, in place of the store's path, until it recovers")
    func degradedLiveReload() throws {
        var state = try MenuFixture.state()
        #expect(renderer.render(state).text.contains("store: "))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [:], orphans: state.data.orphans, storeProblem: nil,
                    liveReloadProblem: "the folder is gone; looking again every 250 ms")))
        let title = renderer.render(state).line(0)
        // A message keeps its beginning when the line is too short for it, and says where to read it whole.
        #expect(title.contains("live reload degraded: the folder is go…(L)"))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(statuses: [:], orphans: state.data.orphans, storeProblem: nil, liveReloadProblem: nil)))
        #expect(!renderer.render(state).line(0).contains("degraded"))
    }

    @Test("an override does not hide a server value the key rejects: marked !, listed under problems, explained")
    func serverProblemUnderOverride() throws {
        // The fixture's server sends "1,000" for the daily limit, which the Int key rejects.
        let entries = MenuFixture.entries.merging(
            [
                "function.payments.daily_limit": OverrideEntry(
                    value: "700", setAt: MenuFixture.setAt, serverValueWhenSet: "1,000")
            ]
        ) { $1 }
        var state = try MenuFixture.state(entries: entries)
        let key = MenuFixture.key("function.payments.daily_limit", in: state)
        #expect(state.data.statuses[key].source == .overridden)
        #expect(state.data.statuses[key].rejections.map(\.source) == [.server])
        reduce(&state, .toggleOnlyProblems)
        #expect(state.list.rows.contains(.key(key)))
        MenuFixture.select("function.payments.daily_limit", in: &state)
        let grid = renderer.render(state)
        #expect(try #require(row(grid, containing: "Daily Limit")).contains("OVERRIDDEN !"))
        #expect(grid.text.contains("✗ rejected: expected an integer"))
    }

    @Test(
        "distinct marks: ! for a rejected server value, ✗ for an override that is not applied; the help explains both")
    func marks() throws {
        // Tall enough for the whole help of the key list, the marks explained at its end.
        var state = try MenuFixture.state(width: 100, height: 70)
        // Server "1,000" rejected and override "lots" not applied.
        #expect(try #require(row(renderer.render(state), containing: "Daily Limit")).contains("!✗"))
        reduce(&state, .help)
        let help = renderer.render(state).text
        #expect(help.contains("! the server sent a value the key rejects"))
        #expect(help.contains("✗ the override is not applied"))
    }

    @Test("under a module heading the shared name prefix moves to the heading; long names are cut in the middle")
    func names() throws {
        let state = try MenuFixture.state(width: 200, height: 50)
        let grid = renderer.render(state)
        #expect(grid.text.contains("── Chat · 3 keys · function.chat.* · 1 overridden"))
        #expect(try #require(row(grid, containing: "Typing Enabled")).contains(" typing.enabled "))
        #expect(TextWidth.truncateMiddle("function.chat.typing_indicator.enabled", to: 20) == "function.…or.enabled")
        #expect(TextWidth.of(TextWidth.truncateMiddle("関数.チャット.タイピング", to: 9)) <= 9)
        #expect(KeyTable.commonPrefix(["function.chat.a", "function.chat.b.c"]) == "function.chat.")
        #expect(KeyTable.commonPrefix(["ab.payments.x", "function.payments.y"]) == "")
        #expect(KeyTable.commonPrefix(["a.b", "a.b.c"]) == "a.")
        #expect(KeyTable.commonPrefix(["a.b.", "a.b.c"]) == "", "no key may be left without a name")
    }

    @Test("at 80 columns the module pane folds away; Tab brings it back while it has the keyboard; m pins it")
    func narrowScreen() throws {
        var state = try MenuFixture.state(width: 80, height: 24)
        #expect(!state.layout.showsModules)
        #expect(!renderer.render(state).text.contains("Modules"))
        #expect(state.layout.keys.width == 80)
        reduce(&state, .focusModules)
        #expect(state.layout.showsModules)
        #expect(renderer.render(state).text.contains("Modules"))
        reduce(&state, .move(1), .focusKeys)
        #expect(!state.layout.showsModules, "back to the full-width list, filtered by the module")
        #expect(state.filters.scope == 0)
        reduce(&state, .toggleModulePane)
        #expect(state.layout.showsModules)
        var wide = try MenuFixture.state(width: 120, height: 36)
        #expect(wide.layout.showsModules)
        reduce(&wide, .toggleModulePane)
        #expect(!wide.layout.showsModules)
    }

    @Test("the details wrap a long value instead of cutting it")
    func detailsWrap() throws {
        let long = "[" + (1...30).map { "\"reaction-\($0)\"" }.joined(separator: ",") + "]"
        let entries = MenuFixture.entries.merging(["function.chat.reactions": OverrideEntry(value: long, setAt: nil)]) {
            $1
        }
        var state = try MenuFixture.state(width: 100, height: 34, entries: entries)
        MenuFixture.select("function.chat.reactions", in: &state)
        let text = renderer.render(state).text
        #expect(text.contains("\"reaction-12\""), "the value continues on the next lines")
        #expect(text.contains("… d shows all") || text.contains("\"reaction-30\"]"), "\(text)")
    }

    @Test("details cut short name the key bound to the pager; it shows everything, and no key in it changes a value")
    func detailsPager() throws {
        let note = String(repeating: "a long note about this toggle; ", count: 40) + "THE-END"
        let entries = MenuFixture.entries.merging([
            "function.chat.typing.enabled": OverrideEntry(value: "Y", setAt: MenuFixture.setAt, note: note)
        ]) { $1 }
        var state = try MenuFixture.state(width: 80, height: 24, entries: entries)
        MenuFixture.select("function.chat.typing.enabled", in: &state)
        let screen = renderer.render(state).text
        let hint = try #require(screen.firstMatch(of: /… (\S+) shows all/)?.output.1)
        #expect(Keymap.keys.action(for: .character(Character(String(hint)))) == .showDetails)
        #expect(!screen.contains("THE-END"))
        #expect(reduce(&state, .showDetails).isEmpty)
        guard case .paging = state.mode else {
            Issue.record("expected the pager, got \(state.mode)")
            return
        }
        #expect(renderer.render(state).text.contains("Details · function.chat.typing.enabled"))
        reduce(&state, .bottom)
        #expect(renderer.render(state).text.contains("THE-END"), "the whole note")
        reduce(&state, .top)
        #expect(renderer.render(state).text.contains("Typing Enabled  function.chat.typing.enabled"))
        // Every key of the pager's key map, and the keys that change values elsewhere, change nothing here.
        let before = state.data
        for action in Keymap.pager.bindings.map(\.action) + [.toggle, .activate, .resetSelected, .step(1)]
        where action != .quit && action != .closeView && action != .help {
            #expect(reduce(&state, action).isEmpty, "\(action)")
        }
        #expect(state.data == before)
        reduce(&state, .closeView)
        #expect(state.mode == .browsing)
    }

    @Test("+ on a key without a range says what Enter does for that key, and Enter does it")
    func stepHint() throws {
        var state = try MenuFixture.state()
        for (name, says) in [
            ("function.chat.typing.enabled", "Enter flips this value"),
            ("function.media.upload_mode", "Enter picks this value"),
            ("function.chat.greeting", "Enter edits this value"),
        ] {
            MenuFixture.select(name, in: &state)
            #expect(reduce(&state, .step(1)).isEmpty)
            #expect(state.status?.text == "+ and - step numbers with a range; " + says)
            let effects = reduce(&state, .activate)
            switch state.mode {
            case .browsing: #expect(says.contains("flips") && effects.count == 1, "\(name)")
            case .picking: #expect(says.contains("picks"), "\(name)")
            case .editing: #expect(says.contains("edits"), "\(name)")
            default: Issue.record("\(name): \(state.mode)")
            }
            state.mode = .browsing
        }
    }

    @Test("one counter, of keys: headings are not counted, orphans are named")
    func counter() throws {
        var state = try MenuFixture.state(width: 80, height: 18)
        reduce(&state, .bottom)
        let grid = renderer.render(state)
        #expect(grid.text.contains("Keys · 8 · 1 orphaned"))
        #expect(grid.text.contains(" 9/9 "), "the orphan is the 9th listed item, headings not counted")
        reduce(&state, .startFilter, .filterInsert("e"))
        #expect(renderer.render(state).text.contains("Keys · \(state.list.keyCount) of 8"))
    }

    @Test("the footer offers what the selected row offers, most important first, and keeps help and quit")
    func footer() throws {
        var state = try MenuFixture.state(width: 80, height: 24)
        MenuFixture.select("function.chat.typing.enabled", in: &state)
        var footer = renderer.render(state).line(23)
        #expect(footer.hasPrefix(" Space toggle"))
        #expect(!footer.contains("Enter edit"))
        #expect(footer.hasSuffix("? help  q quit"))
        MenuFixture.select("function.media.quality", in: &state)
        footer = renderer.render(state).line(23)
        #expect(footer.hasPrefix(" Enter edit  + step  r reset"), "an integer steps with + and -")
        #expect(!footer.contains("Space"))
        reduce(&state, .toggleOnlyOverridden)
        footer = renderer.render(state).line(23)
        #expect(footer.hasPrefix(" Showing only overridden keys"), "the status first")
        #expect(footer.hasSuffix("? help  q quit"), "and the hints still after it")
    }

    @Test("active filters show on one line and Esc clears them all; S acts on what is highlighted")
    func filtersAndScopeReset() throws {
        var state = try MenuFixture.state(width: 140, height: 30)
        reduce(
            &state, .focusModules, .move(3), .focusKeys, .toggleOnlyProblems, .startFilter, .filterInsert("lim"),
            .filterAccept)
        let line = try #require(row(renderer.render(state), containing: "Filters:"))
        #expect(line.contains("module Payments · text \"lim\" · problems only"))
        reduce(&state, .clearFilters)
        #expect(state.filters == KeyFilters())
        // "All" highlighted in the module pane: S means every override.
        reduce(&state, .focusModules, .top, .resetScope)
        #expect(state.mode == .confirming(.resetAll(count: 5)))
        reduce(&state, .cancel, .move(1), .resetScope)
        #expect(
            state.mode
                == .confirming(
                    .resetScope(name: "Photos", keys: ["function.media.hdr.enabled", "function.media.quality"])))
    }

    @Test("help scrolls, is drawn over the mode it was opened from, and says module")
    func help() throws {
        var tall = try MenuFixture.state(width: 80, height: 50)
        MenuFixture.select("function.media.quality", in: &tall)
        reduce(&tall, .activate, .help)
        #expect(
            renderer.render(tall).text.contains("Edit function.media.quality"),
            "the editor stays visible under its help")
        var state = try MenuFixture.state(width: 80, height: 24)
        reduce(&state, .help)
        var text = renderer.render(state).text
        text = renderer.render(state).text
        #expect(text.contains("↓ j/PgDn: more"))
        #expect(!text.contains("* changed by another process"), "the last lines are below")
        reduce(&state, .bottom)
        text = renderer.render(state).text
        #expect(text.contains("* changed by another process"))
        #expect(text.contains("Mouse"))
        #expect(
            !Keymap.keys.bindings.contains { $0.help.contains("scope") }, "the screen says module, so does help")
    }

    @Test("search finds keys by description, value and note, below name matches, and Tab searches every module")
    func search() throws {
        let entries = MenuFixture.entries.merging(
            ["function.media.quality": OverrideEntry(value: "95", setAt: MenuFixture.setAt, note: "ticket QA-4711")]
        ) { $1 }
        var state = try MenuFixture.state(entries: entries)
        reduce(&state, .startFilter, .filterInsert("keep sending"))
        let hdr = MenuFixture.key("function.media.hdr.enabled", in: state)
        #expect(state.list.rows == [.key(hdr)])
        #expect(state.list.textMatches[hdr] == .summary, "found in 'Keep HDR photos as HDR when sending.'")
        #expect(try #require(row(renderer.render(state), containing: "HDR Enabled")).contains("≈ Keep HDR"))
        reduce(&state, .filterErase, .filterInsert("qa-4711"))
        #expect(state.list.rows == [.key(MenuFixture.key("function.media.quality", in: state))])
        reduce(&state, .filterErase, .filterInsert("always"))
        #expect(state.list.textMatches[MenuFixture.key("function.media.upload_mode", in: state)] == .value)
        // Inside the Chat module, "quality" finds nothing; Tab widens the search to every module.
        reduce(&state, .filterCancel, .focusModules, .move(2), .focusKeys, .startFilter, .filterInsert("quality"))
        #expect(state.list.keyCount == 0)
        #expect(renderer.render(state).text.contains("No matches in this module. Tab"))
        reduce(&state, .toggleSearchEverywhere)
        #expect(state.list.keyCount == 1)
        #expect(state.filters.scope == 1, "the module filter stays, and shows as widened")
        #expect(try #require(row(renderer.render(state), containing: "Filters:")).contains("(searching all)"))
    }

    @Test("a click on a picker's choice chooses it; a click outside closes the picker")
    func pickerClicks() throws {
        var state = try MenuFixture.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        reduce(&state, .activate)
        let grid = renderer.render(state)
        let y = try #require((0..<grid.height).first { grid.line($0).contains("○ never") })
        let x = try #require(grid.line(y).range(of: "never")).lowerBound.utf16Offset(in: grid.line(y))
        let effects = reduce(&state, .click(x: x, y: y))
        guard case .write(let write)? = effects.first else {
            Issue.record("the click chooses")
            return
        }
        #expect(write.changes == [.init(key: "function.media.upload_mode", value: "never")])
        reduce(&state, .activate, .click(x: 0, y: 0))
        #expect(state.mode == .browsing)
    }

    @Test("JSON: syntax errors name the line and column; a long line scrolls sideways with the caret")
    func jsonEditor() throws {
        var state = try MenuFixture.state(width: 80, height: 24)
        MenuFixture.select("function.chat.reactions", in: &state)
        reduce(
            &state, .activate, .editMove(.down), .editMove(.lineEnd), .editInsert(String(repeating: "x", count: 120)))
        guard case .editingJSON(let editor) = state.mode, case .invalid(let reason) = editor.validation else {
            Issue.record("invalid JSON expected")
            return
        }
        #expect(reason.contains("line 2, column"), "reason: \(reason)")
        let grid = renderer.render(state)
        let cursor = try #require(grid.cursor)
        #expect(cursor.x < 80 - 1 && cursor.x > 70, "the caret stays on screen at the end of the long line")
        #expect(grid.line(cursor.y).hasSuffix("xxxxx │"), "the caret sits after the last character")
    }

    @Test("an emoji with VS16 takes one column, as every terminal draws it once the selector is dropped")
    func variationSelector() {
        #expect(TextWidth.of(Character("❤️")) == 1)
        #expect(TextWidth.forTerminal(Character("❤️")) == Character("❤"))
        #expect(TextWidth.of(Character("👍")) == 2)
        var grid = ScreenGrid(width: 10, height: 1)
        grid.write("a❤️b", x: 0, y: 0)
        #expect(grid.line(0) == "a❤b")
        #expect(grid.drawnWidth(ofRow: 0) == 10)
    }
}

@Suite("QA day: picker labels")
struct PickerLabelTests {
    @Test("an enum whose wire codes are numbers shows its case names, with the code beside")
    func numberedCases() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let descriptor = try #require(catalog.descriptor(named: "function.payments.provider"))
        guard case .picker(let choices) = descriptor.control else {
            Issue.record("a picker expected")
            return
        }
        #expect(choices.map(\.title) == ["primary", "secondary", "sandbox"])
        #expect(choices.map(\.value) == ["1", "2", "99"])
        let service = LiveConfigurationService(catalog: catalog, overridePolicy: .allBuilds)
        var state = MenuState(
            data: MenuData(table: KeyTable(catalog: catalog), service: service, label: "demo"), width: 100, height: 30)
        state.list.selection = try #require(
            state.list.rows.firstIndex(of: .key(state.data.table.index(of: "function.payments.provider")!)))
        reduce(&state, .activate)
        let text = MenuRenderer().render(state).text
        #expect(text.contains("● primary  · 1  (current)"))
        #expect(text.contains("○ sandbox  · 99"))
    }
}

@Suite("Bounded numbers in the menu")
struct BoundedNumberMenuTests {
    func state() throws -> MenuState {
        let catalog = try DemoConfiguration.makeCatalog()
        let service = LiveConfigurationService(catalog: catalog, overridePolicy: .allBuilds)
        var state = MenuState(
            data: MenuData(table: KeyTable(catalog: catalog), service: service, label: "demo"), width: 120, height: 40)
        state.list.selection = try #require(
            state.list.rows.firstIndex(of: .key(state.data.table.index(of: "function.network.timeout_sec")!)))
        return state
    }

    @Test("+ and - step within the range; the editor refuses a value outside it with the reason")
    func stepAndRefuse() throws {
        var state = try state()
        guard case .write(let write)? = reduce(&state, .step(1)).first else {
            Issue.record("+ writes the next step")
            return
        }
        #expect(write.changes == [.init(key: "function.network.timeout_sec", value: "20.0")])
        #expect(
            MenuRenderer().render(state).text.contains(
                "Range     from 1.0 to 120.0, step 5.0 (+ and - step, < and > go to the ends)"))
        #expect(MenuRenderer().render(state).line(39).contains("+ step"))
        reduce(&state, .activate, .editDelete(.toLineStart), .editInsert("121"))
        guard case .editing(let editor) = state.mode else {
            Issue.record("the editor is open")
            return
        }
        #expect(editor.validation == .invalid("expected a number from 1.0 to 120.0, got \"121.0\""))
        #expect(reduce(&state, .editSave).isEmpty, "an out-of-range value cannot be saved")
    }
}
