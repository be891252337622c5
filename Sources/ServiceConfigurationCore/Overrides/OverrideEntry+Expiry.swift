public import Foundation

extension OverrideEntry {
    /// Why this override has expired at `now`, given the key's current server value and the program's version (`nil`:
    /// unknown, so a version rule is not met); `nil` while it applies.
    ///
    /// The server rule is decided like staleness (``isStale(currentServerValue:)``): an entry written by hand without
    /// a time never expires by it, since nothing says what the server sent then. It ends only when the server sends
    /// another *value*: no server value at all (a tool that does not know the program's server values, a program
    /// before its first sync, a key the server stops sending) does not end it, so `config-menu prune` run without
    /// the server values never removes such an override.
    public func expiration(
        now: Date, serverValue: String?, programVersion: ProgramVersion?
    ) -> OverrideExpiryReason? {
        if let expiresAt = expiry.expiresAt, expiresAt <= now { return .time(expiresAt) }
        if expiry.untilServerChanges, serverValue != nil, isStale(currentServerValue: serverValue) {
            return .serverValueChanged(from: serverValueWhenSet, to: serverValue)
        }
        if let until = expiry.untilVersion, let programVersion, programVersion >= until {
            return .programVersion(until: until, running: programVersion)
        }
        return nil
    }
}
