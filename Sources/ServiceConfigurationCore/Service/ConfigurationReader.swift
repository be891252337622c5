/// Reading and observing typed configuration: the role a feature module needs, without the means to change it.
///
/// A module that only reads takes a `ConfigurationReader` (or keeps a ``ScopedConfiguration``, one scope's view of
/// it). Every ``ConfigurationService`` is one, so the app passes its ``LiveConfigurationService`` and a test passes
/// `MockConfigurationService` (in `ServiceConfigurationTesting`) unchanged:
///
/// ```swift
/// func likeButtonShown(configuration: some ConfigurationReader) -> Bool {
///     let quality: ImageTransferQuality = configuration.imageMedium
///     return configuration.albumLikeEnabled && quality.maxDimension > 0
/// }
/// ```
///
/// Read any registered key as a property; the type comes from the key's declaration. Values come from four sources
/// with a fixed priority: ``ValueOrigin/launch`` > ``ValueOrigin/overridden`` > ``ValueOrigin/server`` >
/// ``ValueOrigin/default`` (launch overrides exist only in a run started with them). A candidate
/// that fails to decode falls through to the next source and is reported in ``resolution(of:)``, never silently.
/// Reads give the latest value; for several related keys read at one instant, take a snapshot with ``values()``.
///
/// The requirements are the reading role: values, resolutions, snapshots, the layers as they apply, and change
/// notifications. Overriding, feeding server values and registering catalogs are ``ConfigurationService``'s.
@dynamicMemberLookup
public protocol ConfigurationReader: AnyObject, Sendable {
    /// Reading: the key's effective value.
    subscript<K: ConfigurationKey>(key: K.Type) -> K.Value { get }

    /// Reading: the key's effective value, its source, and every rejected candidate.
    func resolution<K: ConfigurationKey>(of key: K.Type) -> ConfigurationResolution<K.Value>

    /// Reading: the type-erased resolution of the key named `name` (values as canonical wire strings), or `nil` when
    /// the service knows no key by that name (keys become known from a catalog or by being read).
    func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>?

    /// Reading: a consistent snapshot of every value at this instant.
    func values() -> ConfigurationValues

    /// Reading: the server layer, the wire strings from the last sync.
    var serverValues: [String: String] { get }

    /// Reading: the override layer as it applies, wire strings set by people or tests (empty where overrides do not
    /// apply in this build). Changing it is ``ConfigurationService``'s role.
    var overrides: [String: String] { get }

    /// Reading: whether overrides apply in this build (see ``ConfigurationOverridePolicy``).
    var overridesApply: Bool { get }

    /// Reading: the overrides this run was launched with, as they apply (see ``ConfigurationLaunchOverrides``); they
    /// win over ``overrides``. Empty by default.
    var launchOverrides: [String: String] { get }

    /// Observing: calls `handler` with the names of the keys whose effective value changed, after each change (the
    /// state is updated and the lock released first), and `finish` once when the service goes away. Keep the
    /// returned observation alive as long as you want the calls.
    func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)?
    ) -> ConfigurationObservation
}

extension ConfigurationReader {
    /// No launch overrides: a reader that does not take them.
    public var launchOverrides: [String: String] { [:] }

    /// Reads a key as a property: `configuration.albumLikeEnabled`.
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

    /// Whether the A/B key's current variant counts as enabled.
    public func isEnabled<K: ConfigurationKey>(_ key: K.Type) -> Bool where K.Value: ConfigurationExperimentVariant {
        self[K.self].isEnabled
    }

    /// A snapshot restricted to one scope: `service.values(in: ConfigurationScopes.Photos.self).albumLikeEnabled`.
    public func values<Scope: ConfigurationScope>(in scope: Scope.Type) -> ScopedConfigurationValues<Scope> {
        ScopedConfigurationValues(values())
    }
}
