/// An edit of one key's value in `$EDITOR`: what the editor was given, and what the key held when the edit started,
/// so that when the editor returns the menu can tell whether another process changed the key meanwhile (and ask
/// before saving over it, as the menu's own editors do).
package struct ExternalEdit: Equatable, Sendable {
    /// The key, by index in the ``KeyTable``.
    package var key: Int
    /// The text given to the editor.
    package var text: String
    /// The key's override value when the edit started (`nil`: it had none).
    package var startedFrom: String?
    /// The key's new value, when another process changed it before the edit moved to `$EDITOR` (the JSON editor
    /// it continues had seen it).
    package var changedElsewhere: String?
    /// When the saved override expires (from the JSON editor it continues); `nil`: as before.
    package var expiry: ExpiryChoice?

    package init(
        key: Int, text: String, startedFrom: String?, changedElsewhere: String? = nil, expiry: ExpiryChoice? = nil
    ) {
        self.key = key
        self.text = text
        self.startedFrom = startedFrom
        self.changedElsewhere = changedElsewhere
        self.expiry = expiry
    }
}
