public import Foundation

/// What the most recent sync that changed anything changed: each key whose server value changed, with its value
/// before.
///
/// ```swift
/// if let change = sync.status.lastChange {
///     for (key, previous) in change.previousValues { print(key, "was", previous ?? "absent") }
/// }
/// ```
public struct ServerValuesChange: Sendable, Hashable {
    /// When the values arrived.
    public var at: Date
    /// Each changed key with its server value before the sync; `nil` for a key the server did not send before.
    /// A key the server stopped sending is here with its old value.
    public var previousValues: [String: String?]

    /// Creates a change record.
    public init(at: Date, previousValues: [String: String?]) {
        self.at = at
        self.previousValues = previousValues
    }

    /// The keys whose server value changed.
    public var keys: Set<String> { Set(previousValues.keys) }

    /// The keys whose value differs between `old` and `new`, each with its value in `old`.
    static func difference(from old: [String: String], to new: [String: String]) -> [String: String?] {
        var changes: [String: String?] = [:]
        for (key, value) in new where old[key] != value { changes[key] = .some(old[key]) }
        for (key, value) in old where new[key] == nil { changes[key] = .some(value) }
        return changes
    }
}
