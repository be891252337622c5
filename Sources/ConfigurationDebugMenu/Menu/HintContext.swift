package import ServiceConfiguration

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
    /// Whether the last recorded change is an undo that can be redone.
    package var canRedo = false
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
    /// How many keys are marked for a bulk action.
    package var markCount = 0

    package init() {}
}

extension HintContext {
    /// What is selected and possible in `state`.
    package init(_ state: MenuState) {
        self.init()
        let data = state.data
        if let key = state.selectedKey {
            control = data.table.keys[key].descriptor.control
            hasOverride = data.statuses[key].override != nil
        } else if state.selectedOrphan != nil {
            orphanSelected = true
            hasOverride = true
        }
        filtersActive = state.filters.isActive
        canUndo = data.history.lastUndoable != nil
        canRedo = data.history.lastRedoable != nil
        anyExpired = data.expiredCount > 0
        if let key = state.selectedKey { isRedundant = data.statuses[key].isRedundant }
        anyOverrides = data.overrideCount > 0
        modulePaneShown = state.layout.showsModules
        moduleSelected = state.filters.scope != nil
        searchEverywhere = state.filters.searchEverywhere
        hasServer = data.showsServerLine
        hasSyncChanges = (data.server?.changedCount ?? 0) > 0 || state.filters.onlySyncChanged
        hasCoverage = data.coverage.recordsReads || state.filters.onlyUnread
        hasMessages = !state.messages.isEmpty
        markCount = state.marks.count
        hasDetails = state.selectedKey != nil || state.selectedOrphan != nil || state.list.selectedUnregistered != nil
        if let scope = BrowseScreen.scopeToReset(state) {
            moduleHasOverrides = data.scopeOverrideCounts[scope] > 0
        } else {
            moduleHasOverrides = state.focus == .modules && anyOverrides
        }
    }
}
