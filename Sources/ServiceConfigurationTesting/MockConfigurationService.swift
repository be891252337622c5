public import ServiceConfigurationCore

/// A `ConfigurationService` for tests that behaves exactly like production, plus setters.
///
/// The mock runs the same engine as `LiveConfigurationService`: the same priority (launch > overridden > server >
/// default), the same `decode`/`encode` (a value you assign is encoded and decoded back, so a broken codec fails
/// your test instead of hiding), and the same change notifications at the same moment. No module needs a
/// hand-written double.
///
/// ```swift
/// let service = MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self])
/// service.checkoutApplePayEnabled = true      // as if the server had sent the key's wire string for true
/// try service.setOverride(3, for: \.checkoutMaxCartItems)
/// #expect(CheckoutModel(configuration: service.scoped(to: ConfigurationScopes.Checkout.self)).canPay)
/// ```
///
/// Assigning through a property simulates the server sending that value (source `ValueOrigin/server`);
/// `setOverride(_:for:)` and `updateServerValues(_:)` work as on the live service. Create the mock with the
/// scopes your test uses so that string-level operations (`setOverride(rawValue:forKeyNamed:)`) know every key
/// before it is read.
///
/// A value whose encoding does not decode back is reported as a failure of the current test (an `Issue` under Swift
/// Testing, an `XCTFail` under XCTest) and the test goes on; the process never stops.
@dynamicMemberLookup
public final class MockConfigurationService: ConfigurationService, OverrideLayerBacked {
    private let engine: ConfigurationEngine
    /// The override layer every change goes through, as on the live service; its store is memory, with the same
    /// metadata a file store keeps. Every requirement of `ConfigurationService` is the live service's code, over it.
    package let overrideLayer: OverrideLayer

    /// Creates a mock with optional initial server values, overrides and catalog.
    ///
    /// Overrides apply in every build by default (a test that sets one means it, also under `swift test -c
    /// release`); pass `.never` to test what a release build of the app does, whatever the build the tests run in
    /// (`.debugBuildsOnly` follows that build: a debug `swift test` applies overrides).
    ///
    /// `launchOverrides` act as the live service's `LiveConfigurationService.Options.launchOverrides`: they win
    /// over `overrides` and over every override set later (launch > overridden > server > default), and each one the
    /// catalog refuses (an unknown key, a bad value; a scenario, which the mock's memory store does not keep) is
    /// recorded as a failure of the current test.
    public init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overridePolicy: ConfigurationOverridePolicy = .allBuilds,
        launchOverrides: ConfigurationLaunchOverrides = ConfigurationLaunchOverrides()
    ) {
        let store = Self.store(overrides)
        let launch = launchOverrides.checked(
            catalog: catalog, overridesApply: overridePolicy.appliesInThisBuild, store: store)
        for problem in launch.problems { TestFailure.record("MockConfigurationService: \(problem)", at: nil) }
        engine = ConfigurationEngine(
            serverValues: serverValues, launchOverrides: launch.applied, catalog: catalog,
            overridePolicy: overridePolicy)
        overrideLayer = OverrideLayer(engine: engine, store: store, watchMode: nil)
    }

    /// The memory store of every mock, holding `overrides` as a live service's store would.
    private static func store(_ overrides: [String: String]) -> InMemoryOverrideStore {
        InMemoryOverrideStore(entries: overrides.mapValues { OverrideEntry(value: $0, setAt: nil) })
    }

    /// The override layer of every mock: memory, written exactly as the live service writes a store.
    private static func layer(_ engine: ConfigurationEngine, _ overrides: [String: String]) -> OverrideLayer {
        OverrideLayer(engine: engine, store: store(overrides), watchMode: nil)
    }

    /// Creates a mock that knows every key of `scopes` from the start, so string-level operations can name them
    /// before they are read.
    ///
    /// Overrides apply in every build unless `overridePolicy` says otherwise (`.never`: what a release build does).
    /// Scopes that cannot form a catalog (two keys with one wire name, a key declared wrongly) are reported as a
    /// failure of the current test; the mock then knows the keys it could describe and the test goes on.
    public init(
        scopes: [any ConfigurationScope.Type],
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        overridePolicy: ConfigurationOverridePolicy = .allBuilds,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        engine = ConfigurationEngine(serverValues: serverValues, overridePolicy: overridePolicy)
        overrideLayer = Self.layer(engine, overrides)
        do {
            engine.register(try ConfigurationCatalog(scopes: scopes))
        } catch {
            TestFailure.record(
                "MockConfigurationService(scopes:): \(error)",
                at: .init(fileID: fileID, filePath: filePath, line: line, column: column))
            for scope in scopes {
                if let catalog = try? ConfigurationCatalog(scopes: [scope]) { engine.register(catalog) }
            }
        }
    }

    /// Reads a key as a property, or sets it as if the server had sent the value.
    ///
    /// Setting a value the key cannot encode, or whose encoding does not decode back, records a failure of the
    /// current test naming the key (the codec is broken) and goes on. Swift gives a property's setter no caller
    /// location, so under Swift Testing the failure is recorded at the running test's declaration (under XCTest, on
    /// the running test case); `setServerValue(_:for:)` records it at the line of the call.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationDynamicLookup, K>) -> K.Value {
        get { self[K.self] }
        set { send(newValue, for: K.self, at: nil) }
    }

    /// Simulates the server sending `value` for the key (other server values stay).
    ///
    /// A value the key cannot encode, or whose wire string the key does not decode, is recorded as a failure of the
    /// current test at the caller's line; a wire string that was produced is still sent, so reads then show what
    /// production would (the value rejected, the default used).
    public func setServerValue<K: ConfigurationKey>(
        _ value: K.Value,
        for key: K.Type,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        send(value, for: K.self, at: .init(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Sends `value` as the server would; a failure is recorded at `location` (`nil`: a property's setter, which
    /// knows no caller).
    private func send<K: ConfigurationKey>(_ value: K.Value, for key: K.Type, at location: TestFailure.Location?) {
        do {
            overrideLayer.setServerValue(try engine.wireString(for: value, of: K.self), forKeyNamed: K.name)
        } catch {
            let hint =
                location == nil
                ? " (set through a property, which Swift gives no caller line: setServerValue(_:for:) records it at "
                    + "the line of the call)" : ""
            TestFailure.record("MockConfigurationService: \(error)\(hint)", at: location)
            if case .invalidValue(_, let raw, _) = error { overrideLayer.setServerValue(raw, forKeyNamed: K.name) }
        }
    }

    /// Simulates the server sending `value` for the key at `keyPath`: `service.setServerValue(3, for: \.maxItems)`.
    public func setServerValue<K: ConfigurationKey>(
        _ value: K.Value,
        for keyPath: KeyPath<ConfigurationDynamicLookup, K>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        setServerValue(value, for: K.self, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Simulates the server sending a raw wire string for the key named `name`, valid or not (`nil` removes it), so
    /// tests can check how code copes with a value that fails to decode.
    public func setServerValue(rawValue: String?, forKeyNamed name: String) {
        overrideLayer.setServerValue(rawValue, forKeyNamed: name)
    }

    /// Simulates the server sending a raw wire string, valid or not, for the key at `keyPath`.
    public func setServerValue<K: ConfigurationKey>(
        rawValue: String?,
        for keyPath: KeyPath<ConfigurationDynamicLookup, K>
    ) {
        overrideLayer.setServerValue(rawValue, forKeyNamed: K.name)
    }
}
