extension ConfigurationService {
    /// Services without expiry support refuse a rule (and set a value without one as usual).
    public func setOverride(rawValue: String, forKeyNamed name: String, note: String?, expiry: OverrideExpiry?) throws {
        guard expiry == nil else { throw ConfigurationError.unsupported("this service cannot make overrides expire") }
        try setOverride(rawValue: rawValue, forKeyNamed: name, note: note)
    }

    /// Services without a history check `expecting` just before restoring (not atomically) and record no reason.
    public func restoreOverrides(
        _ entries: [String: OverrideEntry?], reason: OverrideChangeReason, expecting: [String: OverrideEntry?]?
    ) throws {
        if let expecting {
            let changed = expecting.keys.sorted().filter { overrideStore.entry(forKey: $0) != expecting[$0] ?? nil }
            if !changed.isEmpty {
                throw OverrideChangeConflict(
                    keys: changed,
                    current: Dictionary(uniqueKeysWithValues: changed.map { ($0, overrideStore.entry(forKey: $0)) }))
            }
        }
        try restoreOverrides(entries)
    }

    /// None: services without expiry support.
    public var expiredOverrides: [String: OverrideExpiryReason] { [:] }

    /// Removes what ``expiredOverrides`` lists, if the entries are unchanged.
    @discardableResult
    public func pruneExpiredOverrides() throws -> [String: OverrideEntry] {
        let expired = overrideStore.entries.filter { expiredOverrides[$0.key] != nil }
        guard !expired.isEmpty else { return [:] }
        try restoreOverrides(
            expired.mapValues { _ in nil }, reason: OverrideChangeReason(.prune),
            expecting: expired.mapValues { Optional($0) })
        return expired
    }

    /// Undoes a recorded change (see ``OverrideHistory/undoProposal(current:)``): puts back the entries it replaced,
    /// recorded as an undo of it. Refused with ``OverrideChangeConflict`` (nothing changes) when a key no longer holds
    /// what it held when the proposal was made.
    ///
    /// ```swift
    /// let history = service.overrideStore.history()
    /// if let proposal = history.undoProposal(current: service.overrideStore.entries) {
    ///     try service.undoOverrideChange(proposal)
    /// }
    /// ```
    public func undoOverrideChange(_ proposal: OverrideUndoProposal) throws {
        guard proposal.record.canBeUndone else {
            throw ConfigurationError.unsupported(
                "the change \(proposal.record.id) was too large to be recorded in full, so it cannot be undone")
        }
        try restoreOverrides(proposal.restores, reason: proposal.reason, expecting: proposal.expected)
    }
}
