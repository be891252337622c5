package import ServiceConfiguration

/// One profile of the scenarios folder, as the scenarios view lists it.
package struct Scenario: Equatable, Sendable {
    /// The file name without `.json`.
    package var name: String
    /// The file's path.
    package var path: String
    /// Its usable entries.
    package var entries: [String: OverrideEntry]
    /// Why it cannot be used, if so (not JSON, not a profile, unreadable).
    package var problem: String?

    package init(name: String, path: String, entries: [String: OverrideEntry], problem: String? = nil) {
        self.name = name
        self.path = path
        self.entries = entries
        self.problem = problem
    }
}

/// The scenarios folder as last read.
package struct ScenarioListing: Equatable, Sendable {
    /// The folder.
    package var folder: String
    /// Its profiles, by name.
    package var scenarios: [Scenario]
    /// Why the folder could not be read, if so (a missing folder is not a problem: it has no scenarios yet).
    package var problem: String?

    package init(folder: String, scenarios: [Scenario], problem: String? = nil) {
        self.folder = folder
        self.scenarios = scenarios
        self.problem = problem
    }
}
