/// Typed access to dynamically delivered configuration, with debug overrides.
///
/// Read any registered key as a property; the type comes from the key's declaration:
///
/// ```swift
/// func useIt(service: some ConfigurationService) -> Bool {
///     let quality: ImageTransferQuality = service.imageMedium
///     return service.albumLikeEnabled && quality.maxDimension > 0
/// }
/// ```
///
/// Values come from three sources with a fixed priority: ``ValueSource/overridden`` > ``ValueSource/server`` >
/// ``ValueSource/default``. A candidate that fails to decode falls through to the next source and is reported in
/// ``resolution(of:)``, never silently. The service has reference semantics: every read gives the latest value.
/// For several related keys read at one instant, take a snapshot with ``values()``.
///
/// Implementations in this package: ``LiveConfigurationService`` and `MockConfigurationService` (in
/// `ServiceConfigurationTesting`); both share one engine, so tests behave like production.
@dynamicMemberLookup
public protocol ConfigurationService: AnyObject, Sendable {
    /// The key's effective value.
    subscript<K: ConfigurationKey>(key: K.Type) -> K.Value { get }

    /// The key's effective value, its source, and every rejected candidate.
    func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value>

    /// The type-erased resolution of the key named `name` (values as canonical wire strings), or `nil` when the
    /// service knows no key by that name (keys become known from a catalog or by being read).
    func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>?

    /// A consistent snapshot of every value at this instant.
    func values() -> ConfigurationValues

    /// The server layer: the wire strings from the last sync.
    var serverValues: [String: String] { get }

    /// The override layer: wire strings set by people or tests.
    var overrides: [String: String] { get }

    /// Replaces the server layer with a new sync; overrides are kept.
    func updateServerValues(_ values: [String: String])

    /// Overrides the key with `value`; throws when the value cannot be encoded or does not decode back.
    func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws

    /// Overrides the key named `name` with a wire string; `note` replaces the override's note (`nil` keeps it, an
    /// empty note removes it). Throws ``ConfigurationError/unknownKey(_:suggestions:)`` or
    /// ``ConfigurationError/invalidValue(key:value:reason:)`` (naming the key and the reason) and changes nothing.
    func setOverride(rawValue: String, forKeyNamed name: String, note: String?) throws

    /// Removes the override of the key named `name`, if any.
    func removeOverride(forKeyNamed name: String) throws

    /// Removes every override.
    func removeAllOverrides() throws

    /// Sets (a wire string) or removes (`nil`) the overrides of several keys as one change; with an override store
    /// they are saved in one write.
    ///
    /// With `validate`, every value is checked by its key first (unknown keys are refused) and nothing changes if
    /// one fails. Without it, values are written as given: for tools restoring overrides that were stored before
    /// (an undo), which may name keys this program does not know or hold values their keys reject.
    func updateOverrides(_ changes: [String: String?], validate: Bool) throws

    /// Puts stored entries back exactly as given (`nil` removes), with their metadata: when set, the note, the
    /// server value then, unknown fields. No validation: for tools restoring what was stored before (an undo), which
    /// may name keys this program does not know or hold values their keys reject.
    func restoreOverrides(_ entries: [String: OverrideEntry?]) throws

    /// Overrides the key named `name` with a validated wire string that stops applying by `expiry` (`nil`: a new
    /// value never expires, an unchanged value keeps its rule; a given rule on an unchanged value restarts from now).
    /// `note` replaces the override's note (`nil` keeps it, an empty note removes it).
    func setOverride(rawValue: String, forKeyNamed name: String, note: String?, expiry: OverrideExpiry?) throws

    /// Puts stored entries back exactly as given (`nil` removes), recorded in the store's history with `reason` (an
    /// undo, an import). With `expecting`, each named key must hold exactly that entry when the change is saved,
    /// else nothing changes and ``OverrideChangeConflict`` names the keys that changed meanwhile.
    func restoreOverrides(
        _ entries: [String: OverrideEntry?], reason: OverrideChangeReason, expecting: [String: OverrideEntry?]?
    ) throws

    /// The stored overrides that have expired (see ``OverrideExpiry``), with why: they are kept in the store, shown
    /// as expired and not applied, until ``pruneExpiredOverrides()`` removes them.
    var expiredOverrides: [String: OverrideExpiration] { get }

    /// Removes the stored overrides that have expired, as one change; returns the removed entries by key.
    @discardableResult
    func pruneExpiredOverrides() throws -> [String: OverrideEntry]

    /// Where the overrides live, with each override's metadata and the store's problems.
    var overrideStore: any OverrideStore { get }

    /// Whether overrides apply in this build (see ``ConfigurationOverridePolicy``).
    var overridesApply: Bool { get }

    /// Makes the keys of `catalog` known to string-level operations and change detection.
    func register(_ catalog: ConfigurationCatalog)

    /// Calls `handler` with the names of the keys whose effective value changed, after each change (the state is
    /// updated and the lock released first), and `finish` once when the service goes away. Keep the returned
    /// observation alive as long as you want the calls.
    func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation
}

extension ConfigurationService {
    /// Reads a key as a property: `service.albumLikeEnabled`.
    @inlinable
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationDynamicLookup, K>) -> K.Value {
        self[K.self]
    }

    /// Calls `handler` with the names of the keys whose effective value changed, after each change.
    ///
    /// ```swift
    /// let observation = service.observe { names in print("changed:", names.sorted()) }
    /// ```
    public func observe(_ handler: @escaping @Sendable (Set<String>) -> Void) -> ConfigurationObservation {
        observe(handler, finish: nil)
    }

    /// Overrides the key named `name` with a wire string, keeping the override's note.
    public func setOverride(rawValue: String, forKeyNamed name: String) throws {
        try setOverride(rawValue: rawValue, forKeyNamed: name, note: nil)
    }

    /// Sets or removes the overrides of several keys, each value validated by its key; unknown keys are refused.
    public func updateOverrides(_ changes: [String: String?]) throws {
        try updateOverrides(changes, validate: true)
    }

    /// Removes the key's override, if any.
    public func removeOverride<K: ConfigurationKey>(for key: K.Type) throws {
        try removeOverride(forKeyNamed: K.name)
    }

    /// Whether the A/B key's current variant counts as enabled.
    public func isEnabled<K: ConfigurationKey>(_ key: K.Type) -> Bool where K.Value: ConfigurationExperimentVariant {
        self[K.self].isEnabled
    }

    /// A snapshot restricted to one scope: `service.values(in: ConfigurationScopes.Photos.self).albumLikeEnabled`.
    public func values<Scope: ConfigurationScope>(in scope: Scope.Type) -> ScopedConfigurationValues<Scope> {
        ScopedConfigurationValues(values())
    }
}
