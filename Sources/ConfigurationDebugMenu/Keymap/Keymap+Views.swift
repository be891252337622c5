extension Keymap {
    /// The bindings of the history, the scenarios view, a prompt and the expiry menu.
    private static let closeView = bind(
        [.escape, .character("q")], .closeView, "back to the key list", hint: "back", priority: 90)

    static let history: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "older change"),
        bind([.character("k"), .up], .move(-1), "newer change"),
        bind([.character("g"), .home], .top, "newest change"),
        bind([.character("G"), .end], .bottom, "oldest change"),
        bind([.pageDown, .control("f")], .page(1), "next page"),
        bind([.pageUp, .control("b")], .page(-1), "previous page"),
        bind(
            [.character("u")], .undo,
            "undo the selected change (asks first; a later change of its key in the way: named, undone with it)",
            hint: "undo this", priority: 10),
        bind(
            [.character("f")], .toggleHistoryFilter, "only the changes of the key selected in the list, or all",
            hint: "this key", priority: 20),
        showMessages,
        closeView,
        bind([.character("H")], .closeView, "back to the key list"),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]

    static let scenarios: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "next scenario"),
        bind([.character("k"), .up], .move(-1), "previous scenario"),
        bind([.character("g"), .home], .top, "first scenario"),
        bind([.character("G"), .end], .bottom, "last scenario"),
        bind(
            [.enter], .activate, "apply the selected scenario (asks first; u undoes it)", hint: "apply",
            priority: 10),
        bind(
            [.character("m")], .toggleScenarioMode,
            "merge the scenario into the overrides, or replace them all", hint: "merge/replace",
            priority: 20),
        bind(
            [.character("s")], .saveScenarioAs, "save the current overrides as a new scenario (asks a name)",
            hint: "save as", priority: 30),
        showMessages,
        closeView,
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]

    static let prompting: [KeyBinding] =
        [
            bind([.enter], .editSave, "save", hint: "save", priority: 10),
            bind([.escape], .editCancel, "go back without saving", hint: "cancel", priority: 20),
        ] + caretBindings + [
            bind([.function(1)], .help, "show this help", hint: "help", priority: 98),
            bind([.control("c")], .quit, "quit"),
        ]

    static let pager: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "scroll down"),
        bind([.character("k"), .up], .move(-1), "scroll up"),
        bind([.pageDown, .character(" "), .control("f")], .page(1), "next page", hint: "more", priority: 20),
        bind([.pageUp, .control("b")], .page(-1), "previous page"),
        bind([.character("g"), .home], .top, "top"),
        bind([.character("G"), .end], .bottom, "bottom"),
        bind([.escape, .character("q")], .closeView, "close", hint: "close", priority: 10),
        bind([.character("d")], .showDetails, "the selected key's details (d again: back)"),
        bind([.character("L")], .showMessages, "the message log (L again: back)"),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]

    static let expiry: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "next choice"),
        bind([.character("k"), .up], .move(-1), "previous choice"),
        bind([.character("g"), .home], .top, "first choice"),
        bind([.character("G"), .end], .bottom, "last choice"),
        bind([.enter, .character(" ")], .pickerChoose, "choose", hint: "choose", priority: 10),
        bind([.escape, .character("q")], .pickerCancel, "close without changing it", hint: "cancel", priority: 20),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98),
        bind([.control("c")], .quit, "quit"),
    ]
}
