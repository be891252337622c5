/// Something a person should know about a stored override.
public enum OverrideDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// No registered key has this name (the key was removed, or the file comes from another build). The entry is
    /// kept, never dropped.
    case orphan(key: String)
    /// The key cannot decode the stored string; the entry is kept but not applied.
    case invalid(key: String, value: String, reason: String)
    /// The server value changed since the override was set, so the override now hides a different server value.
    case stale(key: String, serverValueWhenSet: String?, currentServerValue: String?)

    /// The key the diagnostic is about.
    public var key: String {
        switch self {
        case .orphan(let key), .invalid(let key, _, _), .stale(let key, _, _): key
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .orphan(let key):
            return "\(key): orphaned override (no such key in this program); kept in the store"
        case .invalid(let key, _, let reason):
            return "\(key): stored override not applied: \(reason)"
        case .stale(let key, let then, let now):
            let show = { (value: String?) in value.map { ConfigurationDecodingError.quoted($0) } ?? "nothing" }
            return "\(key): stale override: the server sent \(show(then)) when it was set and sends \(show(now)) now"
        }
    }

    /// The diagnostics of `entries` against a catalog and the current server values, sorted by key.
    public static func diagnose(
        _ entries: [String: OverrideEntry],
        catalog: ConfigurationCatalog,
        serverValues: [String: String]
    ) -> [OverrideDiagnostic] {
        var result: [OverrideDiagnostic] = []
        for key in entries.keys.sorted() {
            let entry = entries[key]!
            guard let descriptor = catalog.descriptor(named: key) else {
                result.append(.orphan(key: key))
                continue
            }
            do {
                _ = try descriptor.validate(entry.value)
            } catch {
                result.append(.invalid(key: key, value: entry.value, reason: error.description))
            }
            if entry.isStale(currentServerValue: serverValues[key]) {
                result.append(
                    .stale(
                        key: key, serverValueWhenSet: entry.serverValueWhenSet, currentServerValue: serverValues[key]))
            }
        }
        return result
    }
}

extension OverrideStore {
    /// The stored overrides' orphans, invalid values and stale entries for a program's catalog and server values.
    public func diagnostics(catalog: ConfigurationCatalog, serverValues: [String: String]) -> [OverrideDiagnostic] {
        OverrideDiagnostic.diagnose(entries, catalog: catalog, serverValues: serverValues)
    }
}
