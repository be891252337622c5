public import Foundation

/// A plan for importing an override profile into a store, with everything a person should see before it is
/// written: what changes, and which entries name unknown keys or hold values their keys reject.
///
/// ```swift
/// let plan = try store.planImport(from: URL(fileURLWithPath: "checkout-one-tap.json"), mode: .merge, catalog: catalog)
/// print(plan.summary)              // 3 added, 1 changed; 1 unknown key: ...
/// try store.apply(plan)
/// ```
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
    /// Profile keys no registered key has; they are imported and kept as orphans.
    public var unknownKeys: [String]
    /// Profile entries whose value the key rejects, with the reason; they are imported but not applied.
    public var invalidValues: [OverrideDiagnostic]

    /// Whether the profile has unknown keys or invalid values.
    public var hasProblems: Bool { !unknownKeys.isEmpty || !invalidValues.isEmpty }

    /// One paragraph for people, for example `2 added, 1 changed, 0 removed; 1 unknown key: x.y`.
    public var summary: String {
        var text = "\(added.count) added, \(changed.count) changed, \(removed.count) removed"
        if !unknownKeys.isEmpty {
            text +=
                "; \(unknownKeys.count) unknown key\(unknownKeys.count == 1 ? "" : "s"): "
                + unknownKeys.joined(separator: ", ")
        }
        for problem in invalidValues { text += "\n  \(problem)" }
        return text
    }
}

extension FileOverrideStore {
    /// Writes the current overrides to `destination` as a profile (the store's own format), atomically, mode 0600.
    public func export(to destination: URL) throws(OverrideStoreError) {
        do {
            _ = try StoreFile(url: destination.standardizedFileURL, faults: nil).replace(
                with: [UInt8](exportedProfile()))
        } catch {
            throw OverrideStoreError(url: destination, kind: error.kind, problem: error.problem)
        }
    }

    /// The current overrides as a profile document (the store's own format), for writing anywhere.
    public func exportedProfile() -> Data {
        reload()
        return Data(OverrideDocument(entries: entries).encoded())
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
        let incoming = try Self.readProfile(source)
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
            invalidValues: []
        )
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

    /// Applies a plan as one read-modify-write; in merge mode, overrides other processes set meanwhile are kept.
    public func apply(_ plan: OverrideImportPlan) throws(OverrideStoreError) {
        try modify { entries in
            if plan.mode == .replace { entries.removeAll() }
            for (key, entry) in plan.incoming { entries[key] = entry }
        }
    }

    /// A profile's entries: the store's format, or a plain map of key names to wire strings (entries without a
    /// time, so they are never reported as stale).
    static func readProfile(_ source: URL) throws(OverrideStoreError) -> [String: OverrideEntry] {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw OverrideStoreError(url: source, kind: .io, problem: "cannot read the file (missing or not readable)")
        }
        do {
            return try OverrideDocument(parsing: [UInt8](data)).entries
        } catch {
            throw OverrideStoreError(url: source, kind: .corrupt, problem: error.description)
        }
    }
}
