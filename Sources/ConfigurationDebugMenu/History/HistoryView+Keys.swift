extension MenuIntent {
    /// Show the history of changes.
    package static let openHistory = MenuIntent.open(ComponentType(HistoryView.self))
}

extension Keymap {
    /// The history's keys: moving over the changes, undoing the selected one, narrowing to the selected key.
    package static let history = Keymap(
        "history", title: "History of changes",
        [
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
                [.character("r")], .revertToHere, "revert to here: undo every later change at once (asks first)",
                hint: "revert to here", priority: 15),
            bind(
                [.character("f")], .toggleHistoryFilter, "only the changes of the key selected in the list, or all",
                hint: "this key", priority: 20),
            showMessages,
            closeView,
            bind([.character("H")], .closeView, "back to the key list"),
            showHelp,
            quit,
        ], wheel: .moves)
}
