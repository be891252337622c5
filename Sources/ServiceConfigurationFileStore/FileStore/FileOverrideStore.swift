public import Foundation
public import ServiceConfigurationCore
package import ServiceConfigurationFiles

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
///   merged with what is on disk, so processes changing different keys at once all keep their changes. A writer
///   waits at most 5 seconds for the lock, then fails naming the lock file.
/// - **Live**: ``startWatching(_:)`` reloads within a second when another process changes the file (inotify on
///   Linux, `stat` polling elsewhere) and notifies observers; it survives the folder being deleted and recreated,
///   and ``liveReloadProblem`` says when it could only fall back to polling.
/// - **Readers never destroy**: reading (``reload()``, the menu, a running program) never moves, renames or
///   rewrites anything. A file that is not this format at all is reported in ``lastError`` and nothing from it
///   applies; only a writer that must replace such a regular file moves it aside first (to
///   `<name>.corrupt-<timestamp>`, keeping the newest five), under the lock, after reading it again.
/// - **Tolerant**: unknown fields are kept and written back; an entry that cannot be used is quarantined alone
///   (kept, listed in ``problems``, not applied) while the others apply; entries for unknown keys are kept (and
///   reported as orphans by ``OverrideStore/diagnostics(catalog:serverValues:)``).
/// - **Bounded**: readers and writers share ``OverrideStoreLimits``; a change past them is refused before anything
///   is written.
/// - **Private**: the file is created with mode 0600 in a folder with mode 0700; a file (or lock file) others can
///   write, or that another user owns, is refused untouched; a file made read-only (mode 400) is not replaced.
/// - **Symbolic links** are followed: checks, locking and replacement apply to the target, in its own folder.
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
        var watcher: FileWatcher?
        /// Why the last change could not be journaled, if so.
        var journalProblem: String?
        /// The journal as last read, with the fingerprints of its files then.
        var journalCache: JournalCache?
    }

    /// The journal's records as last read.
    struct JournalCache: Sendable {
        var fingerprints: [FileFingerprint?]
        var records: [OverrideJournalRecord]
        var unreadable: Int
        var problem: String?
    }

    let file: StoreFile
    let state = Locked(State())
    private let originState: Locked<OverrideChangeOrigin>
    private let observers = ObserverRegistry<OverrideStoreChange>()
    /// The buffer the last save encoded into, kept for its capacity.
    private let scratch = Locked<[UInt8]>([])

    /// Creates a store for the file at `url`, whose changes the history journal records as made by `origin` (by
    /// default this program, by its process name). Nothing is read or created until the first ``reload()`` or change.
    public convenience init(url: URL, origin: OverrideChangeOrigin = .program()) {
        self.init(url: url, faults: nil, origin: origin)
    }

    /// Creates a store whose file operations can be made to fail, for tests of disk-full and read-only behaviour,
    /// and whose writers wait at most `lockTimeout` for another process's lock. A store `confinedTo` a folder another
    /// program owns (an iOS Simulator app's data container) follows no symbolic link inside it, for the store file,
    /// its lock, its journal or any folder on the way, so every path it uses stays inside that folder.
    package init(
        url: URL, faults: StoreFaultInjector?, lockTimeout: Duration = .seconds(5),
        origin: OverrideChangeOrigin = .program(), confinedTo confinement: URL? = nil
    ) {
        self.url = url.hasDirectoryPath ? url : url.standardizedFileURL
        self.file = StoreFile(url: self.url, faults: faults, lockTimeout: lockTimeout, confinedTo: confinement)
        originState = Locked(origin)
    }

    /// Who this store's changes are recorded as made by in the history journal; the tools set `.menu` or `.cli`.
    public var origin: OverrideChangeOrigin {
        get { originState.withLock { $0 } }
        set { originState.withLock { $0 = newValue } }
    }

    /// Why the last change could not be recorded in the history journal (a full disk, a journal file others can
    /// write), or `nil`. The change itself was saved; the next change records it as made outside. A journal that
    /// could not be rotated after the change was recorded is said here too, with "the change was recorded".
    public var journalProblem: String? { state.withLock { $0.journalProblem } }

    /// The history journal's file: beside the store's target when the store is reached through a symbolic link.
    package var journalURL: URL {
        OverrideJournal(storePath: (try? file.target()) ?? url.path, faults: nil).url.resolvingSymlinksInPath()
    }

    deinit {
        stopWatching()
    }

    // MARK: Reading

    /// The override of `key` as last read from or written to the file (`nil` for a quarantined entry).
    public func entry(forKey key: String) -> OverrideEntry? {
        state.withLock { $0.document[key] }
    }

    /// The overrides as last read from or written to the file; quarantined entries are not among them.
    public var entries: [String: OverrideEntry] {
        state.withLock { state in
            if let entries = state.entries { return entries }
            let entries = state.document.entries
            state.entries = entries
            return entries
        }
    }

    /// What is wrong with single entries of the file as last read, sorted by key: quarantined entries (kept in the
    /// file, not applied) and unreadable metadata fields (the override applies). Empty for a clean file.
    ///
    /// ```swift
    /// let notApplied = store.problems.filter { !$0.isApplied }   // "3 overrides are not applied: ..."
    /// ```
    public var problems: [OverrideStoreProblem] { state.withLock { $0.document.problems } }

    /// The problem of the entry `key` in the file, if any (the first one for an entry with several).
    public func problem(forKey key: String) -> OverrideStoreProblem? {
        state.withLock { state in state.document.problems.first { $0.key == key } }
    }

    /// The last problem with the file, or `nil` when the last read or write succeeded.
    public var lastError: OverrideStoreError? { state.withLock { $0.lastError } }

    /// Why live reload is not working as it should (for example "inotify is unavailable ...; polling every
    /// 250 ms"), or `nil` when it works or is not started. Read it on each refresh; it changes from the watcher's
    /// thread.
    public var liveReloadProblem: String? { state.withLock { $0.watcher }?.problem }

    /// Reads the file if it changed since the last read or write, and notifies observers of changed keys; returns the
    /// problem this read found, if any (an unchanged file is not read again and returns `nil`).
    ///
    /// A missing file is an empty store. A file that is not this format is left where it is, nothing from it
    /// applies (the store becomes empty), and the returned error (also in ``lastError``) says why. Entries that
    /// cannot be used are quarantined and listed in ``problems``; the others apply. A file refused for its
    /// permissions, or a folder where the file should be, is left alone and the store keeps its previous contents.
    /// Reading takes no lock and never changes anything on disk.
    @discardableResult
    public func reload() -> OverrideStoreError? {
        do throws(StoreFile.Failure) {
            _ = try file.target()
        } catch {
            return refuse(OverrideStoreError(url: url, kind: error.kind, problem: error.problem))
        }
        for _ in 0..<8 {
            let seen = file.fingerprint()
            if seen == state.withLock({ $0.fingerprint }) { return nil }
            do throws(StoreFile.Failure) {
                let (document, fingerprint) = try parseCurrent()
                // A save (here or elsewhere) may have landed since the read: record only a file that is still the
                // current one, under the state lock that saves record under too, so an older file never wins.
                let outcome = state.withLock { state -> OverrideStoreChange?? in
                    guard file.fingerprint() == fingerprint else { return .none }
                    // A save recorded this very file meanwhile, with its notice if it moved a corrupt file aside:
                    // what it recorded stands (recording the file again would drop the notice).
                    if state.fingerprint == fingerprint { return .some(nil) }
                    return .some(
                        Self.record(
                            document, fingerprint: fingerprint, error: nil, changed: nil, listening: !observers.isEmpty,
                            in: &state))
                }
                guard let change = outcome else { continue }
                if let change { notify(change) }
                return nil
            } catch {
                let refused = OverrideStoreError(url: url, kind: error.kind, problem: error.problem)
                if refused.kind == .corrupt {
                    commit(OverrideDocument(), fingerprint: seen, error: refused)
                } else {
                    state.withLock { $0.lastError = refused }
                }
                return refused
            }
        }
        return nil
    }

    private func parseCurrent() throws(StoreFile.Failure) -> (OverrideDocument, FileFingerprint?) {
        guard let (bytes, fingerprint) = try file.load() else { return (OverrideDocument(), nil) }
        do {
            return (try OverrideDocument(parsing: bytes), fingerprint)
        } catch {
            throw StoreFile.Failure(kind: .corrupt, problem: error.description, mustNotReplace: error.isNewerFormat)
        }
    }

    /// Parses store bytes as ``reload()`` does and returns the number of overrides read (quarantined ones included),
    /// or `nil` for a file refused whole; for the benchmarks.
    package static func usableEntryCount(parsing bytes: [UInt8]) -> Int? {
        (try? OverrideDocument(parsing: bytes))?.count
    }

    // MARK: Writing

    /// Sets the override of `key` to the wire string `value`, recording the time, the server value it replaces
    /// and an optional note, and saves before returning.
    ///
    /// A key name, value, server value or note past ``OverrideStoreLimits`` is refused
    /// (``OverrideStoreError/Kind/limitExceeded``) before anything is written.
    public func set(
        _ value: String,
        forKey key: String,
        serverValue: String? = nil,
        note: String? = nil
    ) throws(OverrideStoreError) {
        let entry = OverrideEntry(value: value, setAt: Date(), serverValueWhenSet: serverValue, note: note)
        if let violation = OverrideStoreLimits.violation(key: key, entry: entry) {
            throw refuse(OverrideStoreError(url: url, kind: .limitExceeded, problem: violation + "; nothing was saved"))
        }
        try save(touching: [key], reason: OverrideChangeReason(.set)) { $0[key] = entry }
    }

    /// Removes the override of `key` (quarantined or not), if any, and saves.
    public func removeValue(forKey key: String) throws(OverrideStoreError) {
        try save(touching: [key], reason: OverrideChangeReason(.reset)) { $0[key] = nil }
    }

    /// Removes every override, quarantined ones included, and saves.
    public func removeAll() throws(OverrideStoreError) {
        try save(touching: nil, reason: OverrideChangeReason(.reset)) { $0.removeAllLines() }
    }

    /// Changes the overrides with `body` as one read-modify-write: under the store's file lock, starting from what
    /// is on disk now (including other processes' changes), saved atomically before returning.
    ///
    /// `body` sees the usable entries; quarantined entries stay unless `body` sets their key. On failure nothing
    /// changes, in memory or on disk, and the error (also in ``lastError``) says why.
    public func modify(_ body: (inout [String: OverrideEntry]) throws -> Void) throws(OverrideStoreError) {
        try modify(replacingAll: false, reason: .change, body)
    }

    /// ``modify(_:)``, recorded in the history journal with `reason`.
    public func modify(
        _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try modify(replacingAll: false, reason: reason, body)
    }

    /// ``modify(_:)``, optionally starting from no entries at all (quarantined ones included).
    package func modify(
        replacingAll: Bool,
        reason: OverrideChangeReason,
        _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try save(touching: nil, reason: reason) { document throws(StoreFile.Failure) in
            let before = document.entries
            var entries = replacingAll ? [:] : before
            try Self.run(body, on: &entries)
            if replacingAll { document.removeAllLines() }
            // The document holds `before` (its usable entries), or nothing when replacing all: only what differs from
            // that is written, so a change to one of 100,000 overrides touches one line.
            try Self.write(entries, over: replacingAll ? [:] : before, keys: entries.keys, into: &document)
            for key in before.keys where !replacingAll && entries[key] == nil {
                document[key] = nil
            }
        }
    }

    /// Changes only the overrides of `keys`: `body` sees their entries alone (quarantined ones stay unless `body`
    /// sets their key), and neither the other 100,000 entries nor a dictionary of them is built or compared.
    public func modify(
        keys: Set<String>, _ reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError) {
        try save(touching: keys, reason: reason) { document throws(StoreFile.Failure) in
            var before: [String: OverrideEntry] = [:]
            for key in keys { before[key] = document[key] }
            var entries = before
            try Self.run(body, on: &entries)
            try Self.write(entries, over: before, keys: keys, into: &document)
        }
    }

    /// Runs a change's `body`; what it throws refuses the change.
    private static func run(
        _ body: (inout [String: OverrideEntry]) throws -> Void, on entries: inout [String: OverrideEntry]
    ) throws(StoreFile.Failure) {
        do {
            try body(&entries)
        } catch {
            throw StoreFile.Failure(kind: .io, problem: "the change was refused: \(error)")
        }
    }

    /// Writes into `document` each of `keys` whose entry in `entries` differs from `before` (a missing entry removes
    /// the override); an entry past ``OverrideStoreLimits`` refuses the whole change.
    private static func write(
        _ entries: [String: OverrideEntry], over before: [String: OverrideEntry], keys: some Sequence<String>,
        into document: inout OverrideDocument
    ) throws(StoreFile.Failure) {
        for key in keys where before[key] != entries[key] {
            if let entry = entries[key], let violation = OverrideStoreLimits.violation(key: key, entry: entry) {
                throw StoreFile.Failure(kind: .limitExceeded, problem: violation + "; nothing was saved")
            }
            document[key] = entries[key]
        }
    }

    private func refuse(_ error: OverrideStoreError) -> OverrideStoreError {
        state.withLock { $0.lastError = error }
        return error
    }

    /// The one write path: lock, start from the file as it is now, apply `edit`, save if anything changed, then
    /// announce the change. `touching` names the keys `edit` can change (`nil`: compare everything).
    private func save(
        touching keys: Set<String>?,
        reason: OverrideChangeReason,
        _ edit: (inout OverrideDocument) throws(StoreFile.Failure) -> Void
    ) throws(OverrideStoreError) {
        let change: OverrideStoreChange?
        do {
            change = try file.withExclusiveLock { target throws(StoreFile.Failure) -> OverrideStoreChange? in
                file.removeStaleTemporaryFiles(beside: target)
                let journal = OverrideJournal(storePath: target, faults: file.faults)
                file.removeStaleTemporaryFiles(beside: journal.baseURL.path)
                var (document, fingerprint, refused, cached) = try currentUnderLock(target)
                let before = document
                // A change made outside (a hand edit) since the journal's last record is recorded before this one.
                let outside = outsideChange(journal, fingerprint: fingerprint, document: document)
                try edit(&document)
                let changed = keys.map { $0.filter { before.line(forKey: $0) != document.line(forKey: $0) } }
                if changed.map({ !$0.isEmpty }) ?? (document != before) || fingerprint == nil && !document.isEmpty {
                    try file.checkWritable(target)
                    var buffer = scratch.withLock { buffer in
                        defer { buffer = [] }
                        return buffer
                    }
                    document.encode(into: &buffer)
                    defer { scratch.withLock { [buffer] in $0 = buffer } }
                    if let violation = OverrideStoreLimits.fileSizeViolation(buffer.count) {
                        throw StoreFile.Failure(kind: .limitExceeded, problem: violation)
                    }
                    if let refused, refused.kind == .corrupt {
                        // Only now, with a new file ready to write, is the refused one moved aside.
                        let preserved = try file.moveAside(target)
                        let moved = OverrideStoreError(
                            url: url, kind: .corrupt, problem: refused.problem, preservedAt: preserved)
                        fingerprint = try file.replace(target, with: buffer)
                        record(
                            in: journal, saved: buffer, fingerprint: fingerprint, outside: outside,
                            change: (before, document, changed), reason: reason)
                        return state.withLock { state in
                            Self.record(
                                document, fingerprint: fingerprint, error: moved, changed: nil,
                                listening: !observers.isEmpty, in: &state)
                        }
                    }
                    fingerprint = try file.replace(target, with: buffer)
                    record(
                        in: journal, saved: buffer, fingerprint: fingerprint, outside: outside,
                        change: (before, document, changed), reason: reason)
                }
                // Nothing was written over a refused file (the change changed nothing): it stays, and stays refused.
                if let refused {
                    let error = OverrideStoreError(url: url, kind: refused.kind, problem: refused.problem)
                    return state.withLock { state in
                        Self.record(
                            document, fingerprint: file.fingerprint(), error: error, changed: nil,
                            listening: !observers.isEmpty, in: &state)
                    }
                }
                // The known keys are relative to `before`, which is the in-memory state only if it came from the cache.
                return state.withLock { state in
                    Self.record(
                        document, fingerprint: fingerprint, error: nil, changed: cached ? changed : nil,
                        listening: !observers.isEmpty, in: &state)
                }
            }
        } catch {
            throw refuse(
                OverrideStoreError(url: url, kind: error.kind, problem: error.problem, preservedAt: error.preservedAt))
        }
        if let change { notify(change) }
    }

    /// The document on disk, reusing the in-memory copy when the file has not changed since it was read. A file that
    /// is not this format is read again after a pause (a person's editor may be half-way through writing it); if
    /// it is still refused the change starts from empty and the caller moves the file aside before saving. A file in
    /// a newer format, or anything that is not a regular file, is never replaced.
    private func currentUnderLock(_ target: String) throws(StoreFile.Failure) -> (
        document: OverrideDocument, fingerprint: FileFingerprint?, refused: StoreFile.Failure?, cached: Bool
    ) {
        let current = file.fingerprint()
        // The in-memory copy stands for the file only if the file was read without being refused.
        let cached = state.withLock { state in
            state.fingerprint == current && current != nil
                && !(state.lastError?.kind == .corrupt && state.lastError?.preservedAt == nil)
                ? state.document : nil
        }
        if let cached { return (cached, current, nil, true) }
        var attempt = 0
        while true {
            do throws(StoreFile.Failure) {
                let (document, fingerprint) = try parseCurrent()
                return (document, fingerprint, nil, false)
            } catch  where error.kind == .corrupt && !error.mustNotReplace {
                let before = file.fingerprint()
                usleep(50_000)
                attempt += 1
                if file.fingerprint() != before, attempt < 20 { continue }
                if attempt < 2 { continue }
                return (OverrideDocument(), nil, error, false)
            } catch  where error.kind == .corrupt {
                throw StoreFile.Failure(
                    kind: .corrupt, problem: error.problem + "; nothing was saved", mustNotReplace: true)
            }
        }
    }

    private func commit(_ document: OverrideDocument, fingerprint: FileFingerprint?, error: OverrideStoreError?) {
        let change = state.withLock { state in
            Self.record(
                document, fingerprint: fingerprint, error: error, changed: nil, listening: !observers.isEmpty,
                in: &state)
        }
        if let change { notify(change) }
    }

    /// Stores the new state; returns the change to announce, if any key changed and anyone listens. `changed` is
    /// the set of changed keys when the caller knows it relative to the in-memory state; `nil` compares everything.
    private static func record(
        _ document: OverrideDocument,
        fingerprint: FileFingerprint?,
        error: OverrideStoreError?,
        changed known: Set<String>?,
        listening: Bool,
        in state: inout State
    ) -> OverrideStoreChange? {
        let previous = state.document
        let built = state.entries
        state.document = document
        // The changed keys, when known or wanted: by an observer, or to keep the entries built before (a reload of a
        // large store then reads again only the lines that changed, not every entry).
        let changed = known ?? (listening || built != nil ? previous.changedKeys(comparedTo: document) : nil)
        // The entries built before stay right but for the changed keys: patched, not rebuilt.
        if var entries = built, let changed {
            for key in changed { entries[key] = document[key] }
            state.entries = entries
        }
        state.fingerprint = fingerprint
        state.lastError = error
        guard listening, let changed, !changed.isEmpty else { return nil }
        return OverrideStoreChange(changes: Dictionary(uniqueKeysWithValues: changed.map { ($0, document[$0]) }))
    }

    // MARK: Observing

    /// Calls `handler` after every change of the overrides, whether made here or read from the file, with the new
    /// entries and the keys that changed.
    public func observe(_ handler: @escaping @Sendable (OverrideStoreChange) -> Void) -> ConfigurationObservation {
        observers.add(handler)
    }

    private func notify(_ change: OverrideStoreChange) {
        observers.notify(change)
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

extension FileOverrideStore: OverrideStore {
    /// The file's path.
    public var location: String { url.path }

    /// The store's file.
    public var localFileURL: URL? { url }
}
