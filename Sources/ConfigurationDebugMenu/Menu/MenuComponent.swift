/// One interactive piece of the menu — the browse screen, the filter bar, an editor, the picker, a question, the
/// help, the history — in the one shape they all have: its key bindings, an update that returns one kind of outcome,
/// and a drawing into the rectangle it is given.
///
/// A component is the state of its ``MenuState/Mode`` case. The reducer hands the intent to the component that has
/// the keyboard (``MenuState/Mode/component``), keeps the component as it updated itself, and turns the outcome into
/// the next mode and the effects to run; the renderer gives the component the room its ``placement`` asks for. The
/// help screen and the footer are generated from ``keymap(in:)``. So a new screen is a folder holding its component
/// and one mode case; nothing in the loop, the reducer or the renderer names it.
///
/// The component changes its own state through `self` and the menu's shared state (the filters, the key list, the
/// pending changes, the status line) through `menu`; it never sets `menu.mode`: what has the keyboard next is its
/// outcome.
package protocol MenuComponent: Equatable, Sendable {
    /// The mode that holds this component as it is now.
    var mode: MenuState.Mode { get }

    /// Where the renderer gives it room.
    var placement: MenuPlacement { get }

    /// The key bindings while it has the keyboard.
    func keymap(in menu: MenuState) -> Keymap

    /// Applies `intent`; returns what has the keyboard next and the effects to run.
    mutating func update(_ intent: MenuIntent, menu: inout MenuState) -> MenuOutcome

    /// Takes feedback that concerns it while it has the keyboard: for ``MenuFeedback/refreshed(_:)`` after the menu
    /// applied the new data (`before` is the data before it), for anything else before the menu's own handling,
    /// which `.ignored` leaves in place. By default, nothing concerns it.
    mutating func receive(_ feedback: MenuFeedback, before: MenuData, menu: inout MenuState) -> MenuOutcome

    /// What quitting now would throw away, as the question names it (`function.media.quality`, `the note of …`);
    /// `nil` when nothing would be lost. By default, nothing.
    func unsavedWork(in menu: MenuState) -> String?

    /// Draws the component in `rect` (which ``placement`` decides).
    func draw(into grid: inout ScreenGrid, in rect: Rect, menu: MenuState, theme: MenuTheme)
}

extension MenuComponent {
    package mutating func receive(_ feedback: MenuFeedback, before: MenuData, menu: inout MenuState) -> MenuOutcome {
        .ignored
    }

    package func unsavedWork(in menu: MenuState) -> String? { nil }
}

/// A component a key opens from another one — the filter bar, the note editor, the expiry menu, the history, the
/// scenarios: how it opens, from the menu as it is. A key bound to ``MenuIntent/open(_:)`` with its type opens it
/// wherever that key map applies (the reducer handles the intent for every component), so the component that has
/// the key does not need to know it.
package protocol OpenableComponent: MenuComponent {
    /// Opens the component (`.go` to its mode), or says why it cannot (`.stay`, with a status).
    static func open(_ menu: inout MenuState) -> MenuOutcome
}

/// The type of an ``OpenableComponent``, as ``MenuIntent/open(_:)`` carries it: equal when the types are.
package struct ComponentType: Equatable, Sendable, CustomStringConvertible {
    /// The component's type.
    package let type: any OpenableComponent.Type

    package init(_ type: any OpenableComponent.Type) {
        self.type = type
    }

    package static func == (lhs: ComponentType, rhs: ComponentType) -> Bool {
        ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
    }

    package var description: String { String(describing: type) }
}

/// What a component's update leads to: who has the keyboard next, and the effects to run.
package struct MenuOutcome: Equatable, Sendable {
    /// Who has the keyboard next.
    package enum Next: Equatable, Sendable {
        /// The component, as it updated itself.
        case stay
        /// Another mode: back where the component was opened from, a question, another screen.
        case go(MenuState.Mode)
        /// The intent is not the component's: the keys every component may bind apply (help, the message log), if
        /// its key map binds them.
        case ignored
    }

    /// Who has the keyboard next.
    package var next: Next
    /// The effects to run, in order.
    package var effects: [MenuEffect]

    /// The component keeps the keyboard; nothing to run.
    package static let stay = MenuOutcome(next: .stay, effects: [])
    /// Not the component's intent.
    package static let ignored = MenuOutcome(next: .ignored, effects: [])

    /// The component keeps the keyboard; `effects` run.
    package static func stay(_ effects: [MenuEffect]) -> MenuOutcome { MenuOutcome(next: .stay, effects: effects) }

    /// `mode` takes the keyboard; `effects` run.
    package static func go(_ mode: MenuState.Mode, _ effects: [MenuEffect] = []) -> MenuOutcome {
        MenuOutcome(next: .go(mode), effects: effects)
    }
}

/// Where a component is drawn; the renderer lays the screen out around it.
package enum MenuPlacement: Equatable, Sendable {
    /// The whole screen (the browse screen itself).
    case screen
    /// In the details box, the browse screen around it (the one-line editors).
    case details
    /// In the footer row, the browse screen above it; the key list keeps the look of having the keyboard, as it
    /// narrows while the filter is typed.
    case footer
    /// Between the title bar and the footer (the history, the scenarios, the pager, the JSON editor).
    case body
    /// A box over the browse screen, which is drawn as having lost the keyboard (the picker, the expiry menu, a
    /// question about the list).
    case dialog
    /// A box over the screen of another mode, drawn as it was (the help, a prompt, a question about an editor); the
    /// footer then shows this component's keys.
    case overlay(MenuState.Mode)
}

/// One thing for the reducer: an intent from the keyboard or the mouse, or feedback from the runtime. The loop keeps
/// them in one queue, so feedback an effect gives at once is handled after what was already waiting.
package enum MenuInput: Equatable, Sendable {
    /// What the person asked for.
    case intent(MenuIntent)
    /// What the runtime reports.
    case feedback(MenuFeedback)
}
