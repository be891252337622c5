package import ServiceConfiguration

/// Which set of bindings is active.
package enum KeymapContext: String, Equatable, Sendable, CaseIterable {
    case keys, modules, filtering, editing, editingJSON, editingNote, picking, confirming, help, history, scenarios,
        prompting,
        expiry, pager

    /// The title of the help screen for this context.
    package var title: String {
        switch self {
        case .keys: "Key list"
        case .modules: "Module pane"
        case .filtering: "Typing a filter"
        case .editing: "Editing a value"
        case .editingJSON: "Editing JSON"
        case .editingNote: "Editing a note"
        case .picking: "Choosing a value"
        case .confirming: "Answering a question"
        case .help: "Help"
        case .history: "History of changes"
        case .scenarios: "Scenarios"
        case .prompting: "Typing a name"
        case .expiry: "Choosing when an override expires"
        case .pager: "Reading the details or the messages"
        }
    }
}

/// What the footer needs to know to offer only the keys that do something now.
package struct HintContext: Equatable, Sendable {
    /// The selected key's control; `nil` when an orphan or nothing is selected.
    package var control: ConfigurationDebugControl?
    /// Whether an orphaned override is selected.
    package var orphanSelected = false
    /// Whether the selected key (or orphan) has an override.
    package var hasOverride = false
    /// Whether any filter is on.
    package var filtersActive = false
    /// Whether `u` has something to undo.
    package var canUndo = false
    /// Whether the selected key's override equals its server value.
    package var isRedundant = false
    /// Whether any stored override has expired.
    package var anyExpired = false
    /// Whether the module `S` would reset has overrides.
    package var moduleHasOverrides = false
    /// Whether there is any override.
    package var anyOverrides = false
    /// Whether the module pane is shown.
    package var modulePaneShown = true
    /// Whether a module is selected (so a search can be widened to every module).
    package var moduleSelected = false
    /// Whether the search covers every module.
    package var searchEverywhere = false
    /// Whether server values have a source the menu can sync.
    package var hasServer = false
    /// Whether the last server sync changed any key.
    package var hasSyncChanges = false
    /// Whether a program using the store reported which keys it read.
    package var hasCoverage = false
    /// Whether a key, an orphan or an unregistered key is selected (its details can be shown whole).
    package var hasDetails = false
    /// Whether the message log holds any message.
    package var hasMessages = false

    package init() {}
}

/// One binding: the keys, what they do, and how help and the footer describe them.
package struct KeyBinding: Sendable {
    /// The keys that trigger it.
    package var keys: [KeyEvent]
    /// The action.
    package var action: MenuAction
    /// What it does, for the help screen ("toggle a Bool key").
    package var help: String
    /// The footer's short word for it in a situation ("toggle"), or `nil` when it does nothing useful then.
    package var hint: @Sendable (HintContext) -> String?
    /// The footer's order: lower first. When the line is short, the highest are left out (help and quit, at 90
    /// and above, always stay).
    package var priority: Int

    /// The keys as written in help: `j/↓`.
    package var keyLabel: String { keys.map(\.label).joined(separator: "/") }
}
