public import Foundation

/// Debug overrides persisted in a JSON file that the debug menu, the command-line tool and running programs share
/// safely.
///
/// ```swift
/// let store = FileOverrideStore(url: FileOverrideStore.defaultURL(appName: "demo"))
/// let service = LiveConfigurationService(serverValues: lastSync, catalog: catalog, overrideStore: store)
/// ```
///
/// Guarantees:
/// - **Atomic**: every save writes a new file in the same folder, flushes it, and renames it over the old one;
///   readers see the old file or the new one, never a mixture, even if the writer is killed.
/// - **No lost writes**: every change is a read-modify-write under an advisory lock (`flock` on `<file>.lock`),
///   merged with what is on disk, so processes changing different keys at once all keep their changes.
/// - **Live**: ``startWatching(_:)`` reloads within a second when another process changes the file (inotify on
///   Linux, `stat` polling elsewhere) and notifies observers.
/// - **Nothing lost**: entries for unknown keys are kept (and reported as orphans by ``diagnostics(catalog:serverValues:)``);
///   a file that cannot be read is moved aside to `<name>.corrupt-<timestamp>`, never overwritten, and the
///   problem is kept in ``lastError``.
/// - **Private**: the file is created with mode 0600 in a folder with mode 0700; a file others can write, or that
///   another user owns, is refused untouched.
public final class FileOverrideStore: Sendable {
    /// The store file.
    public let url: URL

    struct State: Sendable {
        var document = OverrideDocument() {
            didSet { entries = nil }
        }
        /// `document.entries`, built on first use after each change.
        var entries: [String: OverrideEntry]?
        var fingerprint: FileFingerprint?
        var lastError: OverrideStoreError?
        var observers: [UInt64: @Sendable (OverrideStoreChange) -> Void] = [:]
        var nextObserverID: UInt64 = 1
        var watcher: FileWatcher?
    }

    private let file: StoreFile
    private let state = Locked(State())
    /// The buffer the last save encoded into, kept for its capacity.
    private let scratch = Locked<[UInt8]>([])

    /// Creates a store for the file at `url`. Nothing is read or created until the first ``reload()`` or change.
    public convenience init(url: URL) {
        self.init(url: url, faults: nil)
    }

    /// Creates a store whose file operations can be made to fail, for tests of disk-full and read-only behaviour.
    package init(url: URL, faults: StoreFaultInjector?) {
        self.url = url.standardizedFileURL
        self.file = StoreFile(url: self.url, faults: faults)
    }

    deinit {
        stopWatching()
    }

    // MARK: Reading

    /// The override of `key` as last read from or written to the file.
    public func entry(forKey key: String) -> OverrideEntry? {
        state.withLock { $0.document[key] }
    }

    /// The overrides as last read from or written to the file.
    public var entries: [String: OverrideEntry] {
        state.withLock { state in
            if let entries = state.entries { return entries }
            let entries = state.document.entries
            state.entries = entries
            return entries
        }
    }

    /// The last problem with the file, or `nil` when the last read or write succeeded.
    public var lastError: OverrideStoreError? { state.withLock { $0.lastError } }

    /// Reads the file if it changed since the last read or write, and notifies observers of changed keys; returns the
    /// problem this read found, if any (an unchanged file is not read again and returns `nil`).
    ///
    /// A missing file is an empty store. A file that cannot be parsed is moved aside and the store becomes empty;
    /// the returned (and ``lastError``) error says why and where the file went. A file refused for its permissions
    /// is left alone and the store keeps its previous contents.
    @discardableResult
    public func reload() -> OverrideStoreError? {
        if file.fingerprint() == state.withLock({ $0.fingerprint }) { return nil }
        // Read and record under a shared lock: a save (here or in another process) cannot land in between, so a
        // reload never records an older file over a newer one.
        let outcome: Result<OverrideStoreChange?, StoreFile.Failure> = Result { () throws(StoreFile.Failure) in
            try file.withSharedLock { () throws(StoreFile.Failure) in
                let (document, fingerprint) = try parseCurrent()
                return record(document, fingerprint: fingerprint, error: nil, changed: nil)
            }
        }
        switch outcome {
        case .success(let change):
            if let change { notify(change) }
            return nil
        case .failure(let failure) where failure.kind == .corrupt:
            // Refuse it under the exclusive lock, after checking it is not half-written by an editor.
            let refused: OverrideStoreError
            do {
                let change = try file.withExclusiveLock { () throws(StoreFile.Failure) in
                    let (document, fingerprint) = try parseOrMoveAside()
                    return record(document, fingerprint: fingerprint, error: nil, changed: nil)
                }
                if let change { notify(change) }
                return nil
            } catch {
                refused = OverrideStoreError(
                    url: url, kind: error.kind, problem: error.problem, preservedAt: error.preservedAt)
            }
            if refused.kind == .corrupt {
                commit(OverrideDocument(), fingerprint: file.fingerprint(), error: refused)
            } else {
                state.withLock { $0.lastError = refused }
            }
            return refused
        case .failure(let failure):
            let error = OverrideStoreError(url: url, kind: failure.kind, problem: failure.problem)
            state.withLock { $0.lastError = error }
            return error
        }
    }

    /// Under the lock: parses the file, or moves it aside if it stays unparseable. A person's editor may still be
    /// writing it, so a file that changes within 50 ms is read again rather than refused.
    private func parseOrMoveAside() throws(StoreFile.Failure) -> (OverrideDocument, FileFingerprint?) {
        do throws(StoreFile.Failure) {
            return try parseCurrent()
        } catch  where error.kind == .corrupt {
            let before = file.fingerprint()
            usleep(50_000)
            if file.fingerprint() != before { return try parseCurrent() }
            var moved = error
            moved.preservedAt = try file.moveAside()
            throw moved
        }
    }

    private func parseCurrent() throws(StoreFile.Failure) -> (OverrideDocument, FileFingerprint?) {
        guard let (bytes, fingerprint) = try file.load() else { return (OverrideDocument(), nil) }
        do {
            return (try OverrideDocument(parsing: bytes), fingerprint)
        } catch {
            throw StoreFile.Failure(kind: .corrupt, problem: error.description)
        }
    }

    // MARK: Writing

    /// Sets the override of `key` to the wire string `value`, recording the time, the server value it replaces
    /// and an optional note, and saves before returning.
    public func set(
        _ value: String,
        forKey key: String,
        serverValue: String? = nil,
        note: String? = nil
    ) throws(OverrideStoreError) {
        guard value.utf8.count <= OverrideDocument.maximumValueSize else {
            throw OverrideStoreError(
                url: url, kind: .io, problem: "the value of \(key) is larger than 1 MiB; not saved")
        }
        let entry = OverrideEntry(value: value, setAt: Date(), serverValueWhenSet: serverValue, note: note)
        try save(touching: [key]) { $0[key] = entry }
    }

    /// Removes the override of `key`, if any, and saves.
    public func removeValue(forKey key: String) throws(OverrideStoreError) {
        try save(touching: [key]) { $0[key] = nil }
    }

    /// Removes every override and saves.
    public func removeAll() throws(OverrideStoreError) {
        try modify { $0.removeAll() }
    }

    /// Changes the overrides with `body` as one read-modify-write: under the store's file lock, starting from what
    /// is on disk now (including other processes' changes), saved atomically before returning.
    ///
    /// On failure nothing changes, in memory or on disk, and the error (also in ``lastError``) says why.
    public func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try save(touching: nil) { document throws(StoreFile.Failure) in
            var entries = document.entries
            do {
                try body(&entries)
            } catch {
                throw StoreFile.Failure(kind: .io, problem: "the change was refused: \(error)")
            }
            for key in Set(document.entries.keys).union(entries.keys) where document[key] != entries[key] {
                if let entry = entries[key], entry.value.utf8.count > OverrideDocument.maximumValueSize {
                    throw StoreFile.Failure(kind: .io, problem: "the value of \(key) is larger than 1 MiB; not saved")
                }
                document[key] = entries[key]
            }
        }
    }

    /// The one write path: lock, start from the file as it is now, apply `edit`, save if anything changed, then
    /// announce the change. `touching` names the keys `edit` can change (`nil`: compare everything).
    private func save(
        touching keys: Set<String>?,
        _ edit: (inout OverrideDocument) throws(StoreFile.Failure) -> Void
    ) throws(OverrideStoreError) {
        let change: OverrideStoreChange?
        do {
            change = try file.withExclusiveLock { () throws(StoreFile.Failure) -> OverrideStoreChange? in
                var (document, fingerprint, refused, cached) = try currentUnderLock()
                let before = document
                try edit(&document)
                let changed = keys.map { $0.filter { before[$0] != document[$0] } }
                if changed.map({ !$0.isEmpty }) ?? (document != before) || fingerprint == nil && !document.isEmpty {
                    var buffer = scratch.withLock { buffer in
                        defer { buffer = [] }
                        return buffer
                    }
                    document.encode(into: &buffer)
                    defer { scratch.withLock { [buffer] in $0 = buffer } }
                    fingerprint = try file.replace(with: buffer)
                }
                // The known keys are relative to `before`, which is the in-memory state only if it came from the cache.
                return record(document, fingerprint: fingerprint, error: refused, changed: cached ? changed : nil)
            }
        } catch {
            let storeError = OverrideStoreError(
                url: url, kind: error.kind, problem: error.problem, preservedAt: error.preservedAt)
            state.withLock { $0.lastError = storeError }
            throw storeError
        }
        if let change { notify(change) }
    }

    /// The document on disk, reusing the in-memory copy when the file has not changed since it was read. A file
    /// that cannot be parsed is moved aside (the problem goes to ``lastError``) and the change starts from empty.
    private func currentUnderLock() throws(StoreFile.Failure) -> (
        document: OverrideDocument, fingerprint: FileFingerprint?, refused: OverrideStoreError?, cached: Bool
    ) {
        let current = file.fingerprint()
        let cached = state.withLock { state in state.fingerprint == current ? state.document : nil }
        if let cached { return (cached, current, nil, true) }
        do throws(StoreFile.Failure) {
            let (document, fingerprint) = try parseOrMoveAside()
            return (document, fingerprint, nil, false)
        } catch  where error.kind == .corrupt {
            let refused = OverrideStoreError(
                url: url, kind: .corrupt, problem: error.problem, preservedAt: error.preservedAt)
            return (OverrideDocument(), nil, refused, false)
        }
    }

    private func commit(_ document: OverrideDocument, fingerprint: FileFingerprint?, error: OverrideStoreError?) {
        if let change = record(document, fingerprint: fingerprint, error: error, changed: nil) { notify(change) }
    }

    /// Stores the new state; returns the change to announce, if any key changed. `changed` is the set of changed
    /// keys when the caller knows it relative to the in-memory state; `nil` compares everything.
    private func record(
        _ document: OverrideDocument,
        fingerprint: FileFingerprint?,
        error: OverrideStoreError?,
        changed known: Set<String>?
    ) -> OverrideStoreChange? {
        state.withLock { state in
            let previous = state.document
            state.document = document
            state.fingerprint = fingerprint
            state.lastError = error
            let changed = known ?? previous.changedKeys(comparedTo: document)
            guard !changed.isEmpty else { return nil }
            return OverrideStoreChange(changes: Dictionary(uniqueKeysWithValues: changed.map { ($0, document[$0]) }))
        }
    }

    // MARK: Observing

    /// Calls `handler` after every change of the overrides, whether made here or read from the file, with the new
    /// entries and the keys that changed.
    public func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        let id = state.withLock { state in
            defer { state.nextObserverID += 1 }
            state.observers[state.nextObserverID] = handler
            return state.nextObserverID
        }
        return ConfigurationObservation { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    private func notify(_ change: OverrideStoreChange) {
        let observers = state.withLock { $0.observers.sorted { $0.key < $1.key }.map(\.value) }
        for observer in observers { observer(change) }
    }

    /// Starts reloading the file when another process changes it; see ``OverrideStoreWatchMode``.
    ///
    /// Returns the mechanism in use: `"inotify"` or `"polling"`.
    @discardableResult
    public func startWatching(_ mode: OverrideStoreWatchMode = .automatic) -> String {
        stopWatching()
        let watcher = FileWatcher(file: file, mode: mode) { [weak self] in self?.reload() }
        state.withLock { $0.watcher = watcher }
        return watcher.mechanism
    }

    /// Stops watching the file.
    public func stopWatching() {
        state.withLock { state -> FileWatcher? in
            defer { state.watcher = nil }
            return state.watcher
        }?.stop()
    }
}

/// What changed in a ``FileOverrideStore``: each added, changed or removed key with its new entry (`nil`: removed).
public struct OverrideStoreChange: Sendable, Hashable {
    /// The new entry of each changed key; `nil` for a removed one.
    public var changes: [String: OverrideEntry?]

    /// The keys whose entry was added, changed or removed.
    public var changedKeys: Set<String> { Set(changes.keys) }
}
