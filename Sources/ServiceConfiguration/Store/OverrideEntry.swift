public import Foundation

/// One persisted override: the wire string, when and by what it was set, and the server value it replaced.
///
/// ```swift
/// let entry = store.entries["function.album.like.enabled"]
/// entry?.value                // "Y"
/// entry?.serverValueWhenSet   // "N": if the server now sends something else, the override is stale
/// ```
public struct OverrideEntry: Sendable, Hashable {
    /// The override's wire string, in the same format as server values.
    public var value: String
    /// When the override was set; `nil` for entries written by hand without a time.
    public var setAt: Date?
    /// The server value at the moment the override was set (`nil`: the server sent none).
    public var serverValueWhenSet: String?
    /// An optional note from whoever set it ("QA scenario 12: checkout with one tap").
    public var note: String?

    /// Creates an entry.
    public init(value: String, setAt: Date? = Date(), serverValueWhenSet: String? = nil, note: String? = nil) {
        self.value = value
        self.setAt = setAt
        self.serverValueWhenSet = serverValueWhenSet
        self.note = note
    }

    /// Whether the server value has changed since the override was set, so the override now hides a different
    /// server value than the person saw.
    public func isStale(currentServerValue: String?) -> Bool {
        currentServerValue != serverValueWhenSet
    }
}
