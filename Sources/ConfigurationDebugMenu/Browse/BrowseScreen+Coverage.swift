extension BrowseScreen {
    // MARK: What the program read

    /// `N`: only keys no program using the store read in this run, or every key again.
    static func toggleOnlyUnread(_ state: inout MenuState) {
        guard state.filters.onlyUnread || state.data.coverage.recordsReads else {
            state.inform(
                state.data.coverage.isEmpty
                    ? "No program using this store has reported what it read (start it with this store)"
                    : "The program does not record its reads (LiveConfigurationService.Options.recordsReads is off)")
            return
        }
        state.filters.onlyUnread.toggle()
        // The selected key stays selected if it is still listed; otherwise the list starts from the top.
        let kept = state.list.rows.indices.contains(state.list.selection) ? state.list.rows[state.list.selection] : nil
        state.refreshList()
        if kept.map({ !state.list.rows.contains($0) }) ?? true { state.refreshList(selectFirst: true) }
        guard state.filters.onlyUnread else { return state.inform("Showing every key") }
        let programs = state.data.coverage.programs
        let who =
            programs.count == 1 ? "\(programs[0].programName) (pid \(programs[0].processIdentifier))" : "any program"
        state.inform("Showing only keys \(who) never read in this run")
    }
}
