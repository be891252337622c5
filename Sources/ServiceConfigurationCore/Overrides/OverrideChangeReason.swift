/// Why the overrides changed, as the history journal records it with each change.
///
/// ```swift
/// try store.modify(OverrideChangeReason(.importProfile, detail: "checkout.json")) { $0.merge(profile) { $1 } }
/// ```
public struct OverrideChangeReason: Sendable, Hashable {
    /// What kind of change.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Overrides set (a value, a note or an expiry).
        case set
        /// Overrides removed.
        case reset
        /// A profile or scenario applied.
        case importProfile = "import"
        /// Expired overrides removed.
        case prune
        /// A change undone (``OverrideChangeReason/undoes`` names it).
        case undo
        /// An undo reversed: the change it undid made again (``OverrideChangeReason/undoes`` names the undo).
        case redo
        /// Entries put back as they were stored (a restore that is not an undo of a recorded change).
        case restore
        /// A change found in the file that no journaling writer made (a hand edit).
        case outside
        /// Any other change.
        case change
    }

    /// What kind of change.
    public var action: Action
    /// More about it, for people: the profile's name for an import.
    public var detail: String?
    /// The journal id of the change an undo undoes (for a redo: of the undo it reverses).
    public var undoes: String?

    /// A reason.
    public init(_ action: Action, detail: String? = nil, undoes: String? = nil) {
        self.action = action
        self.detail = detail
        self.undoes = undoes
    }

    /// A change without a more precise reason.
    public static let change = OverrideChangeReason(.change)
}
