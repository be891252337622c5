/// A change to the override layer as one unit: what a write performs, or what an undo restores.
package struct OverrideWrite: Equatable, Sendable {
    /// One key's new override: a wire string, or `nil` to remove it.
    package struct Change: Equatable, Sendable {
        /// The key name.
        package var key: String
        /// The new override, or `nil` to remove it.
        package var value: String?

        package init(key: String, value: String?) {
            self.key = key
            self.value = value
        }
    }

    /// The changes, applied together.
    package var changes: [Change]
    /// Which pending change it is (``MenuState/pending``); 0 for none.
    package var id: Int
    /// A short description for the status line, such as "function.album.like.enabled = Y".
    package var summary: String
    /// When the changed overrides expire (`nil`: a new value never expires, an unchanged one keeps its rule).
    package var expiry: ExpiryChoice?

    package init(changes: [Change], summary: String, expiry: ExpiryChoice? = nil, id: Int = 0) {
        self.changes = changes
        self.summary = summary
        self.expiry = expiry
        self.id = id
    }

    /// Each key's new override value.
    package var values: [String: String?] {
        Dictionary(changes.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
