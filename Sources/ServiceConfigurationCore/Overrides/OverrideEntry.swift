public import Foundation

/// One persisted override: the wire string, when and by what it was set, and the server value it replaced.
///
/// ```swift
/// let entry = store.entries["function.album.like.enabled"]
/// entry?.value                // "Y"
/// entry?.serverValueWhenSet   // "N": if the server now sends something else, the override is stale
/// ```
///
/// The store's format grows by adding fields to entries. Fields this build does not know, and known metadata fields
/// whose contents it cannot read (a `setAt` in month 13), are kept in ``preservedFields`` and written back
/// unchanged whenever the file is saved; replacing the override (a new ``FileOverrideStore/set(_:forKey:serverValue:note:)``)
/// replaces the whole entry, preserved fields included.
public struct OverrideEntry: Sendable, Hashable {
    /// The override's wire string, in the same format as server values.
    public var value: String
    /// When the override was set; `nil` for entries written by hand without a time (or with one that cannot be
    /// read: it is then kept in ``preservedFields`` and reported by ``FileOverrideStore/problems``).
    public var setAt: Date?
    /// The server value at the moment the override was set (`nil`: the server sent none).
    public var serverValueWhenSet: String?
    /// An optional note from whoever set it ("QA scenario 12: checkout with one tap").
    public var note: String?
    /// When the override stops applying by itself (``OverrideExpiry/never`` by default); stored as the optional
    /// fields `expiresAt`, `untilServerChanges` and `untilVersion`.
    public var expiry: OverrideExpiry
    /// Fields kept as found, by name, each as its JSON text (`["expiresAt": "\"2027-01-01T00:00:00Z\""]`): fields a
    /// newer build wrote, and known fields whose contents could not be read. They are written back unchanged; a
    /// typed property that is set (``setAt``, ``note``, ...) takes precedence over a preserved field of its name.
    public var preservedFields: [String: String]

    /// Creates an entry.
    public init(
        value: String,
        setAt: Date? = Date(),
        serverValueWhenSet: String? = nil,
        note: String? = nil,
        expiry: OverrideExpiry = .never,
        preservedFields: [String: String] = [:]
    ) {
        self.value = value
        self.setAt = setAt
        self.serverValueWhenSet = serverValueWhenSet
        self.note = note
        self.expiry = expiry
        self.preservedFields = preservedFields
    }

    /// Whether the server value has changed since the override was set, so the override now hides a different
    /// server value than the person saw. An entry written by hand without a time (a scenario file's plain map) is
    /// never stale: nothing says what the server sent then. This is the one place that decides staleness.
    public func isStale(currentServerValue: String?) -> Bool {
        setAt != nil && currentServerValue != serverValueWhenSet
    }
}
