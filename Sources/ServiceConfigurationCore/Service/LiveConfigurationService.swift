import Foundation

/// The production ``ConfigurationService``: server values from your sync code, overrides from people and tools.
///
/// ```swift
/// let store = FileOverrideStore(url: FileOverrideStore.defaultURL(appName: "demo"))
/// let service = LiveConfigurationService(serverValues: lastSync, catalog: catalog, overrideStore: store)
/// service.updateServerValues(newSync)   // after each server sync; overrides stay
/// if service.albumLikeEnabled { ... }
/// ```
///
/// With an override store, overrides survive restarts, every change is saved before it takes effect, and changes
/// other processes (the debug menu, `config-menu set`) make to the file reach this service within a second and
/// fire its change notifications. Without one, overrides live in memory (an ``InMemoryOverrideStore``): either
/// way every override change is one change of ``ConfigurationService/overrideStore``, which the service then applies.
///
/// `LiveConfigurationService` is `Sendable` without `@unchecked`: its state lives in a `ConfigurationEngine`
/// whose mutable state sits in one `Mutex`. Decoding runs outside the lock, so a key's custom `decode` may read
/// other keys of the same service. A warm read takes no shared lock.
///
/// Overrides apply in debug builds only unless `overridePolicy` is ``ConfigurationOverridePolicy/allBuilds`` (in
/// none with ``ConfigurationOverridePolicy/never``; see ``ConfigurationOverridePolicy``); builds without the
/// `DebugOverrides` package trait have no override layer at all. Where overrides do not apply, the store is never read and setting an override throws
/// ``ConfigurationError/overridesDisabled``.
///
/// Overrides given at launch (``Options/launchOverrides``: `-configOverride KEY=VALUE`, `CONFIG_OVERRIDES_JSON`,
/// `CONFIG_SCENARIO`, for UI tests) hold for this run only and win over stored overrides: launch > overridden >
/// server > default (see ``ConfigurationLaunchOverrides``).
///
/// The service records which keys the program reads (``readCoverage()``), warns once about each key read whose scope
/// is missing from the catalog (``Options/onWarning``), and, with a file store, publishes that beside the store for
/// the debug tools (``programReportURL``). See ``Options``.
///
/// It implements ``ConfigurationService`` with the same code as `MockConfigurationService`, over the engine and the
/// override layer they share: the mock cannot drift from production.
public final class LiveConfigurationService: ConfigurationService, OverrideLayerBacked {
    @usableFromInline let engine: ConfigurationEngine
    /// The override layer every change goes through.
    package let overrideLayer: OverrideLayer
    /// Follows this service's reads, if its store subscribed an observer (the file store's program report
    /// publisher; see ``ConfigurationReadObserverProvider``).
    package let readObserver: (any ConfigurationReadObserver)?
    /// The launch overrides given in ``Options/launchOverrides`` that this service did not apply, and why (an
    /// unknown key, a value its key refuses, a scenario that cannot be read, overrides off in this build); each was
    /// also handed to ``Options/onWarning`` when the service was created.
    public let launchOverrideProblems: [ConfigurationLaunchOverrideProblem]

    /// Creates a service with initial server values and in-memory overrides.
    ///
    /// Pass the program's `catalog` so string-level operations (the debug menu, the command-line tool) can validate
    /// every key and change notifications compare decoded values; keys not in the catalog become known when read
    /// (and, once the service has a catalog, are reported as unregistered).
    public convenience init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overridePolicy: ConfigurationOverridePolicy = .debugBuildsOnly,
        options: Options = Options(),
        programVersion: ProgramVersion? = nil
    ) {
        self.init(
            serverValues: serverValues, catalog: catalog,
            overrideStore: InMemoryOverrideStore(entries: overrides.mapValues { OverrideEntry(value: $0, setAt: nil) }),
            watchMode: nil, overridePolicy: overridePolicy, options: options, programVersion: programVersion)
    }

    /// Creates a service whose overrides live in `overrideStore` (a ``FileOverrideStore`` shared with the debug
    /// tools, for example).
    ///
    /// The store is read now; a problem with it (see ``OverrideStore/lastError``) leaves the service on server and
    /// default values. With a `watchMode`, changes other processes make to the store are picked up live; pass `nil`
    /// to read it only now and on your own ``OverrideStore/reload()`` calls.
    ///
    /// With a store kept in a local file (``OverrideStore/localFileURL``), the service publishes its program report
    /// in a `programs` folder beside it from its first read on (see ``programReportURL``), unless overrides do not
    /// apply in this build or ``Options/publishesProgramReport`` is off.
    ///
    /// `programVersion` is the version this program runs as: overrides set "until version 14.2" stop applying from
    /// that version on (without it, that rule is never met). Overrides set for a while stop applying when their time
    /// comes, without a restart: the service's observers fire then, on a background thread.
    public convenience init(
        serverValues: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overrideStore: any OverrideStore,
        watchMode: OverrideStoreWatchMode? = .automatic,
        overridePolicy: ConfigurationOverridePolicy = .debugBuildsOnly,
        options: Options = Options(),
        programVersion: ProgramVersion? = nil
    ) {
        self.init(
            serverValues: serverValues, catalog: catalog, overrideStore: overrideStore, watchMode: watchMode,
            overridePolicy: overridePolicy, options: options, programVersion: programVersion,
            clock: SystemOverrideClock())
    }

    /// A service whose expiry times are judged by `clock` (tests move it by hand).
    package init(
        serverValues: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overrideStore: any OverrideStore,
        watchMode: OverrideStoreWatchMode?,
        overridePolicy: ConfigurationOverridePolicy,
        options: Options = Options(),
        programVersion: ProgramVersion?,
        clock: any OverrideClock
    ) {
        let launch = options.launchOverrides.checked(
            catalog: catalog, overridesApply: overridePolicy.appliesInThisBuild, store: overrideStore)
        let engine = ConfigurationEngine(
            serverValues: serverValues, launchOverrides: launch.applied, catalog: catalog,
            overridePolicy: overridePolicy, recordsReads: options.recordsReads, onWarning: options.onWarning)
        self.engine = engine
        launchOverrideProblems = launch.problems
        for problem in launch.problems { options.onWarning?(.launchOverrideNotApplied(problem)) }
        if let provider = overrideStore as? any ConfigurationReadObserverProvider,
            let observer = provider.makeReadObserver(engine: engine, options: options, programVersion: programVersion)
        {
            engine.setChangeHook { [weak observer] change in observer?.engineChanged(change) }
            readObserver = observer
        } else {
            readObserver = nil
        }
        overrideLayer = OverrideLayer(
            engine: engine, store: overrideStore, watchMode: watchMode, clock: clock, programVersion: programVersion)
    }

    deinit {
        readObserver?.end()
    }

    /// The version this program runs as, for overrides set "until version" (`nil`: not given).
    public var programVersion: ProgramVersion? { overrideLayer.programVersion }

    /// The key's effective value (the shared implementation's read, inlinable here for warm reads).
    @inlinable
    public subscript<K: ConfigurationKey>(key: K.Type) -> K.Value {
        engine.value(of: K.self)
    }
}
