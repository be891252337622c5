import ServiceConfiguration
import ServiceConfigurationFileStore

/// The menu's update function: `(state, input) -> (state, effects)`, pure.
///
/// An intent goes to the component that has the keyboard (``MenuState/Mode/component``); its outcome says what has
/// the keyboard next and which effects to run. Quitting, and the keys every component may bind (help, the message
/// log), are handled here the same way for all. Feedback — the outcome of effects, new data, the size, the clock —
/// concerns the whole menu and is applied here (`MenuReducer+Feedback.swift`), the open component taking what
/// concerns it. Effects are performed by the runtime, which reports their outcome as further feedback.
package enum MenuReducer {
    /// Applies `input`; returns the effects to perform.
    package static func reduce(_ state: inout MenuState, _ input: MenuInput) -> [MenuEffect] {
        switch input {
        case .intent(let intent): reduce(&state, intent)
        case .feedback(let feedback): reduce(&state, feedback)
        }
    }

    /// Applies what the person asked for; returns the effects to perform.
    package static func reduce(_ state: inout MenuState, _ intent: MenuIntent) -> [MenuEffect] {
        if intent == .quit { return quit(&state) }
        if intent == .suspend { return [.suspend] }
        state.status = nil
        var component = state.mode.component
        let outcome = component.update(intent, menu: &state)
        return follow(outcome, of: component, after: intent, in: &state)
    }

    /// Puts the component's outcome in place: the component as it updated itself, or the next mode; for an intent
    /// it left alone, the shared keys.
    static func follow(
        _ outcome: MenuOutcome, of component: any MenuComponent, after intent: MenuIntent?, in state: inout MenuState
    ) -> [MenuEffect] {
        switch outcome.next {
        case .stay: state.mode = component.mode
        case .go(let mode): state.mode = mode
        case .ignored: if let intent { return shared(intent, of: component, in: &state) }
        }
        return outcome.effects
    }

    /// The keys every component may bind, handled alike wherever its key map binds them: `?` opens the help of the
    /// keys that apply now over the current screen, `L` the message log, and a key bound to
    /// ``MenuIntent/open(_:)`` the component it names.
    private static func shared(_ intent: MenuIntent, of component: any MenuComponent, in state: inout MenuState)
        -> [MenuEffect]
    {
        let keymap = component.keymap(in: state)
        guard keymap.binds(intent) else { return [] }
        switch intent {
        case .help: state.mode = .help(HelpScreen(context: keymap, returnTo: state.mode))
        case .showMessages: state.mode = .paging(Pager(.messages, returnTo: state.mode))
        case .open(let opened): return follow(opened.type.open(&state), of: component, after: nil, in: &state)
        default: break
        }
        return []
    }

    /// `q` and Ctrl-C: asks first when an edit would be lost or changes are not saved yet (a second quit then
    /// quits).
    private static func quit(_ state: inout MenuState) -> [MenuEffect] {
        if let name = state.mode.component.unsavedWork(in: state) {
            state.mode = .confirming(.quitDiscardingEdit(key: name, editor: state.mode))
            return []
        }
        if !state.pending.isEmpty, !state.mode.isAskingToQuit {
            state.mode = .confirming(
                .quitWithPendingChanges(
                    count: state.pending.count, unanswered: state.pending.contains { $0.unanswered != nil },
                    returnTo: state.mode))
            return []
        }
        return [.quit]
    }
}
