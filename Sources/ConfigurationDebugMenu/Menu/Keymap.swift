/// A component's key bindings: the table from keys to intents while it has the keyboard. The help screen and the
/// footer are generated from it, so they can never disagree with what the keys do.
///
/// Each component declares its own (``Keymap/keys``, ``Keymap/editing``, ... as static members in its folder) and
/// says which applies (``MenuComponent/keymap(in:)``); the menu's current one is ``MenuState/keymap``.
package struct Keymap: Sendable {
    /// What typed characters and pastes do where no binding takes them.
    package enum Typing: Sendable {
        /// They go into the filter (``MenuIntent/filterInsert(_:)``); a paste on one line.
        case filter
        /// They go into a one-line field (``MenuIntent/editInsert(_:)``); line breaks in a paste become spaces.
        case line
        /// They go into a text of several lines (``MenuIntent/editInsert(_:)``), line breaks kept.
        case lines
    }

    /// What the mouse wheel does.
    package enum Wheel: Sendable {
        /// Scrolls what is under the pointer (``MenuIntent/wheel(_:x:y:)``).
        case scrolls
        /// Moves the selection (``MenuIntent/move(_:)``).
        case moves
    }

    /// The name the table is known by (equal names are the same table).
    package let name: String
    /// The help screen's title for it.
    package let title: String
    /// The bindings, in help order.
    package let bindings: [KeyBinding]
    /// Lines the help screen shows after the bindings: what the screen's words and marks mean.
    package let notes: [(keys: String, text: String)]
    /// What typed characters and pastes do; `nil`: nothing.
    package let typing: Typing?
    /// Whether a click reaches the component (``MenuIntent/click(x:y:)``).
    package let clicks: Bool
    /// What the wheel does; `nil`: nothing.
    package let wheel: Wheel?

    /// A table named `name`, titled `title` in help.
    package init(
        _ name: String, title: String, _ bindings: [KeyBinding], notes: [(keys: String, text: String)] = [],
        typing: Typing? = nil, clicks: Bool = false, wheel: Wheel? = nil
    ) {
        self.name = name
        self.title = title
        self.bindings = bindings
        self.notes = notes
        self.typing = typing
        self.clicks = clicks
        self.wheel = wheel
    }

    /// The intent for `event`, if any. Ctrl-C quits and Ctrl-Z suspends everywhere; printable characters and pastes
    /// go where ``typing`` says.
    package func action(for event: KeyEvent) -> MenuIntent? {
        if event == .control("c") { return .quit }
        if event == .control("z") { return .suspend }
        if let binding = bindings.first(where: { $0.keys.contains(event) }) {
            // One binding for the ten digits: the digit pressed is the module's place in the pane.
            if case .jumpToModule = binding.action, case .character(let digit) = event,
                let place = digit.wholeNumberValue
            {
                return .jumpToModule(place)
            }
            return binding.action
        }
        switch (typing, event) {
        case (.filter, .character(let character)): return .filterInsert(String(character))
        case (.line, .character(let character)), (.lines, .character(let character)):
            return .editInsert(String(character))
        case (.filter, .paste(let text)): return .filterInsert(Self.oneLine(text))
        case (.line, .paste(let text)): return .editInsert(Self.oneLine(text))
        case (.lines, .paste(let text)): return .editInsert(text)
        default: break
        }
        switch (event, wheel) {
        case (.click(let x, let y), _) where clicks: return .click(x: x, y: y)
        case (.wheel(let delta, let x, let y), .scrolls): return .wheel(delta, x: x, y: y)
        case (.wheel(let delta, _, _), .moves): return .move(delta)
        default: return nil
        }
    }

    /// Whether a key is bound to `intent`.
    package func binds(_ intent: MenuIntent) -> Bool { bindings.contains { $0.action == intent } }

    /// The label of the first key bound to `intent` (`d`), for texts that name it.
    package func keyLabel(for intent: MenuIntent) -> String? {
        bindings.first { $0.action == intent }?.keys.first?.label
    }

    /// Pasted text for a one-line field: line breaks become spaces (an Enter in a paste must not save).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

extension Keymap: Equatable {
    /// Tables are the same when their names are.
    package static func == (lhs: Keymap, rhs: Keymap) -> Bool { lhs.name == rhs.name }
}

/// One binding: the keys, what they do, and how help and the footer describe them.
package struct KeyBinding: Sendable {
    /// The keys that trigger it.
    package var keys: [KeyEvent]
    /// The intent.
    package var action: MenuIntent
    /// What it does, for the help screen ("toggle a Bool key").
    package var help: String
    /// The footer's short word for it in a situation ("toggle"), or `nil` when it does nothing useful then.
    package var hint: @Sendable (HintContext) -> String?
    /// The footer's order: lower first. When the line is short, the highest are left out (help and quit, at 90
    /// and above, always stay).
    package var priority: Int

    /// The keys as written in help: `j/↓`; the ten digits as `0–9`.
    package var keyLabel: String {
        keys == Keymap.digits ? "0–9" : keys.map(\.label).joined(separator: "/")
    }
}

extension Keymap {
    /// A binding whose footer word shows when `when` holds (always, without it); no word keeps it out of the footer.
    static func bind(
        _ keys: [KeyEvent],
        _ action: MenuIntent,
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
    static func bind(
        _ keys: [KeyEvent],
        _ action: MenuIntent,
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

    /// `?` and F1: the help of the keys that apply.
    static let showHelp = bind([.character("?"), .function(1)], .help, "show this help", hint: "help", priority: 98)

    /// F1 alone, where `?` is typed text.
    static let helpWhileTyping = bind([.function(1)], .help, "show this help", hint: "help", priority: 98)

    /// Esc and q in a view over the list (the history, the scenarios).
    static let closeView = bind(
        [.escape, .character("q")], .closeView, "back to the key list", hint: "back", priority: 90)

    /// Ctrl-C, listed in help (it quits in every table, bound or not).
    static let quit = bind([.control("c")], .quit, "quit")

    /// The digit keys, `0` to `9`.
    static let digits: [KeyEvent] = (0...9).map { .character(Character(String($0))) }

    /// Ctrl-Z, listed in help (it suspends in every table, bound or not).
    static let suspend = bind([.control("z")], .suspend, "suspend to the shell (fg comes back where you were)")
}
