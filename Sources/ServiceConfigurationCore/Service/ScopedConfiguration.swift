/// A live view of one scope's keys: what a feature module stores as its configuration dependency.
///
/// It reads through the service on every access (the latest value, as the service does), and it only reaches the
/// keys of `Scope`: `checkout.profileBioMaxLength` does not compile. Tests hand the module a view of the mock:
///
/// ```swift
/// public struct CheckoutModel {
///     let configuration: ScopedConfiguration<ConfigurationScopes.Checkout>
///     public var canPay: Bool { configuration.checkoutApplePayEnabled && configuration.checkoutMaxCartItems > 0 }
/// }
///
/// let model = CheckoutModel(configuration: service.scoped(to: ConfigurationScopes.Checkout.self))   // the app
/// let mock = MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self])                  // a test
/// let tested = CheckoutModel(configuration: mock.scoped(to: ConfigurationScopes.Checkout.self))
/// ```
///
/// For several related keys read at one instant, take ``values()``, a ``ScopedConfigurationValues`` snapshot.
@dynamicMemberLookup
public struct ScopedConfiguration<Scope: ConfigurationScope>: Sendable {
    private let service: any ConfigurationReader
    /// The engine of the live service or the mock, read directly: a read through the `any ConfigurationReader`
    /// existential is a generic call the compiler cannot specialise (about ten times slower).
    @usableFromInline let engine: ConfigurationEngine?

    /// A view of `service` (any ``ConfigurationReader``: a ``ConfigurationService``, the mock) restricted to the keys
    /// of `Scope`.
    public init(_ service: any ConfigurationReader, scope: Scope.Type = Scope.self) {
        self.service = service
        self.engine = (service as? any ConfigurationEngineBacked)?.configurationEngine
    }

    /// Reads one of the scope's keys as a property.
    @inlinable
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<Scope, K>) -> K.Value {
        if let engine { return engine.value(of: K.self) }
        return readThroughService(K.self)
    }

    /// The read for a service of another kind than this package's.
    @usableFromInline
    func readThroughService<K: ConfigurationKey>(_ key: K.Type) -> K.Value {
        service[K.self]
    }

    /// The resolution of one of the scope's keys: value, source, rejected candidates.
    public func resolution<K: ConfigurationKey>(of keyPath: KeyPath<Scope, K>) -> ConfigurationResolution<K.Value> {
        service.resolution(of: K.self)
    }

    /// The key's new value each time its effective value changes.
    public func changes<K: ConfigurationKey>(of keyPath: KeyPath<Scope, K>) -> AsyncStream<K.Value> {
        service.changes(of: K.self)
    }

    /// Whether the A/B key's current variant counts as enabled.
    public func isEnabled<K: ConfigurationKey>(_ keyPath: KeyPath<Scope, K>) -> Bool
    where K.Value: ConfigurationExperimentVariant {
        service[K.self].isEnabled
    }

    /// A snapshot of the scope's values at this instant.
    public func values() -> ScopedConfigurationValues<Scope> {
        ScopedConfigurationValues(service.values())
    }

    /// Reached only by a name the scope does not declare; never available.
    @available(
        *, unavailable,
        message:
            "this scope has no key property of that name: check the spelling, or read a key of another scope through a view of that scope"
    )
    public subscript(dynamicMember name: String) -> NoConfigurationKeyWithThisName {
        preconditionFailure("unreachable: this subscript is unavailable")
    }
}

extension ConfigurationReader {
    /// A live view of one scope's keys, for a feature module to keep as its dependency.
    ///
    /// ```swift
    /// let checkout = service.scoped(to: ConfigurationScopes.Checkout.self)
    /// checkout.checkoutMaxCartItems      // the latest value, every time
    /// ```
    public func scoped<Scope: ConfigurationScope>(to scope: Scope.Type) -> ScopedConfiguration<Scope> {
        ScopedConfiguration(self)
    }
}

/// A service whose reads are its ``ConfigurationEngine``'s (the live service and the mock), so a
/// ``ScopedConfiguration`` can read the engine without an existential call.
package protocol ConfigurationEngineBacked: ConfigurationReader {
    /// The engine every read of this service goes to.
    var configurationEngine: ConfigurationEngine { get }
}
