/// A change that was refused because keys it relies on changed since it was prepared (an undo over a newer change
/// made by someone else meanwhile): nothing was changed.
///
/// ```swift
/// do { try service.undoOverrideChange(proposal) }
/// catch let conflict as OverrideChangeConflict { print(conflict) }
/// // function.album.like.enabled changed meanwhile (now "N"); nothing was changed: look at the history again
/// ```
public struct OverrideChangeConflict: Error, Sendable, Hashable, CustomStringConvertible {
    /// The keys that hold something else than expected, sorted.
    public var keys: [String]
    /// What they hold now (`nil`: no override).
    public var current: [String: OverrideEntry?]

    /// A conflict.
    public init(keys: [String], current: [String: OverrideEntry?]) {
        self.keys = keys
        self.current = current
    }

    /// For people; names and values escaped.
    public var description: String {
        let show = VisibleText.escaped
        let listed =
            keys.prefix(3).map { key in
                let now = (current[key] ?? nil).map { "\"\(show($0.value))\"" } ?? "no override"
                return "\(show(key)) (now \(now))"
            }.joined(separator: ", ") + (keys.count > 3 ? " and \(keys.count - 3) more" : "")
        return "\(listed) changed meanwhile; nothing was changed: look at the history again"
    }
}
