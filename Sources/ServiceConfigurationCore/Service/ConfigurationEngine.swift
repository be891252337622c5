public import Synchronization

/// The state and the resolution logic that every ``ConfigurationService`` in this package shares.
///
/// ``LiveConfigurationService`` and `MockConfigurationService` both delegate to an engine, so they cannot drift
/// apart: the same priority (launch > overridden > server > default), the same decoding, the same notification moments.
///
/// All mutable state lives in one `Mutex` (wrapped by ``Locked`` so ThreadSanitizer can see it). Decoding (which
/// runs key code that may read this same service) always happens outside it. Reads go through a striped cache (see
/// ``StripedMutex``) validated by a generation counter: a warm read loads the generation, locks the calling
/// thread's own stripe (a `Mutex` no other thread is likely to touch, so two uncontended atomic operations and no
/// shared cache line) and probes a small table. No lock on the read path spins: a thread that finds a stripe taken
/// sleeps and lends its priority to the owner.
@usableFromInline
package final class ConfigurationEngine: Sendable {
    struct DecodedEntry: Sendable {
        var layers: RawLayers
        var box: any AnyObject & Sendable
    }

    struct State: Sendable {
        var server: [String: String]
        var overrides: [String: String]
        /// The overrides this run was launched with (see ``ConfigurationLaunchOverrides``): set once, at creation.
        var launch: [String: String] = [:]
        var generation: UInt64 = 1
        var decoded: [ObjectIdentifier: DecodedEntry] = [:]
        /// The first catalog registered: its keys are found through its own index (at 100,000 keys a copy of it
        /// here took 30–50 ms and megabytes before a menu's first frame).
        private(set) var firstCatalog: ConfigurationCatalog?
        /// Descriptors of keys of catalogs registered after the first (a later catalog's key wins, as it replaces
        /// an earlier one's) and of keys learned from typed reads and writes.
        private(set) var descriptors: [String: ConfigurationKeyDescriptor] = [:]
        /// The catalogs registered so far, kept alive: an identifier of a freed catalog could be reused by the next
        /// one, which would then be taken for a catalog registered before.
        var registeredCatalogs: [ObjectIdentifier: ConfigurationCatalog.Identity] = [:]
        /// Names whose descriptors were learned from a typed read or write, not from a catalog.
        var learnedNames: Set<String> = []
        var coverage = ReadCoverageState()
        /// Whether any key was read yet.
        var hasBeenRead = false
        /// Called (outside the lock) after reads are recorded and after the layers change: the program report.
        var changeHook: (@Sendable (CoverageChange) -> Void)?

        /// The descriptor of the key named `name`: the last registered catalog's that has it, else the one learned.
        func descriptor(named name: String) -> ConfigurationKeyDescriptor? {
            descriptors[name] ?? firstCatalog?.descriptor(named: name)
        }

        /// Every known key name (for suggestions).
        var knownNames: [String] {
            Array(descriptors.keys) + (firstCatalog?.keys.map(\.name).filter { descriptors[$0] == nil } ?? [])
        }

        /// Makes a key learned from a typed read or write known, unless a key of that name is.
        mutating func learn(_ descriptor: ConfigurationKeyDescriptor) {
            guard self.descriptor(named: descriptor.name) == nil else { return }
            descriptors[descriptor.name] = descriptor
            learnedNames.insert(descriptor.name)
        }

        func layers(for name: String) -> RawLayers {
            RawLayers(launch: launch[name], override: overrides[name], server: server[name])
        }

        /// Whether reading the key named `name` counts as reading an unregistered key: the service has a catalog
        /// and the name is not in it.
        func isUnregistered(_ name: String) -> Bool {
            !registeredCatalogs.isEmpty && (descriptor(named: name) == nil || learnedNames.contains(name))
        }

        /// Adds a catalog's keys; returns `false` when this catalog was registered before.
        mutating func add(_ catalog: ConfigurationCatalog) -> Bool {
            let id = ObjectIdentifier(catalog.identity)
            guard registeredCatalogs[id] == nil else { return false }
            registeredCatalogs[id] = catalog.identity
            let isFirst = firstCatalog == nil
            if isFirst {
                firstCatalog = catalog
            } else {
                descriptors.reserveCapacity(descriptors.count + catalog.keyCount)
                for scope in catalog.scopes {
                    for descriptor in scope.keys { descriptors[descriptor.name] = descriptor }
                }
            }
            if !learnedNames.isEmpty || !coverage.unregistered.isEmpty {
                // A learned key the catalog has is the catalog's now.
                for name in learnedNames where catalog.descriptor(named: name) != nil {
                    learnedNames.remove(name)
                    if isFirst { descriptors[name] = nil }
                }
                coverage.unregistered = coverage.unregistered.filter { catalog.descriptor(named: $0.key) == nil }
            }
            return true
        }
    }

    /// Whether this build has the override layer (the `DebugOverrides` package trait, on by default).
    package static var overridesCompiledIn: Bool {
        #if DebugOverrides
            true
        #else
            false
        #endif
    }

    /// Whether this engine applies overrides: the layer is compiled in and the policy allows it in this build.
    package let overridesEnabled: Bool
    let state: Locked<State>
    /// Who hears about changed keys.
    private let observers = ObserverRegistry<Set<String>>()
    @usableFromInline let generation = Atomic<UInt64>(1)
    @usableFromInline let readCache: StripedMutex<ReadCacheTable>
    /// Whether reads are recorded with their times (see ``readCoverage()``).
    let recordsReads: Bool
    /// Receives each warning once, outside the lock.
    let onWarning: (@Sendable (ConfigurationWarning) -> Void)?

    /// Creates an engine with initial server values and overrides, knowing the keys of `catalog`; overrides apply
    /// only where `overridePolicy` allows them in this build.
    ///
    /// `launchOverrides` are this run's launch overrides (already validated: see ``ConfigurationLaunchOverrides``):
    /// they win over every stored override for the engine's whole life, where overrides apply.
    ///
    /// `recordsReads` keeps, per key, when it was first read (recorded on the slow path only: the first read after
    /// start or after a change). Unregistered keys are detected either way and reported to `onWarning`.
    package init(
        serverValues: [String: String] = [:],
        overrides: [String: String] = [:],
        launchOverrides: [String: String] = [:],
        catalog: ConfigurationCatalog? = nil,
        overridePolicy: ConfigurationOverridePolicy = .debugBuildsOnly,
        recordsReads: Bool = true,
        onWarning: (@Sendable (ConfigurationWarning) -> Void)? = nil,
        readCacheStripes: Int = 64
    ) {
        readCache = StripedMutex(stripeCount: readCacheStripes) { ReadCacheTable() }
        self.recordsReads = recordsReads
        self.onWarning = onWarning
        overridesEnabled = overridePolicy.appliesInThisBuild
        var initial = State(server: serverValues, overrides: overridesEnabled ? overrides : [:])
        initial.launch = overridesEnabled ? launchOverrides : [:]
        if let catalog { _ = initial.add(catalog) }
        state = Locked(initial)
    }

    deinit {
        observers.finishAll()
    }

    // MARK: Reading

    /// The key's effective value. A warm read is a generation check and a probe of this thread's cache stripe.
    @inlinable
    package func value<K: ConfigurationKey>(of key: K.Type) -> K.Value {
        let current = generation.load(ordering: .acquiring)
        let identity = ReadCacheTable.identity(of: K.self)
        if let value = readCache.withLock({ $0.value(for: identity, generation: current, as: K.Value.self) }) {
            return value
        }
        return resolveAndCache(K.self).value
    }

    /// The key's resolution, cached exactly as long as the key's wire strings stay the same.
    ///
    /// This is the slow path of every read: the first read of a key on a thread's stripe, and the first after any
    /// change. It records the read (see ``readCoverage()``) in the same lock acquisition that reads the layers, so
    /// recording costs the warm path nothing.
    @usableFromInline
    package func resolveAndCache<K: ConfigurationKey>(_ key: K.Type) -> ConfigurationResolution<K.Value> {
        let id = ObjectIdentifier(K.self)
        let (layers, validAt, cached, descriptor, event) = state.withLock {
            state -> (RawLayers, UInt64, DecodedEntry?, ConfigurationKeyDescriptor?, ReadEvent) in
            let layers = state.layers(for: K.name)
            let event = record(K.self, layers: layers, in: &state)
            return (layers, state.generation, state.decoded[id], state.descriptor(named: K.name), event)
        }
        let known = descriptor != nil
        let box: ResolutionBox<K.Value>
        if let cached, cached.layers == layers, let typed = cached.box as? ResolutionBox<K.Value> {
            box = typed
        } else {
            box = ResolutionBox(layers.resolve(K.self, range: K.numberRange(describedBy: descriptor)))
            state.withLock { state in
                if state.layers(for: K.name) == layers {
                    state.decoded[id] = DecodedEntry(layers: layers, box: box)
                }
            }
            if !known { learn(K.self) }
            noteRejectedOverride(of: K.name, in: box.resolution.rejections)
        }
        let identity = ReadCacheTable.identity(of: K.self)
        readCache.withLock { $0.store(box, for: identity, generation: validAt) }
        finish(K.self, event)
        return box.resolution
    }

    /// Makes a key type known, so string-level operations can validate it. The descriptor (which runs the key's
    /// own code for its title and control) is built outside the lock.
    private func learn<K: ConfigurationKey>(_ key: K.Type) {
        let descriptor = ConfigurationKeyDescriptor(K.self)
        state.withLock { $0.learn(descriptor) }
    }

    /// The type-erased resolution of the key named `name`, or `nil` when no registered key has that name.
    package func resolution(forKeyNamed name: String) -> ConfigurationResolution<String?>? {
        let (descriptor, layers) = state.withLock {
            state -> (ConfigurationKeyDescriptor?, RawLayers) in
            (state.descriptor(named: name), state.layers(for: name))
        }
        return descriptor?.resolve(layers)
    }

    /// A consistent snapshot of every value at this instant.
    package func currentValues() -> ConfigurationValues {
        state.withLock {
            ConfigurationValues(
                server: $0.server, overrides: $0.overrides, launch: $0.launch, decoded: $0.decoded, engine: self)
        }
    }

    package var serverValues: [String: String] { state.withLock { $0.server } }
    package var overrides: [String: String] { state.withLock { $0.overrides } }
    /// The launch overrides this engine applies (empty where overrides do not apply).
    package var launchOverrides: [String: String] { state.withLock { $0.launch } }

    /// Makes the keys of `catalog` known, so string-level operations can validate them and change notifications
    /// compare decoded values rather than raw strings.
    ///
    /// Keys read before (recorded while ``recordsReads``) that this catalog and earlier ones lack are reported as
    /// unregistered now.
    package func register(_ catalog: ConfigurationCatalog) {
        let unregistered = state.withLock { state -> [any ConfigurationKey.Type] in
            guard state.add(catalog) else { return [] }
            return state.coverage.reads.compactMap { name, record in
                state.isUnregistered(name) && state.coverage.unregistered[name] == nil ? record.keyType : nil
            }
        }
        for keyType in unregistered { noteUnregistered(keyType) }
    }

    // MARK: Validation

    /// The wire string for `value`, checked to decode back within the key's bounds.
    package func wireString<K: ConfigurationKey>(for value: K.Value, of key: K.Type) throws(ConfigurationError)
        -> String
    {
        let raw: String?
        do {
            raw = try K.encode(value)
        } catch {
            throw .unencodableValue(key: K.name, reason: "\(error)")
        }
        guard let raw else { throw .unencodableValue(key: K.name, reason: "encode(_:) returned nil") }
        let descriptor = state.withLock { $0.descriptor(named: K.name) }
        do {
            _ = try K.decodeWithinBounds(from: raw, range: K.numberRange(describedBy: descriptor))
        } catch {
            throw .invalidValue(key: K.name, value: raw, reason: "\(error)")
        }
        if descriptor == nil { learn(K.self) }
        return raw
    }

    /// Checks `raw` against the key named `name`; throws ``ConfigurationError/unknownKey(_:suggestions:)`` or
    /// ``ConfigurationError/invalidValue(key:value:reason:)``.
    package func validate(_ raw: String, forKeyNamed name: String) throws(ConfigurationError) {
        let (descriptor, hasCatalog) = state.withLock { ($0.descriptor(named: name), !$0.registeredCatalogs.isEmpty) }
        guard let descriptor else {
            guard hasCatalog else { throw .unregisteredKey(name) }
            let known = state.withLock { $0.knownNames }
            throw .unknownKey(name, suggestions: NameSuggestions.nearest(to: name, in: known))
        }
        do {
            _ = try descriptor.validate(raw)
        } catch {
            throw .invalidValue(key: name, value: raw, reason: error.description)
        }
    }

    // MARK: Writing

    /// Replaces the server layer; overrides are untouched.
    package func replaceServerValues(_ values: [String: String]) {
        update(touching: nil) { $0.server = values }
    }

    /// Sets (or, with `nil`, removes) the server value of the key named `name`, as if one key of a sync changed.
    package func setServerValue(_ raw: String?, forKeyNamed name: String) {
        update(touching: [name]) { $0.server[name] = raw }
    }

    /// Sets (or, with `nil`, removes) the override of the key named `name`, without validation.
    package func setOverride(_ raw: String?, forKeyNamed name: String) {
        guard overridesEnabled else { return }
        update(touching: [name]) { $0.overrides[name] = raw }
    }

    /// Replaces the whole override layer.
    package func replaceOverrides(_ overrides: [String: String]) {
        guard overridesEnabled else { return }
        update(touching: nil) { $0.overrides = overrides }
    }

    /// Sets (a string) or removes (`nil`) the overrides of the given keys, for example the keys an override store
    /// reports as changed; other overrides stay.
    package func updateOverrides(_ changes: [String: String?]) {
        guard overridesEnabled, !changes.isEmpty else { return }
        update(touching: Set(changes.keys)) { state in
            for (key, value) in changes { state.overrides[key] = value }
        }
    }

    /// Changes the server layer and the applied overrides together, in one step under the lock (so observers hear
    /// of an override that expires with the server change that expired it once): `mutate` gets both layers.
    /// `touching` names the keys it can change (`nil`: any). Overrides stay empty where they do not apply.
    package func updateLayers(
        touching names: Set<String>?, _ mutate: (inout [String: String], inout [String: String]) -> Void
    ) {
        update(touching: names) { state in
            mutate(&state.server, &state.overrides)
            if !overridesEnabled { state.overrides = [:] }
        }
    }

    /// Applies `mutate`, then notifies observers of every key whose effective value changed.
    ///
    /// `touching` names the keys `mutate` can change; `nil` means "compare everything".
    private func update(touching names: Set<String>?, _ mutate: (inout State) -> Void) {
        typealias Transition = (old: RawLayers, new: RawLayers, descriptor: ConfigurationKeyDescriptor?)
        let (transitions, observers, hook) = state.withLock {
            state -> ([String: Transition], [@Sendable (Set<String>) -> Void], (@Sendable (CoverageChange) -> Void)?) in
            let before = (server: state.server, overrides: state.overrides)
            mutate(&state)
            func layers(_ name: String) -> (old: RawLayers, new: RawLayers) {
                let old = RawLayers(
                    launch: state.launch[name], override: before.overrides[name], server: before.server[name])
                return (old, state.layers(for: name))
            }
            let observers = self.observers.handlers
            if observers.isEmpty, state.changeHook == nil {
                // Nobody to tell which keys changed (a command line tool, a service being set up): only whether
                // anything did, which moves the generation the read caches check. The first difference answers it.
                func differs(_ name: String) -> Bool {
                    let (old, new) = layers(name)
                    return old != new
                }
                let changed =
                    names.map { $0.contains(where: differs) }
                    ?? (before.server.keys.contains(where: differs) || state.server.keys.contains(where: differs)
                        || before.overrides.keys.contains(where: differs)
                        || state.overrides.keys.contains(where: differs))
                if changed {
                    state.generation += 1
                    generation.store(state.generation, ordering: .releasing)
                }
                return ([:], [], nil)
            }
            var transitions: [String: Transition] = [:]
            func compare(_ name: String) {
                let (old, new) = layers(name)
                if old != new { transitions[name] = (old, new, state.descriptor(named: name)) }
            }
            if let names {
                names.forEach(compare)
            } else {
                for name in before.server.keys where transitions[name] == nil { compare(name) }
                for name in state.server.keys where transitions[name] == nil { compare(name) }
                for name in before.overrides.keys where transitions[name] == nil { compare(name) }
                for name in state.overrides.keys where transitions[name] == nil { compare(name) }
            }
            guard !transitions.isEmpty else { return ([:], [], nil) }
            state.generation += 1
            generation.store(state.generation, ordering: .releasing)
            // Taken under the state lock (the registry's lock nests inside it, never the other way round), so an
            // observer added after this change is not told about it.
            return (transitions, observers, state.changeHook)
        }
        hook?(.layers)
        let changed = Set(
            transitions.compactMap { name, transition in
                Self.effectiveValue(transition.old, transition.descriptor)
                    == Self.effectiveValue(transition.new, transition.descriptor) ? nil : name
            }
        )
        guard !changed.isEmpty else { return }
        for handler in observers { handler(changed) }
    }

    /// What counts as "the effective value" when deciding whether a key changed: the canonical wire string of the
    /// decoded value for known keys (so `"01"` and `"1"` are the same integer), the winning raw string otherwise.
    private static func effectiveValue(_ layers: RawLayers, _ descriptor: ConfigurationKeyDescriptor?) -> String? {
        guard let descriptor else { return layers.launch ?? layers.override ?? layers.server }
        return descriptor.resolve(layers).value
    }

    // MARK: Observing

    /// Calls `handler` with the names of the keys whose effective value changed, after each change, outside the
    /// lock; `finish` runs when the engine goes away.
    package func observe(
        _ handler: @escaping @Sendable (Set<String>) -> Void,
        finish: (@Sendable () -> Void)? = nil
    ) -> ConfigurationObservation {
        observers.add(handler, finish: finish)
    }
}
