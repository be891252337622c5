public import Foundation

/// Where a service keeps its overrides, with each override's metadata: the file that the debug menu, the
/// command-line tool and running programs share (``FileOverrideStore``), or memory (``InMemoryOverrideStore``).
///
/// A ``LiveConfigurationService`` always has one, and every change it makes to its overrides is one
/// ``modify(_:)`` of its store; the service applies what the store then holds. Tools reach the store through
/// ``ConfigurationService/overrideStore`` to show metadata, problems and where overrides live.
public protocol OverrideStore: AnyObject, Sendable {
    /// Where the overrides live, for people: a file's path, a server's address, or `memory`.
    var location: String { get }

    /// The local file holding the overrides, if the store is one; a service publishes its program report beside it.
    var localFileURL: URL? { get }

    /// The overrides that apply (valid entries), by key name.
    var entries: [String: OverrideEntry] { get }

    /// The override of `key`, if any.
    func entry(forKey key: String) -> OverrideEntry?

    /// Entries kept but not applied, and metadata that could not be read.
    var problems: [OverrideStoreProblem] { get }

    /// The last problem reading or writing the store as a whole, if any.
    var lastError: OverrideStoreError? { get }

    /// Why changes made elsewhere may not be noticed promptly, if that is the case.
    var liveReloadProblem: String? { get }

    /// Reads the store again if it changed; returns the problem this read found, if any.
    @discardableResult
    func reload() -> OverrideStoreError?

    /// Changes the overrides with `body` as one change: from what the store holds now, saved before returning.
    /// On failure nothing changes and the error says why.
    func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError)

    /// ``modify(_:)``, recording the change in the store's history with `reason` (and the store's ``origin``).
    func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError)

    /// ``modify(_:_:)`` for a change that reads and writes only the overrides of `keys`: `body` sees the current
    /// entries of those keys alone (a key without an override is absent), and what it leaves for them is saved;
    /// entries it sets for other keys are ignored. A store can then skip copying and comparing every other entry.
    func modify(
        keys: Set<String>, _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError)

    /// Who this store's changes are recorded as made by: the menu, the command-line tool, or this program.
    var origin: OverrideChangeOrigin { get }

    /// The changes recorded so far (``OverrideHistory/isKept`` is false for a store that keeps none). Reading it
    /// writes nothing.
    func history() -> OverrideHistory

    /// Removes the override of `key`, including an entry kept without being applied.
    func removeValue(forKey key: String) throws(OverrideStoreError)

    /// Removes every override, including entries kept without being applied.
    func removeAll() throws(OverrideStoreError)

    /// Calls `handler` after every change, made here or noticed elsewhere, with the keys that changed.
    func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation

    /// Starts noticing changes made elsewhere; returns the mechanism in use. Stores that are always live do
    /// nothing.
    @discardableResult
    func startWatching(_ mode: OverrideStoreWatchMode) -> String
}

extension OverrideStore {
    /// Stores that keep no history change as ``modify(_:)`` does.
    public func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try modify(body)
    }

    /// Stores without a cheaper way change through ``modify(_:_:)``, handing `body` only the entries of `keys`.
    public func modify(
        keys: Set<String>, _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try modify(reason) { entries in
            var subset: [String: OverrideEntry] = [:]
            for key in keys { subset[key] = entries[key] }
            try body(&subset)
            for key in keys { entries[key] = subset[key] }
        }
    }

    /// This program, by its process name.
    public var origin: OverrideChangeOrigin { .program() }

    /// None: stores that keep no history.
    public func history() -> OverrideHistory { .notKept }

    /// `nil`: the store is not a local file.
    public var localFileURL: URL? { nil }
}
