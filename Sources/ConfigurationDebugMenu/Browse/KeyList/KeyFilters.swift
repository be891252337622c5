/// The filters over the key list. They combine: a key is listed when it passes every one.
package struct KeyFilters: Equatable, Sendable {
    /// The scope the module pane selected; `nil` is "All".
    package var scope: Int?
    /// The fuzzy filter's text.
    package var query = ""
    /// Show only keys with an override.
    package var onlyOverridden = false
    /// Show only keys with a problem (rejected value, stale override) and orphaned overrides.
    package var onlyProblems = false
    /// Search every module, whatever module is selected.
    package var searchEverywhere = false
    /// Show only keys whose server value the last server sync changed.
    package var onlySyncChanged = false
    /// Show only keys no program using the store read in this run (see ``MenuData/coverage``).
    package var onlyUnread = false
    /// Show only keys whose value, server value or override holds a character the screen shows escaped (control,
    /// invisible, invalid text).
    package var onlyInvisible = false

    package init(scope: Int? = nil, query: String = "", onlyOverridden: Bool = false, onlyProblems: Bool = false) {
        self.scope = scope
        self.query = query
        self.onlyOverridden = onlyOverridden
        self.onlyProblems = onlyProblems
    }

    /// Whether any filter is on.
    package var isActive: Bool {
        scope != nil || !query.isEmpty || onlyOverridden || onlyProblems || onlySyncChanged || onlyUnread
            || onlyInvisible
    }

    /// The module the list is restricted to: the selected one, unless a search covers every module.
    package var effectiveScope: Int? { searchEverywhere && !query.isEmpty ? nil : scope }
}
