/// The table from keys to actions, per context. The help screen and the footer are generated from it, so they can
/// never disagree with what the keys do.
package enum Keymap {
    /// The bindings of `context`, in help order.
    package static func bindings(for context: KeymapContext) -> [KeyBinding] {
        switch context {
        case .keys: keyList
        case .modules: modulePane
        case .filtering: filtering
        case .editing: editing
        case .editingJSON: editingJSON
        case .editingNote: editing
        case .picking: picking
        case .confirming: confirming
        case .help: helpScreen
        case .history: history
        case .scenarios: scenarios
        case .prompting: prompting
        case .expiry: expiry
        case .pager: pager
        }
    }

    /// The label of the first key bound to `action` in `context` (`d`), for texts that name it.
    package static func keyLabel(for action: MenuAction, in context: KeymapContext) -> String? {
        bindings(for: context).first { $0.action == action }?.keys.first?.label
    }

    /// The action for `event` in `context`, if any. Printable characters insert text in the text contexts.
    package static func action(for event: KeyEvent, in context: KeymapContext) -> MenuAction? {
        if event == .control("c") { return .quit }
        if let binding = bindings(for: context).first(where: { $0.keys.contains(event) }) { return binding.action }
        switch (context, event) {
        case (.filtering, .character(let character)): return .filterInsert(String(character))
        case (.editing, .character(let character)), (.editingJSON, .character(let character)),
            (.prompting, .character(let character)), (.editingNote, .character(let character)):
            return .editInsert(String(character))
        case (.keys, .click(let x, let y)), (.modules, .click(let x, let y)), (.picking, .click(let x, let y)):
            return .click(x: x, y: y)
        case (.keys, .wheel(let delta, let x, let y)), (.modules, .wheel(let delta, let x, let y)):
            return .wheel(delta, x: x, y: y)
        case (.picking, .wheel(let delta, _, _)), (.help, .wheel(let delta, _, _)), (.pager, .wheel(let delta, _, _)),
            (.history, .wheel(let delta, _, _)), (.scenarios, .wheel(let delta, _, _)),
            (.expiry, .wheel(let delta, _, _)):
            return .move(delta)
        case (.filtering, .paste(let text)): return .filterInsert(oneLine(text))
        case (.editing, .paste(let text)), (.prompting, .paste(let text)), (.editingNote, .paste(let text)):
            return .editInsert(oneLine(text))
        case (.editingJSON, .paste(let text)): return .editInsert(text)
        case (_, .resize(let width, let height)): return .resize(width: width, height: height)
        default: return nil
        }
    }

    /// Pasted text for a one-line field: line breaks become spaces (an Enter in a paste must not save).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    /// A binding whose footer word shows when `when` holds (always, without it); no word keeps it out of the footer.
    static func bind(
        _ keys: [KeyEvent],
        _ action: MenuAction,
        _ help: String,
        hint: String? = nil,
        priority: Int = 50,
        when: (@Sendable (HintContext) -> Bool)? = nil
    ) -> KeyBinding {
        KeyBinding(
            keys: keys, action: action, help: help,
            hint: { context in hint.flatMap { when?(context) ?? true ? $0 : nil } }, priority: priority)
    }

    /// A binding whose footer word depends on the situation.
    private static func bind(
        _ keys: [KeyEvent],
        _ action: MenuAction,
        _ help: String,
        priority: Int,
        hint: @escaping @Sendable (HintContext) -> String?
    ) -> KeyBinding {
        KeyBinding(keys: keys, action: action, help: help, hint: hint, priority: priority)
    }

    /// `L`, in every view with a footer.
    static let showMessages = bind(
        [.character("L")], .showMessages,
        "the message log: every status, warning and error shown, whole",
        hint: "messages", priority: 77, when: { $0.hasMessages })

    private static let quitKeys = [
        bind([.character("q")], .quit, "quit", hint: "quit", priority: 99),
        bind([.control("c")], .quit, "quit (works in every mode; asks first when an edit is unsaved)"),
    ]

    private static let shared: [KeyBinding] = [
        bind(
            [.character("/")], .startFilter, "search titles, names, modules, descriptions, values and notes",
            hint: "search", priority: 30),
        bind(
            [.escape], .clearFilters, "clear every filter (module, search, overridden, problems)",
            hint: "clear filters",
            priority: 25, when: { $0.filtersActive }),
        bind(
            [.character("u")], .undo,
            "undo the last change anyone made (asks if not this menu's)",
            hint: "undo", priority: 35, when: { $0.canUndo }),
        bind(
            [.character("P")], .pruneExpired, "remove the expired overrides (marked ⊘; asks first)", hint: "prune",
            priority: 62, when: { $0.anyExpired }),
        bind(
            [.character("d")], .showDetails, "the selected key's whole details, in a pager (long notes, values)",
            hint: "details", priority: 85, when: { $0.hasDetails }),
        showMessages,
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
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
    ]

    static let keyList: [KeyBinding] =
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
            bind([.enter], .activate, "flip, pick or edit the value", priority: 11) { context in
                switch context.control {
                case .picker: "pick"
                case .text, .number, .json: "edit"
                case .toggle, nil: nil
                }
            },
            bind(
                [.character("n")], .editNote, "add or edit the override's note (kept when the value changes)",
                priority: 46
            ) {
                $0.hasOverride ? "note" : nil
            },
            bind([.character("e")], .externalEdit, "edit the value in $EDITOR", priority: 45) { context in
                switch context.control {
                case .text, .number, .json: "$EDITOR"
                default: nil
                }
            },
            bind([.character("+")], .step(1), "a number with a range: one step up", priority: 12) {
                $0.control?.numberRange != nil ? "step" : nil
            },
            bind([.character("-")], .step(-1), "a number with a range: one step down"),
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

    static let modulePane: [KeyBinding] =
        [
            bind([.character("j"), .down], .move(1), "next module"),
            bind([.character("k"), .up], .move(-1), "previous module"),
            bind([.character("g"), .home], .top, "All"),
            bind([.character("G"), .end], .bottom, "last module"),
            bind(
                [.tab, .backTab, .enter, .character("l"), .right], .focusKeys, "go to the key list", hint: "keys",
                priority: 10),
        ] + shared + quitKeys

    static let filtering: [KeyBinding] = [
        bind([.enter], .filterAccept, "keep the search and go back to the list", hint: "keep", priority: 10),
        bind([.escape], .filterCancel, "clear the search text (other filters stay)", hint: "clear text", priority: 20),
        bind([.tab], .toggleSearchEverywhere, "search every module, or only the selected one again", priority: 15) {
            context in context.moduleSelected ? (context.searchEverywhere ? "this module" : "all modules") : nil
        },
        bind([.backspace], .filterBackspace, "delete a character"),
        bind([.control("u")], .filterErase, "delete the whole search text"),
        bind([.down, .control("n")], .move(1), "next match"),
        bind([.up, .control("p")], .move(-1), "previous match"),
        bind([.function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]

    static let caretBindings: [KeyBinding] = [
        bind([.left], .editMove(.left), "caret left"),
        bind([.right], .editMove(.right), "caret right"),
        bind([.home, .control("a")], .editMove(.lineStart), "start of line"),
        bind([.end, .control("e")], .editMove(.lineEnd), "end of line"),
        bind([.backspace], .editDelete(.backward), "delete before the caret"),
        bind([.delete, .control("d")], .editDelete(.forward), "delete at the caret"),
        bind([.control("u")], .editDelete(.toLineStart), "delete to the start of the line"),
        bind([.control("k")], .editDelete(.toLineEnd), "delete to the end of the line"),
        bind([.control("w")], .editDelete(.wordBackward), "delete the word before the caret"),
    ]

    private static let expiryCycle = bind(
        [.control("t")], .cycleExpiry,
        "when the saved override expires (as before, 1 h, … never)",
        hint: "expiry", priority: 25)

    static let editing: [KeyBinding] =
        [
            bind([.enter], .editSave, "save (only a valid value)", hint: "save", priority: 10),
            bind([.escape], .editCancel, "close (asks first when the text was changed)", hint: "cancel", priority: 20),
            expiryCycle,
        ] + caretBindings + [
            bind([.function(1)], .help, "show this help", hint: "help", priority: 98),
            bind([.control("c")], .quit, "quit (asks first when the text was changed)"),
        ]

    static let editingJSON: [KeyBinding] =
        [
            bind([.control("s"), .function(2)], .editSave, "save (only valid JSON)", hint: "save", priority: 10),
            bind([.escape], .editCancel, "close (asks first when the text was changed)", hint: "cancel", priority: 20),
            bind([.control("o")], .externalEdit, "continue in $EDITOR", hint: "$EDITOR", priority: 30),
            expiryCycle,
            bind([.enter], .editNewline, "new line"),
            bind([.up], .editMove(.up), "line up"),
            bind([.down], .editMove(.down), "line down"),
        ] + caretBindings + [
            bind([.function(1)], .help, "show this help", hint: "help", priority: 98),
            bind([.control("c")], .quit, "quit (asks first when the text was changed)"),
        ]

    static let picking: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "next choice"),
        bind([.character("k"), .up], .move(-1), "previous choice"),
        bind([.character("g"), .home], .top, "first choice"),
        bind([.character("G"), .end], .bottom, "last choice"),
        bind(
            [.enter, .character(" ")], .pickerChoose, "choose (a click on a choice chooses it too)", hint: "choose",
            priority: 10),
        bind([.escape, .character("q")], .pickerCancel, "close without choosing", hint: "cancel", priority: 20),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]

    static let confirming: [KeyBinding] = [
        bind([.character("y"), .character("Y")], .confirm, "yes", hint: "yes", priority: 10),
        bind(
            [.character("n"), .character("N"), .escape, .enter], .cancel, "no (the default)", hint: "no", priority: 20),
        bind([.control("c")], .quit, "quit"),
    ]

    static let helpScreen: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "scroll down"),
        bind([.character("k"), .up], .move(-1), "scroll up"),
        bind([.pageDown, .character(" ")], .page(1), "next page", hint: "more", priority: 20),
        bind([.pageUp], .page(-1), "previous page"),
        bind([.character("g"), .home], .top, "top"),
        bind([.character("G"), .end], .bottom, "bottom"),
        bind(
            [.escape, .character("q"), .character("?"), .function(1), .enter], .closeHelp, "close help", hint: "close",
            priority: 10),
        bind([.control("c")], .quit, "quit"),
    ]
}
