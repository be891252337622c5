extension Keymap {
    /// The key list's keys, while browsing with the list focused.
    package static let keys = Keymap(
        "keys", title: "Key list", keyList, notes: BrowseScreen.helpNotes, clicks: true, wheel: .scrolls)

    /// The module pane's keys, while browsing with the pane focused.
    package static let modules = Keymap(
        "modules", title: "Module pane", modulePane, notes: BrowseScreen.helpNotes, clicks: true, wheel: .scrolls)

    private static let quitKeys = [
        bind([.character("q")], .quit, "quit", hint: "quit", priority: 99),
        bind([.control("c")], .quit, "quit (works in every mode; asks first when an edit is unsaved)"),
        suspend,
    ]

    private static let shared: [KeyBinding] = [
        bind(
            [.character("/")], .startFilter, "search titles, names, modules, descriptions, values and notes",
            hint: "search", priority: 30),
        bind(
            [.escape], .clearFilters, "clear the marks first, then every filter",
            priority: 25
        ) { context in
            context.markCount > 0 ? "clear marks" : context.filtersActive ? "clear filters" : nil
        },
        bind(digits, .jumpToModule(0), "the module at that place in the module pane (0: All)"),
        bind(
            [.character("V")], .markShown, "mark every key shown (again: unmark them), for a bulk action",
            hint: "mark all", priority: 88),
        bind(
            [.character("a")], .openBulkMenu, "act on the marked keys: on, off, reset, expiry, note, scenario",
            priority: 9
        ) {
            context in
            context.markCount > 0 ? "act on \(context.markCount) marked" : nil
        },
        bind(
            [.character("u")], .undo,
            "undo the last change anyone made (asks if not this menu's)",
            hint: "undo", priority: 35, when: { $0.canUndo }),
        bind(
            [.character("U")], .redo, "redo: reverse the last undo (if nothing changed after it)",
            hint: "redo", priority: 36, when: { $0.canRedo }),
        bind(
            [.character("P")], .pruneExpired, "remove the expired overrides (marked ⊘; asks first)", hint: "prune",
            priority: 62, when: { $0.anyExpired }),
        bind(
            [.character("d")], .showDetails, "the selected key's whole details, in a pager (long notes, values)",
            hint: "details", priority: 85, when: { $0.hasDetails }),
        showMessages,
        bind(
            [.character("C")], .openCompare,
            "compare the module's keys side by side: default, server, override",
            hint: "compare", priority: 77),
        bind(
            [.character("H")], .openHistory, "history of changes: who changed what, when (u undoes)",
            hint: "history", priority: 74),
        bind(
            [.character("i")], .openScenarios,
            "scenarios: preview and apply profiles, save overrides as one", hint: "scenarios",
            priority: 76),
        bind(
            [.character("o")], .toggleOnlyOverridden, "show only overridden keys, or all again", hint: "overridden",
            priority: 70),
        bind(
            [.character("!"), .character("p")], .toggleOnlyProblems,
            "show only keys with problems (rejected, not applied, stale, orphaned)", hint: "problems", priority: 71),
        bind(
            [.character("c")], .toggleOnlySyncChanged,
            "show only keys the last server sync changed (marked ↻), or all again",
            hint: "sync changes", priority: 72, when: { $0.hasSyncChanges }),
        bind(
            [.character("I")], .toggleOnlyInvisible,
            "show only keys whose values hold invisible or control characters"),
        bind(
            [.character("N")], .toggleOnlyUnread,
            "show only keys never read in this run (• marks read keys), or all again",
            hint: "never read", priority: 73, when: { $0.hasCoverage }),
        bind(
            [.character("s")], .syncNow, "sync server values now (the line under the title shows their status)",
            hint: "sync", priority: 55, when: { $0.hasServer }),
        bind(
            [.character("S")], .resetScope, "reset every override of the highlighted module (asks first)",
            hint: "reset module", priority: 60, when: { $0.moduleHasOverrides }),
        bind(
            [.character("R")], .resetAll, "reset every override (asks first)", hint: "reset all", priority: 65,
            when: { $0.anyOverrides }),
        bind(
            [.character("m")], .toggleModulePane, "show or hide the module pane", hint: "hide modules", priority: 80,
            when: { $0.modulePaneShown }),
        showHelp,
    ]

    private static let keyList: [KeyBinding] =
        [
            bind([.character("j"), .down], .move(1), "next key"),
            bind([.character("k"), .up], .move(-1), "previous key"),
            bind([.character("g"), .home], .top, "first key"),
            bind([.character("G"), .end], .bottom, "last key"),
            bind([.pageDown, .control("f")], .page(1), "next page"),
            bind([.pageUp, .control("b")], .page(-1), "previous page"),
            bind(
                [.tab, .backTab, .character("h"), .left], .focusModules,
                "go to the module pane (shows it while there on narrow screens)", hint: "modules", priority: 40),
            bind(
                [.character(" ")], .toggle, "flip a Bool key (other keys: open their control)", hint: "toggle",
                priority: 10, when: { $0.control == .toggle }),
            bind([.enter], .activate, "flip, pick or edit the value", priority: 11) { $0.control?.enterHint },
            bind(
                [.character("v")], .toggleMark, "mark or unmark the selected key (then the next one) for a bulk action",
                hint: "mark", priority: 87),
            bind(
                [.character("n")], .editNote, "add or edit the override's note (kept when the value changes)",
                priority: 46
            ) {
                $0.hasOverride ? "note" : nil
            },
            bind(
                [.character("y")], .openCopyMenu,
                "copy the name, the value or a set command (OSC 52)", hint: "copy",
                priority: 84),
            bind([.character("e")], .externalEdit, "edit the value in $EDITOR", priority: 45) {
                $0.control?.editsInExternalEditor == true ? "$EDITOR" : nil
            },
            bind([.character("+")], .step(1), "a number with a range: one step up", priority: 12) {
                $0.control?.numberRange != nil ? "step" : nil
            },
            bind([.character("-")], .step(-1), "a number with a range: one step down"),
            bind([.character(">")], .toBound(true), "a number with a range: its maximum", priority: 86) {
                $0.control?.numberRange != nil ? "max" : nil
            },
            bind([.character("<")], .toBound(false), "a number with a range: its minimum"),
            bind([.character("r"), .delete], .resetSelected, "reset the selected key's override", priority: 20) {
                context in
                context.orphanSelected ? "remove" : context.hasOverride ? "reset" : nil
            },
            bind(
                [.character("x")], .chooseExpiry,
                "when the override expires: a time, a server change, a version",
                priority: 44
            ) { context in
                guard context.hasOverride, !context.orphanSelected else { return nil }
                return context.isRedundant ? "follow server" : "expiry"
            },
        ] + shared + quitKeys

    private static let modulePane: [KeyBinding] =
        [
            bind([.character("j"), .down], .move(1), "next module"),
            bind([.character("k"), .up], .move(-1), "previous module"),
            bind([.character("g"), .home], .top, "All"),
            bind([.character("G"), .end], .bottom, "last module"),
            bind(
                [.tab, .backTab, .enter, .character("l"), .right], .focusKeys, "go to the key list", hint: "keys",
                priority: 10),
        ] + shared + quitKeys
}

extension BrowseScreen {
    /// What help adds below the browse screen's keys: the sources, the marks, the panes.
    static let helpNotes: [(keys: String, text: String)] = [
        ("", ""),
        ("Sources", "LAUNCH (launch arguments) > OVERRIDDEN (set here) > SERVER (last sync) > DEFAULT"),
        ("Marks", "! the server sent a value the key rejects"),
        ("", "✗ the override is not applied: the key rejects it"),
        ("", "⊘ expired (its time, a server change, a version): not applied; P removes it"),
        ("", "◷ will expire (its time, a server change, a version): the details say when"),
        ("", "~ stale: the server value changed since the override was set"),
        ("", "= equals the server value: it will stop following the server (x: until it changes)"),
        ("", "? orphaned: an override for a key this program does not have"),
        ("", "↻ the last server sync changed its server value (details: the value before)"),
        ("", "* changed by another process a moment ago"),
        ("", "» a running program was launched with its own value, kept until it ends (details: which)"),
        ("", "+ marked for a bulk action (v, V); a acts on the marked keys, Esc clears the marks"),
        ("", "• read by the running program in this run; ◦ read, but before its value last changed"),
        ("Search", "≈ … in the name column: the words matched in the description or note"),
        ("", "\\u{200B}, \\t: invisible characters are searched as the screen shows them"),
        ("Modules", "the left pane; each module (a scope in code) groups its keys"),
        ("Server", "the line under the title: where server values come from, fresh / cached / stale, age"),
        ("Mouse", "click selects, the wheel scrolls (config-menu --no-mouse turns it off)"),
    ]
}
