/// Typed access to dynamically delivered configuration, with debug overrides: a ``ConfigurationReader`` that can also
/// be changed.
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
/// The service has two roles. Reading and observing (values, resolutions, snapshots, change notifications) are
/// ``ConfigurationReader``'s requirements: a module that only reads takes `some ConfigurationReader` or a
/// ``ScopedConfiguration``, and is handed this service as it is. Changing the configuration is this protocol's:
/// overriding keys (set, remove, restore, expire and prune overrides, through ``overrideStore``), feeding server
/// values (``updateServerValues(_:)``) and registering catalogs (``register(_:)``), for the app's composition root,
/// the debug tools, the sync and tests.
///
/// Values come from four sources with a fixed priority: ``ValueOrigin/launch`` > ``ValueOrigin/overridden`` >
/// ``ValueOrigin/server`` > ``ValueOrigin/default``. A candidate that fails to decode falls through to the next
/// source and is reported in ``ConfigurationReader/resolution(of:)``, never silently. The service has reference semantics: every read gives the
/// latest value. For several related keys read at one instant, take a snapshot with ``ConfigurationReader/values()``.
///
/// Implementations in this package: ``LiveConfigurationService`` and `MockConfigurationService` (in
/// `ServiceConfigurationTesting`); both share one engine and one override layer, so tests behave like production.
@dynamicMemberLookup
public protocol ConfigurationService: ConfigurationReader {
    /// Feeding: replaces the server layer with a new sync; overrides are kept.
    func updateServerValues(_ values: [String: String])

    /// Registering: makes the keys of `catalog` known to string-level operations and change detection.
    func register(_ catalog: ConfigurationCatalog)

    /// Overriding: sets the key's override to `value`; throws when the value cannot be encoded or does not decode
    /// back.
    func setOverride<K: ConfigurationKey>(_ value: K.Value, for key: K.Type) throws

    /// Overriding: sets the override of the key named `name` to a wire string; `note` replaces the override's note
    /// (`nil` keeps it, an empty note removes it). Throws ``ConfigurationError/unknownKey(_:suggestions:)`` or
    /// ``ConfigurationError/invalidValue(key:value:reason:)`` (naming the key and the reason) and changes nothing.
    func setOverride(rawValue: String, forKeyNamed name: String, note: String?) throws

    /// Overriding: sets the override of the key named `name` to a validated wire string that stops applying by
    /// `expiry` (`nil`: a new value never expires, an unchanged value keeps its rule; a given rule on an unchanged
    /// value restarts from now). `note` replaces the override's note (`nil` keeps it, an empty note removes it).
    func setOverride(rawValue: String, forKeyNamed name: String, note: String?, expiry: OverrideExpiry?) throws

    /// Overriding: removes the override of the key named `name`, if any.
    func removeOverride(forKeyNamed name: String) throws

    /// Overriding: removes every override.
    func removeAllOverrides() throws

    /// Overriding: sets (a wire string) or removes (`nil`) the overrides of several keys as one change; with an
    /// override store they are saved in one write.
    ///
    /// With `validate`, every value is checked by its key first (unknown keys are refused) and nothing changes if
    /// one fails. Without it, values are written as given: for tools restoring overrides that were stored before
    /// (an undo), which may name keys this program does not know or hold values their keys reject.
    func updateOverrides(_ changes: [String: String?], validate: Bool) throws

    /// Overriding: puts stored entries back exactly as given (`nil` removes), with their metadata: when set, the
    /// note, the server value then, unknown fields. No validation: for tools restoring what was stored before (an
    /// undo), which may name keys this program does not know or hold values their keys reject.
    func restoreOverrides(_ entries: [String: OverrideEntry?]) throws

    /// Overriding: puts stored entries back exactly as given (`nil` removes), recorded in the store's history with
    /// `reason` (an undo, an import). With `expecting`, each named key must hold exactly that entry when the change
    /// is saved, else nothing changes and ``OverrideChangeConflict`` names the keys that changed meanwhile.
    func restoreOverrides(
        _ entries: [String: OverrideEntry?], reason: OverrideChangeReason, expecting: [String: OverrideEntry?]?
    ) throws

    /// Overriding: the stored overrides that have expired (see ``OverrideExpiry``), with why: they are kept in the
    /// store, shown as expired and not applied, until ``pruneExpiredOverrides()`` removes them.
    var expiredOverrides: [String: OverrideExpiryReason] { get }

    /// Overriding: removes the stored overrides that have expired, as one change; returns the removed entries by
    /// key.
    @discardableResult
    func pruneExpiredOverrides() throws -> [String: OverrideEntry]

    /// Overriding: where the overrides live, with each override's metadata and the store's problems (its
    /// ``OverrideStore/modify(_:_:)`` changes them).
    var overrideStore: any OverrideStore { get }
}

extension ConfigurationService {
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
}
