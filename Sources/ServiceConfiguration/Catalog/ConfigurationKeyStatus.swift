/// Everything a tool shows about one key at one moment: the value and where it comes from, the server value, the
/// stored override with its metadata, and every problem. The debug menu and the command-line tool both report
/// from it, so they always agree.
///
/// ```swift
/// let status = ConfigurationKeyStatus(descriptor, serverValue: "y", override: OverrideEntry(value: "Y"))
/// status.value        // "Y"
/// status.source       // .overridden
/// status.rejections   // [server value rejected: expected Y or N, got "y"]: still a problem under the override
/// ```
public struct ConfigurationKeyStatus: Sendable, Hashable {
    /// The key's wire name.
    public var name: String
    /// The effective value's canonical wire string (`nil` only for a default with no wire form, or an orphan).
    public var value: String?
    /// Where the value came from.
    public var source: ValueSource
    /// The server's wire string, if the server sent one.
    public var serverValue: String?
    /// The stored override with its metadata, when one applies or is stored with a value the key rejects.
    public var override: OverrideEntry?
    /// Candidates the key cannot decode: the override (not applied) and the server value, which stays reported
    /// even while an override hides it.
    public var rejections: [ConfigurationRejection]
    /// What the store reports about this key's entry: kept but not applied, or metadata it could not read.
    public var storeProblem: OverrideStoreProblem?
    /// Whether the key is in no catalog the tool knows (an orphaned override).
    public var isOrphan: Bool

    /// The status of a catalog key from its layers: the applied override (with the store's entry for it, if any),
    /// the server value, and what the store reports about the key.
    public init(
        _ descriptor: ConfigurationKeyDescriptor,
        serverValue: String?,
        override entry: OverrideEntry?,
        storeProblem: OverrideStoreProblem? = nil
    ) {
        let resolution = descriptor.resolve(override: entry?.value, server: serverValue)
        var rejections = resolution.rejections
        if resolution.source == .overridden, let serverValue {
            do {
                _ = try descriptor.validate(serverValue)
            } catch {
                rejections.append(ConfigurationRejection(source: .server, rawValue: serverValue, reason: "\(error)"))
            }
        }
        name = descriptor.name
        value = resolution.value
        source = resolution.source
        self.serverValue = serverValue
        override = entry
        self.rejections = rejections
        self.storeProblem = storeProblem
        isOrphan = false
    }

    /// The status of an override whose key no catalog here has: kept, shown, never validated.
    public init(orphan name: String, override entry: OverrideEntry?, serverValue: String?, storeProblem: OverrideStoreProblem?) {
        self.name = name
        value = entry?.value
        source = .overridden
        self.serverValue = serverValue
        override = entry
        rejections = []
        self.storeProblem = storeProblem
        isOrphan = true
    }

    /// The server sent a value the key rejects (reported even while an override wins).
    public var isServerValueRejected: Bool { rejections.contains { $0.source == .server } }

    /// A stored override is not applied: the key rejects its value, or the store quarantined the entry.
    public var isOverrideNotApplied: Bool {
        rejections.contains { $0.source == .overridden } || storeProblem.map { !$0.isApplied } ?? false
    }

    /// The server value changed since the override was set (see ``OverrideEntry/isStale(currentServerValue:)``).
    public var isStale: Bool { override?.isStale(currentServerValue: serverValue) ?? false }

    /// Worth a look: a rejected value, an override not applied, a stale override, an orphan or a store problem.
    public var hasProblem: Bool {
        isServerValueRejected || isOverrideNotApplied || isStale || isOrphan || storeProblem != nil
    }
}
