public import Foundation

/// Everything known about a program's server values: where they come from, how current they are, the last
/// failure, the validators, and what the last change changed. The same for every source.
///
/// ```swift
/// let status = sync.status
/// print(status.source, status.state.name, status.lastSync as Any, status.lastError?.reason ?? "no error")
/// ```
public struct ServerSyncStatus: Sendable, Hashable {
    /// Where the values come from: the source's location (a URL without credentials).
    public var source: String
    /// How current the values are.
    public var state: ServerSyncState
    /// When the last good sync (a 200 or a 304) finished, in this process or (from the snapshot) before.
    public var lastSync: Date?
    /// When the last sync attempt finished, good or bad (in this process).
    public var lastAttempt: Date?
    /// The most recent failure, kept after later successes so an intermittent problem stays visible; ``state``
    /// says whether it still applies.
    public var lastError: ServerSyncError?
    /// When ``lastError`` first happened (the start of a run of failures with the same reason).
    public var lastErrorAt: Date?
    /// The validators the next conditional request sends.
    public var validators: ServerValuesValidators
    /// What the most recent sync that changed any value changed.
    public var lastChange: ServerValuesChange?
    /// How many keys the server values hold.
    public var keyCount: Int
    /// What a server that evaluates flags (OFREP) said about each key in the last set of values: variant, reason,
    /// or why its evaluation failed. Empty for sources of plain values.
    public var evaluations: [String: ServerValueEvaluation]
    /// A local problem with the persisted snapshot (it could not be read or saved, or its `writer` could not be read
    /// while its values were), if any. Syncing goes on.
    public var snapshotProblem: String?

    /// Creates a status.
    public init(
        source: String,
        state: ServerSyncState = .waiting,
        lastSync: Date? = nil,
        lastAttempt: Date? = nil,
        lastError: ServerSyncError? = nil,
        lastErrorAt: Date? = nil,
        validators: ServerValuesValidators = ServerValuesValidators(),
        lastChange: ServerValuesChange? = nil,
        keyCount: Int = 0,
        snapshotProblem: String? = nil,
        evaluations: [String: ServerValueEvaluation] = [:]
    ) {
        self.evaluations = evaluations
        self.source = source
        self.state = state
        self.lastSync = lastSync
        self.lastAttempt = lastAttempt
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.validators = validators
        self.lastChange = lastChange
        self.keyCount = keyCount
        self.snapshotProblem = snapshotProblem
    }

    /// The server value a key had before the last change, if that change touched it: `.some(nil)` for a key that
    /// was new, `nil` for a key the last change did not touch.
    public func previousValue(of key: String) -> String?? {
        lastChange?.previousValues[key]
    }
}
