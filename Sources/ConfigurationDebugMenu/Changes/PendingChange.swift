/// A change the menu asked the store to make that the store has not confirmed yet: sent (or waiting its turn behind
/// an earlier one), or sent and not answered in time, so that whether it was made is unknown until the store answers
/// again. The key list shows the values it asks for, marked `saving…` (or `no answer`), and later changes start
/// from them; it ends when the store answers (``MenuFeedback/writeSucceeded(_:)`` and the like), or, for one not
/// answered, when the menu next reads the store (``MenuFeedback/writeSettled(id:applied:now:)``).
package struct PendingChange: Equatable, Sendable {
    /// Which change, as its effect and its outcome name it.
    package var id: Int
    /// What it does, for people: `function.album.like.enabled = Y`.
    package var summary: String
    /// Each key's override value once it is made (`nil`: removed).
    package var values: [String: String?]
    /// Why its outcome is unknown (the store's message), once the store did not answer in time.
    package var unanswered: String?

    package init(id: Int, summary: String, values: [String: String?], unanswered: String? = nil) {
        self.id = id
        self.summary = summary
        self.values = values
        self.unanswered = unanswered
    }
}

/// How the key list and the details show a key (or orphan) whose change is pending.
package struct PendingMark: Equatable, Sendable {
    /// The override value asked for (`nil`: removed).
    package var override: String?
    /// The key's value once the change is made, as the list shows it (for a removed override: the server value
    /// the key accepts, or its default).
    package var value: String?
    /// Why the outcome is unknown, once the store did not answer in time.
    package var unanswered: String?
}

extension MenuState {
    /// The newest pending change of the key or orphan named `name`: the override value it asks for (`nil`: removed),
    /// and whether its outcome is unknown; `nil` when no change of the key is pending.
    package func pendingValue(of name: String) -> (value: String?, unanswered: Bool)? {
        guard let change = pending.last(where: { $0.values[name] != nil }), let value = change.values[name] else {
            return nil
        }
        return (value, change.unanswered != nil)
    }

    /// The key's value as the menu shows it: the value a pending change asks for (a removed override: the server
    /// value the key accepts, or the default), else the value now.
    package func shownValue(ofKey key: Int) -> String? {
        let status = data.statuses[key]
        guard let pending = pendingValue(of: status.name) else { return status.value }
        if let value = pending.value { return value }
        let descriptor = data.table.keys[key].descriptor
        return status.isServerValueRejected
            ? descriptor.defaultValueString : status.serverValue ?? descriptor.defaultValueString
    }

    /// The marks of every key and orphan with a pending change, by name.
    package var pendingMarks: [String: PendingMark] {
        var marks: [String: PendingMark] = [:]
        for change in pending {
            for (name, override) in change.values {
                marks[name] = PendingMark(override: override, value: override, unanswered: change.unanswered)
            }
        }
        for (name, mark) in marks where mark.override == nil {
            if let key = data.table.index(of: name) { marks[name]?.value = shownValue(ofKey: key) }
        }
        return marks
    }

    /// Starts a change of the store: records it as pending under a new id, and returns the id.
    package mutating func beginChange(summary: String, values: [String: String?]) -> Int {
        let id = nextChangeID
        nextChangeID += 1
        pending.append(PendingChange(id: id, summary: summary, values: values))
        return id
    }

    /// Ends the pending change `id` (the store answered); returns it, or `nil` when it is not pending (it was settled
    /// already, or it was never one: id 0).
    @discardableResult
    package mutating func endChange(_ id: Int) -> PendingChange? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index)
    }
}
