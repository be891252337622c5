public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plan for importing an override profile into a store, with everything a person should see before it is
/// written: what changes, and which entries name unknown keys or hold values their keys reject.
///
/// ```swift
/// let plan = try store.planImport(from: URL(fileURLWithPath: "checkout-one-tap.json"), mode: .merge, catalog: catalog)
/// print(plan.summary)              // 3 added, 1 changed, 2 unchanged; 4 other overrides kept; 1 unknown key: ...
/// try store.apply(plan)
/// ```
///
/// The counts are of the profile's entries: added (a key without an override), changed (another value), unchanged
/// (the same value); a merge keeps every other override (``kept``), a replace removes them (``removed``).
public struct OverrideImportPlan: Sendable, Hashable {
    /// How a profile combines with the overrides already in the store.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Profile entries are added or replace existing ones; other overrides stay.
        case merge
        /// The store ends up holding exactly the profile's entries.
        case replace
    }

    /// The profile file.
    public var source: URL
    /// How the profile combines with the store.
    public var mode: Mode
    /// The profile's entries.
    public var incoming: [String: OverrideEntry]
    /// Keys the import adds.
    public var added: [String]
    /// Keys whose value the import changes.
    public var changed: [String]
    /// Keys the import removes (``Mode/replace`` only).
    public var removed: [String]
    /// Profile keys whose override already has the profile's value.
    public var unchanged: [String] = []
    /// Overrides the profile does not name, which a merge keeps as they are (``Mode/merge`` only).
    public var kept: [String] = []
    /// What ``OverrideStore/apply(_:)`` changes in the store's overrides, key by key, with the import's counts.
    public var diff = OverrideDiff(importing: [:], into: [:], mode: .merge)
    /// Profile keys no registered key has; they are imported and kept as orphans.
    public var unknownKeys: [String]
    /// Profile entries whose value the key rejects, with the reason; they are imported but not applied.
    public var invalidValues: [OverrideDiagnostic]
    /// Profile entries that cannot be used at all (`"value": 1`, no value, ...) or whose metadata cannot be read;
    /// they are not imported.
    public var entryProblems: [OverrideStoreProblem] = []

    /// Whether the profile has unknown keys, invalid values or unusable entries.
    public var hasProblems: Bool { !unknownKeys.isEmpty || !invalidValues.isEmpty || !entryProblems.isEmpty }

    /// The counts: `2 added, 1 changed, 3 unchanged` and, in a merge, `; 4 other overrides kept`, or in a replace
    /// `, 1 removed` (the ``diff``'s summary).
    public var counts: String { diff.summary }

    /// One paragraph for people: the ``counts``, then the problems, for example `2 added, 1 changed, 0 unchanged;
    /// 1 unknown key: x.y`.
    public var summary: String {
        var text = counts
        if !unknownKeys.isEmpty {
            text +=
                "; \(unknownKeys.count) unknown key\(unknownKeys.count == 1 ? "" : "s"): "
                + unknownKeys.joined(separator: ", ")
        }
        for problem in invalidValues { text += "\n  \(problem)" }
        for problem in entryProblems { text += "\n  \(problem.key): \(problem.reason); not imported" }
        return text
    }
}

extension OverrideStore {
    /// Writes the current overrides to `destination` as a profile (the file store's format), from any store.
    ///
    /// A regular file (or a symbolic link to one: the target) is replaced atomically in its own folder, mode 0600; a
    /// device, FIFO or standard stream (`/dev/stdout`) is written through; a folder that does not exist is refused.
    /// A store that cannot be read is refused rather than exported as empty.
    public func export(to destination: URL) throws(OverrideStoreError) {
        let bytes = try exportedProfileBytes()
        do {
            try StoreFile.export(bytes, to: destination.path + (destination.hasDirectoryPath ? "/" : ""))
        } catch {
            throw OverrideStoreError(url: destination, kind: error.kind, problem: error.problem)
        }
    }

    /// The current overrides as a profile document (the file store's format, unknown fields and quarantined
    /// entries included), for writing anywhere. Empty of overrides when the store cannot be read; see
    /// `exportedProfileBytes()`.
    public func exportedProfile() -> Data {
        var document = (try? profileDocument()) ?? OverrideDocument()
        return Data(document.encodedBytes())
    }

    /// The current overrides as a profile document, or the error that stops the store from being read.
    package func exportedProfileBytes() throws(OverrideStoreError) -> [UInt8] {
        var document = try profileDocument()
        return document.encodedBytes()
    }

    /// The store's contents, read now: each kind of store keeps more than its usable entries.
    private func profileDocument() throws(OverrideStoreError) -> OverrideDocument {
        if let source = self as? any OverrideProfileSource { return try source.profileDocument() }
        if let error = reload() { throw error }
        return OverrideDocument(entries: entries)
    }

    /// Reads a profile and compares it with the store, without writing anything.
    ///
    /// A profile is a file in the store's format, or a plain JSON object of key names to wire strings
    /// (`{"function.album.like.enabled": "Y"}`) for hand-written scenarios. Problems with the file itself throw an
    /// error naming it; unknown keys and invalid values are reported in the plan.
    public func planImport(
        from source: URL,
        mode: OverrideImportPlan.Mode,
        catalog: ConfigurationCatalog?
    ) throws(OverrideStoreError) -> OverrideImportPlan {
        let (incoming, entryProblems) = try FileOverrideStore.readProfile(source)
        reload()
        let current = entries
        let valueChanged = { (key: String) in current[key]?.value != incoming[key]?.value }
        var plan = OverrideImportPlan(
            source: source,
            mode: mode,
            incoming: incoming,
            added: incoming.keys.filter { current[$0] == nil }.sorted(),
            changed: incoming.keys.filter { current[$0] != nil && valueChanged($0) }.sorted(),
            removed: mode == .replace ? current.keys.filter { incoming[$0] == nil }.sorted() : [],
            unknownKeys: [],
            invalidValues: [],
            entryProblems: entryProblems
        )
        plan.unchanged = incoming.keys.filter { current[$0] != nil && !valueChanged($0) }.sorted()
        if mode == .merge { plan.kept = current.keys.filter { incoming[$0] == nil }.sorted() }
        plan.diff = OverrideDiff(importing: incoming, into: current, mode: mode)
        if let catalog {
            for diagnostic in OverrideDiagnostic.diagnose(incoming, catalog: catalog, serverValues: [:]) {
                switch diagnostic {
                case .orphan(let key): plan.unknownKeys.append(key)
                case .invalid: plan.invalidValues.append(diagnostic)
                case .stale: break
                }
            }
        }
        return plan
    }

    /// Checks a plan as ``apply(_:)`` does, without writing: for a file store, whether the file it would write stays
    /// within ``OverrideStoreLimits/maximumFileSize`` (two large profiles merged); throws the error ``apply(_:)``
    /// would throw. (An etcd store's own request limit is known only to etcd.)
    package func checkApplicable(_ plan: OverrideImportPlan) throws(OverrideStoreError) {
        guard let file = self as? FileOverrideStore else { return }
        var document = try file.profileDocument()
        if plan.mode == .replace { document.removeAllLines() }
        for (key, entry) in plan.incoming { document[key] = entry }
        if let violation = OverrideStoreLimits.fileSizeViolation(document.encodedBytes().count) {
            throw OverrideStoreError(url: file.url, kind: .limitExceeded, problem: violation)
        }
    }

    /// Applies a plan as one read-modify-write; in merge mode, overrides other processes set meanwhile are kept.
    ///
    /// A result past ``OverrideStoreLimits`` (two large profiles merged) is refused before anything is written.
    public func apply(_ plan: OverrideImportPlan) throws(OverrideStoreError) {
        let replace = plan.mode == .replace
        let reason = OverrideChangeReason(.importProfile, detail: plan.source.lastPathComponent)
        let body = { (entries: inout [String: OverrideEntry]) in
            if replace { entries.removeAll() }
            for (key, entry) in plan.incoming { entries[key] = entry }
        }
        if let source = self as? any OverrideProfileSource {
            try source.modify(replacingAll: replace, reason: reason, body)
        } else {
            try modify(reason, body)
        }
    }
}

/// A store that keeps more than its usable entries (quarantined ones, unknown members): it exports them too, and a
/// replacing import removes them.
package protocol OverrideProfileSource {
    /// Everything the store holds, read now, or the error that stops it from being read.
    func profileDocument() throws(OverrideStoreError) -> OverrideDocument
    /// A change from the entries as they are, or (`replacingAll`) from nothing at all, quarantined entries included.
    func modify(
        replacingAll: Bool, reason: OverrideChangeReason, _ body: (inout [String: OverrideEntry]) throws -> Void
    ) throws(OverrideStoreError)
}

extension FileOverrideStore: OverrideProfileSource {
    package func profileDocument() throws(OverrideStoreError) -> OverrideDocument {
        reload()
        let (document, error) = state.withLock { ($0.document, $0.lastError) }
        if let error, error.preservedAt == nil { throw error }
        return document
    }
}

extension FileOverrideStore {

    /// A profile's entries: the store's format, or a plain map of key names to wire strings (entries without a
    /// time, so they are never reported as stale).
    package static func readProfile(_ source: URL) throws(OverrideStoreError) -> (
        [String: OverrideEntry], [OverrideStoreProblem]
    ) {
        var info = stat()
        if stat(source.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw OverrideStoreError(url: source, kind: .io, problem: "this is a folder, not a file")
        }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw OverrideStoreError(url: source, kind: .io, problem: "cannot read the file (missing or not readable)")
        }
        do {
            let document = try OverrideDocument(parsing: [UInt8](data))
            return (document.entries, document.problems)
        } catch {
            throw OverrideStoreError(url: source, kind: .corrupt, problem: error.description)
        }
    }

    /// `entries` as a profile document in the store's format.
    package static func profileBytes(_ entries: [String: OverrideEntry]) -> [UInt8] {
        OverrideDocument(entries: entries).encoded()
    }

    /// Writes a new profile file (mode 0600, atomically); an existing file is never replaced.
    package static func writeNewProfile(_ bytes: [UInt8], to destination: URL) throws(OverrideStoreError) {
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw OverrideStoreError(
                url: destination, kind: .io, problem: "a file of this name exists; choose another name")
        }
        do {
            try StoreFile.export(bytes, to: destination.path)
        } catch {
            throw OverrideStoreError(url: destination, kind: error.kind, problem: error.problem)
        }
    }
}
