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
    public var source: ValueOrigin
    /// The server's wire string, if the server sent one.
    public var serverValue: String?
    /// The launch override of this run (see ``ConfigurationLaunchOverrides``), which wins over the stored override;
    /// `nil` for a run started without one, and in tools that read only the store.
    public var launchValue: String?
    /// The stored override with its metadata, when one applies, is stored with a value the key rejects, or has
    /// expired.
    public var override: OverrideEntry? {
        get { stored?.entry }
        set { stored = StoredOverride.make(newValue, expiration) }
    }
    /// Why the stored override has expired (it is then not applied), or `nil`.
    public var expiration: OverrideExpiryReason? {
        get { stored?.expiration }
        set { stored = StoredOverride.make(override, newValue) }
    }
    /// The override and its expiry, `nil` when there is neither (most keys): one word a key instead of 136 bytes
    /// (a menu holds a status for every key; at 100,000 keys that is 13 MB).
    private var stored: StoredOverride?
    /// Whether the override equals the server value (so it no longer changes anything, and will stop following the
    /// server when the server changes); never for an override set to expire when the server value changes.
    public var isRedundant: Bool
    /// Candidates the key cannot decode: the override (not applied) and the server value, which stays reported
    /// even while an override hides it.
    public var rejections: [ConfigurationRejection]
    /// What the store reports about this key's entry: kept but not applied, or metadata it could not read.
    public var storeProblems: [OverrideStoreProblem]
    /// Whether the key is in no catalog the tool knows (an orphaned override).
    public var isOrphan: Bool

    /// The status of a catalog key from its layers: the applied override (with the store's entry for it, if any),
    /// the server value, and what the store reports about the key.
    ///
    /// With an `expiration`, the entry is the stored override that has expired: it is reported, not applied. A
    /// `launchValue` (the run's launch override) wins over the entry.
    public init(
        _ descriptor: ConfigurationKeyDescriptor,
        serverValue: String?,
        override entry: OverrideEntry?,
        storeProblems: [OverrideStoreProblem] = [],
        expiration: OverrideExpiryReason? = nil,
        launchValue: String? = nil
    ) {
        let resolution = descriptor.resolve(
            RawLayers(launch: launchValue, override: expiration == nil ? entry?.value : nil, server: serverValue))
        var rejections = resolution.rejections
        if resolution.source == .overridden || resolution.source == .launch, let serverValue {
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
        self.launchValue = launchValue
        stored = StoredOverride.make(entry, expiration)
        self.rejections = rejections
        self.storeProblems = storeProblems
        isOrphan = false
        isRedundant =
            resolution.source == .overridden && entry?.expiry.untilServerChanges != true
            && serverValue.flatMap { try? descriptor.validate($0) } == resolution.value
    }

    /// The status of a key with nothing but its default: no server value, override, launch value or problem. Equal
    /// to `ConfigurationKeyStatus(descriptor, serverValue: nil, override: nil)`, made without resolving anything.
    package init(defaultOf descriptor: ConfigurationKeyDescriptor) {
        name = descriptor.name
        value = descriptor.defaultValueString
        source = .default
        serverValue = nil
        launchValue = nil
        stored = nil
        isRedundant = false
        rejections = []
        storeProblems = []
        isOrphan = false
    }

    /// Whether this is the status ``init(defaultOf:)`` makes for `descriptor` (so a tool that keeps many statuses
    /// can keep only the others and make this one again when asked).
    package func isDefault(of descriptor: ConfigurationKeyDescriptor) -> Bool {
        source == .default && stored == nil && serverValue == nil && launchValue == nil && !isRedundant && !isOrphan
            && rejections.isEmpty && storeProblems.isEmpty && value == descriptor.defaultValueString
            && descriptor.hasName(name)
    }

    /// The status of an override whose key no catalog here has: kept, shown, never validated.
    public init(
        orphan name: String, override entry: OverrideEntry?, serverValue: String?,
        storeProblems: [OverrideStoreProblem] = [], expiration: OverrideExpiryReason? = nil
    ) {
        self.name = name
        value = expiration == nil ? entry?.value : serverValue
        source = expiration == nil ? .overridden : serverValue == nil ? .default : .server
        self.serverValue = serverValue
        stored = StoredOverride.make(entry, expiration)
        rejections = []
        self.storeProblems = storeProblems
        isOrphan = true
        isRedundant =
            expiration == nil && entry != nil && entry?.value == serverValue
            && entry?.expiry.untilServerChanges != true
    }

    /// The stored override has expired and is not applied (until it is removed: `config-menu prune`).
    public var isExpired: Bool { expiration != nil }

    /// The server sent a value the key rejects (reported even while an override wins).
    public var isServerValueRejected: Bool { rejections.contains { $0.source == .server } }

    /// A stored override is not applied: the key rejects its value, or the store quarantined the entry.
    public var isOverrideNotApplied: Bool {
        rejections.contains { $0.source == .overridden } || isQuarantined
    }

    /// The store kept this key's entry without applying it (its value or key could not be used).
    public var isQuarantined: Bool { storeProblems.contains { !$0.isApplied } }

    /// The server value changed since the override was set (see ``OverrideEntry/isStale(currentServerValue:)``).
    /// An expired override is reported as expired rather than stale.
    public var isStale: Bool { !isExpired && (override?.isStale(currentServerValue: serverValue) ?? false) }

    /// Worth a look: a rejected value, an override not applied or expired, a stale override, an orphan or a store
    /// problem.
    public var hasProblem: Bool {
        isServerValueRejected || isOverrideNotApplied || isExpired || isStale || isOrphan || !storeProblems.isEmpty
    }
}

/// A status's stored override and its expiry, compared and hashed by value.
private final class StoredOverride: Sendable, Hashable {
    let entry: OverrideEntry?
    let expiration: OverrideExpiryReason?

    private init(entry: OverrideEntry?, expiration: OverrideExpiryReason?) {
        self.entry = entry
        self.expiration = expiration
    }

    /// The box for `entry` and `expiration`; `nil` when both are, so equal statuses hold equal values.
    static func make(_ entry: OverrideEntry?, _ expiration: OverrideExpiryReason?) -> StoredOverride? {
        entry == nil && expiration == nil ? nil : StoredOverride(entry: entry, expiration: expiration)
    }

    static func == (lhs: StoredOverride, rhs: StoredOverride) -> Bool {
        lhs.entry == rhs.entry && lhs.expiration == rhs.expiration
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(entry)
        hasher.combine(expiration)
    }
}

/// A service's layers read at one moment (server values, applied overrides, the store's entries and problems), so
/// tools report many keys consistently.
///
/// ```swift
/// let snapshot = ConfigurationLayersReading(service: service)
/// let statuses = catalog.keys.map(snapshot.status(of:))
/// let orphans = snapshot.orphans { catalog.descriptor(named: $0) != nil }
/// ```
public struct ConfigurationLayersReading: Sendable {
    private let server: [String: String]
    private let launch: [String: String]
    private let applied: [String: String]
    private let entries: [String: OverrideEntry]
    private let problems: [String: [OverrideStoreProblem]]
    private let expired: [String: OverrideExpiryReason]

    /// Reads `service` and its override store now.
    public init(service: any ConfigurationService) {
        server = service.serverValues
        launch = service.launchOverrides
        applied = service.overrides
        entries = service.overrideStore.entries
        problems = Dictionary(grouping: service.overrideStore.problems, by: \.key)
        expired = service.expiredOverrides
    }

    /// The override as applied, with the store's metadata for it (a bare entry when the store has none), or the
    /// stored entry that has expired.
    private func entry(_ name: String) -> OverrideEntry? {
        if expired[name] != nil, let stored = entries[name] { return stored }
        return applied[name].map { value in
            entries[name].flatMap { $0.value == value ? $0 : nil } ?? OverrideEntry(value: value, setAt: nil)
        }
    }

    /// Whether no key has anything but its default here: no server value, launch value, override, stored entry,
    /// problem or expiry. Every catalog key's status is then ``ConfigurationKeyStatus/init(defaultOf:)``'s.
    package var isEmpty: Bool {
        server.isEmpty && launch.isEmpty && applied.isEmpty && entries.isEmpty && problems.isEmpty && expired.isEmpty
    }

    /// The status of a catalog key.
    public func status(of descriptor: ConfigurationKeyDescriptor) -> ConfigurationKeyStatus {
        let name = descriptor.name
        return ConfigurationKeyStatus(
            descriptor, serverValue: server[name], override: entry(name), storeProblems: problems[name] ?? [],
            expiration: entries[name] == nil ? nil : expired[name], launchValue: launch[name])
    }

    /// Overrides, entries kept without being applied and expired overrides whose key `isKnown` says no catalog has;
    /// sorted by name.
    public func orphans(isKnown: (String) -> Bool) -> [ConfigurationKeyStatus] {
        Set(applied.keys).union(problems.keys).union(expired.keys.filter { entries[$0] != nil })
            .filter { !isKnown($0) }.sorted().map { name in
                ConfigurationKeyStatus(
                    orphan: name, override: entry(name), serverValue: server[name],
                    storeProblems: problems[name] ?? [], expiration: entries[name] == nil ? nil : expired[name])
            }
    }
}

/// The former name of ``ConfigurationLayersReading``, renamed so "snapshot" keeps one meaning: the server values a sync persists (`ServerValuesSnapshot`).
@available(*, deprecated, renamed: "ConfigurationLayersReading")
public typealias ConfigurationStatusSnapshot = ConfigurationLayersReading
