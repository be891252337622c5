/// Which set of bindings is active.
package enum KeymapContext: String, Equatable, Sendable, CaseIterable {
    case keys, modules, filtering, editing, editingJSON, picking, confirming, help

    /// The title of the help screen for this context.
    package var title: String {
        switch self {
        case .keys: "Key list"
        case .modules: "Module pane"
        case .filtering: "Typing a filter"
        case .editing: "Editing a value"
        case .editingJSON: "Editing JSON"
        case .picking: "Choosing a value"
        case .confirming: "Answering a question"
        case .help: "Help"
        }
    }
}

/// One binding: the keys, what they do, and how help and the footer describe them.
package struct KeyBinding: Sendable {
    /// The keys that trigger it.
    package var keys: [KeyEvent]
    /// The action.
    package var action: MenuAction
    /// What it does, for the help screen ("toggle a Bool key").
    package var help: String
    /// The footer's short word for it ("toggle"); `nil` keeps it out of the footer.
    package var hint: String?

    /// The keys as written in help: `j/↓`.
    package var keyLabel: String { keys.map(\.label).joined(separator: "/") }
}

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
        case .picking: picking
        case .confirming: confirming
        case .help: helpScreen
        }
    }

    /// The action for `event` in `context`, if any. Printable characters insert text in the text contexts.
    package static func action(for event: KeyEvent, in context: KeymapContext) -> MenuAction? {
        if event == .control("c") { return .quit }
        if let binding = bindings(for: context).first(where: { $0.keys.contains(event) }) { return binding.action }
        switch (context, event) {
        case (.filtering, .character(let character)): return .filterInsert(String(character))
        case (.editing, .character(let character)), (.editingJSON, .character(let character)):
            return .editInsert(String(character))
        case (.keys, .click(let x, let y)), (.modules, .click(let x, let y)): return .click(x: x, y: y)
        case (.keys, .wheel(let delta, let x, let y)), (.modules, .wheel(let delta, let x, let y)):
            return .wheel(delta, x: x, y: y)
        case (.picking, .wheel(let delta, _, _)): return .move(delta)
        case (.filtering, .paste(let text)): return .filterInsert(oneLine(text))
        case (.editing, .paste(let text)): return .editInsert(oneLine(text))
        case (.editingJSON, .paste(let text)): return .editInsert(text)
        case (_, .resize(let width, let height)): return .resize(width: width, height: height)
        default: return nil
        }
    }

    /// Pasted text for a one-line field: line breaks become spaces (an Enter in a paste must not save).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func bind(
        _ keys: [KeyEvent],
        _ action: MenuAction,
        _ help: String,
        hint: String? = nil
    ) -> KeyBinding {
        KeyBinding(keys: keys, action: action, help: help, hint: hint)
    }

    private static let quitKeys = [
        bind([.character("q")], .quit, "quit", hint: "quit"),
        bind([.control("c")], .quit, "quit (works in every mode)"),
    ]

    private static let shared: [KeyBinding] = [
        bind([.character("/")], .startFilter, "filter by title, wire name and scope (fuzzy)", hint: "filter"),
        bind([.character("o")], .toggleOnlyOverridden, "show only overridden keys, or all again", hint: "overridden"),
        bind(
            [.character("!"), .character("p")], .toggleOnlyProblems,
            "show only keys with problems (rejected, stale, orphaned)", hint: "problems"),
        bind([.escape], .clearFilters, "clear every filter"),
        bind([.character("S")], .resetScope, "reset every override in the selected scope (asks first)"),
        bind([.character("R")], .resetAll, "reset every override (asks first)"),
        bind([.character("u")], .undo, "undo the last change", hint: "undo"),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help"),
    ]

    static let keyList: [KeyBinding] =
        [
            bind([.character("j"), .down], .move(1), "next key"),
            bind([.character("k"), .up], .move(-1), "previous key"),
            bind([.character("g"), .home], .top, "first key"),
            bind([.character("G"), .end], .bottom, "last key"),
            bind([.pageDown, .control("f")], .page(1), "next page"),
            bind([.pageUp, .control("b")], .page(-1), "previous page"),
            bind([.tab, .backTab, .character("h"), .left], .focusModules, "go to the module pane", hint: "modules"),
            bind([.character(" ")], .toggle, "flip a Bool key (other keys: open their control)", hint: "toggle"),
            bind([.enter], .activate, "flip, pick or edit the value", hint: "edit"),
            bind([.character("e")], .externalEdit, "edit the value in $EDITOR"),
            bind([.character("r"), .delete], .resetSelected, "reset the selected key's override", hint: "reset"),
        ] + shared + quitKeys

    static let modulePane: [KeyBinding] =
        [
            bind([.character("j"), .down], .move(1), "next module"),
            bind([.character("k"), .up], .move(-1), "previous module"),
            bind([.character("g"), .home], .top, "All"),
            bind([.character("G"), .end], .bottom, "last module"),
            bind([.tab, .backTab, .enter, .character("l"), .right], .focusKeys, "go to the key list", hint: "keys"),
        ] + shared + quitKeys

    static let filtering: [KeyBinding] = [
        bind([.enter], .filterAccept, "keep the filter", hint: "keep"),
        bind([.escape], .filterCancel, "clear the filter", hint: "clear"),
        bind([.backspace], .filterBackspace, "delete a character"),
        bind([.control("u")], .filterErase, "delete the whole filter"),
        bind([.down, .control("n")], .move(1), "next match"),
        bind([.up, .control("p")], .move(-1), "previous match"),
        bind([.function(1)], .help, "show this help"),
        bind([.control("c")], .quit, "quit"),
    ]

    private static let caretBindings: [KeyBinding] = [
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

    static let editing: [KeyBinding] =
        [
            bind([.enter], .editSave, "save (only a valid value)", hint: "save"),
            bind([.escape], .editCancel, "cancel", hint: "cancel"),
        ] + caretBindings + [
            bind([.function(1)], .help, "show this help"),
            bind([.control("c")], .quit, "quit"),
        ]

    static let editingJSON: [KeyBinding] =
        [
            bind([.control("s"), .function(2)], .editSave, "save (only valid JSON)", hint: "save"),
            bind([.escape], .editCancel, "cancel", hint: "cancel"),
            bind([.control("o")], .externalEdit, "open in $EDITOR", hint: "$EDITOR"),
            bind([.enter], .editNewline, "new line"),
            bind([.up], .editMove(.up), "line up"),
            bind([.down], .editMove(.down), "line down"),
        ] + caretBindings + [
            bind([.function(1)], .help, "show this help"),
            bind([.control("c")], .quit, "quit"),
        ]

    static let picking: [KeyBinding] = [
        bind([.character("j"), .down], .move(1), "next choice"),
        bind([.character("k"), .up], .move(-1), "previous choice"),
        bind([.character("g"), .home], .top, "first choice"),
        bind([.character("G"), .end], .bottom, "last choice"),
        bind([.enter, .character(" ")], .pickerChoose, "choose", hint: "choose"),
        bind([.escape, .character("q")], .pickerCancel, "cancel", hint: "cancel"),
        bind([.character("?"), .function(1)], .help, "show this help", hint: "help"),
        bind([.control("c")], .quit, "quit"),
    ]

    static let confirming: [KeyBinding] = [
        bind([.character("y"), .character("Y")], .confirm, "yes", hint: "yes"),
        bind([.character("n"), .character("N"), .escape, .enter], .cancel, "no (the default)", hint: "no"),
        bind([.control("c")], .quit, "quit"),
    ]

    static let helpScreen: [KeyBinding] = [
        bind(
            [.escape, .character("q"), .character("?"), .function(1), .enter], .closeHelp, "close help", hint: "close"),
        bind([.control("c")], .quit, "quit"),
    ]
}
