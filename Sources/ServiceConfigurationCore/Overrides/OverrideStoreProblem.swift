/// Something wrong with one override in the store file that did not stop the others from applying.
///
/// An entry that cannot be used at all (`"value": 1`, no value, a key name over the limit) is *quarantined*: kept in
/// the file exactly as found, reported here, and not applied. An entry whose value is fine but whose metadata cannot
/// be read (a `setAt` in month 13) is applied; the unreadable field is kept as found (see
/// ``OverrideEntry/preservedFields``) and reported here.
///
/// ```swift
/// for problem in store.problems { print(problem) }
/// // function.album.like.enabled: not applied: "value" must be a string, found a number; kept in the file as found
/// ```
public struct OverrideStoreProblem: Sendable, Hashable, CustomStringConvertible {
    /// The override's key name, as in the file.
    public var key: String
    /// The field the problem is about (`"setAt"`), or `nil` when the whole entry is quarantined.
    public var field: String?
    /// What is wrong, for people.
    public var reason: String
    /// The entry's JSON text as found in the file (for a quarantined entry), or the field's (for a metadata problem).
    public var storedJSON: String

    /// Creates a problem.
    public init(key: String, field: String?, reason: String, storedJSON: String) {
        self.key = key
        self.field = field
        self.reason = reason
        self.storedJSON = storedJSON
    }

    /// Whether the override is applied despite the problem (only a metadata field is unreadable).
    public var isApplied: Bool { field != nil }

    /// One line for people (quote it through an escaping function before printing it to a terminal).
    public var description: String {
        if let field {
            return
                "\(key): \"\(field)\" ignored: \(reason); the override applies, the field is kept in the file as found"
        }
        return "\(key): not applied: \(reason); kept in the file as found"
    }
}
