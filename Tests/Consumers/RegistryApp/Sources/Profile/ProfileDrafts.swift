import ServiceConfigurationCore

/// A scope the module keeps to itself: the app cannot name it, so the plugin leaves it out with a warning that
/// names this line.
struct ProfileDrafts: ConfigurationScope {
    /// How many drafts are kept.
    let profileDraftLimit: DraftLimitKey
    /// `function.profile.draft_limit`.
    enum DraftLimitKey: ConfigurationKey {
        static let name = "function.profile.draft_limit"
        static let defaultValue = 3
    }
}
