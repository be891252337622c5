import Foundation

/// Read coverage: which keys the program read and when, keys read but missing from the catalog, and overrides the
/// program's own `decode` rejects. Everything here runs on the slow path or on demand, never on a warm read.
extension ConfigurationEngine {
    /// What a change hook (see ``setChangeHook(_:)``) is told.
    package enum CoverageChange: Sendable {
        /// A read was recorded: the first read of the engine, of a key, of a key's changed value, or of an
        /// unregistered key.
        case reads
        /// The override or server layer changed (a rejected override or a read value may have changed with it).
        case layers
    }

    /// What recording one read found, acted on outside the lock by ``finish(_:_:)``.
    struct ReadEvent: Sendable {
        /// Something new was recorded: the hook to call, if any.
        var hook: (@Sendable (CoverageChange) -> Void)?
        var recorded = false
        /// The key is read without being in the catalog, and was not reported yet.
        var unregistered = false
    }

    /// Records a read of `K` that saw `layers`. Runs under the lock; does nothing that can call user code.
    func record<K: ConfigurationKey>(_ key: K.Type, layers: RawLayers, in state: inout State) -> ReadEvent {
        var event = ReadEvent()
        if recordsReads, state.coverage.recordRead(of: K.name, keyType: K.self, layers: layers) {
            event.recorded = true
        }
        if !state.hasBeenRead {
            state.hasBeenRead = true
            event.recorded = true
        }
        if event.recorded { event.hook = state.changeHook }
        event.unregistered = state.coverage.unregistered[K.name] == nil && state.isUnregistered(K.name)
        return event
    }

    /// Acts on a recorded read, outside the lock: reports an unregistered key, announces new coverage.
    func finish<K: ConfigurationKey>(_ key: K.Type, _ event: ReadEvent) {
        if event.unregistered { noteUnregistered(K.self) }
        if event.recorded { event.hook?(.reads) }
    }

    /// Records a read of `K` from a snapshot that saw `layers` and resolved to `rejections`.
    func recordSnapshotRead<K: ConfigurationKey>(
        _ key: K.Type, layers: RawLayers, rejections: [ConfigurationRejection]
    ) {
        let event = state.withLock { record(K.self, layers: layers, in: &$0) }
        noteRejectedOverride(of: K.name, in: rejections)
        finish(K.self, event)
    }

    /// Records `keyType` as unregistered (if it still is and was not recorded yet) and warns once.
    func noteUnregistered(_ keyType: any ConfigurationKey.Type) {
        let key = UnregisteredConfigurationKey(keyType, firstRead: Date())
        let hook = state.withLock { state -> (@Sendable (CoverageChange) -> Void)?? in
            guard state.coverage.unregistered[key.name] == nil, state.isUnregistered(key.name) else { return nil }
            state.coverage.unregistered[key.name] = key
            return .some(state.changeHook)
        }
        guard let hook else { return }
        onWarning?(.unregisteredKey(key))
        hook?(.reads)
    }

    /// Warns once per overridden value that the key's `decode` rejected on a read.
    func noteRejectedOverride(of name: String, in rejections: [ConfigurationRejection]) {
        guard let onWarning else { return }
        for rejection in rejections where rejection.source == .overridden || rejection.source == .launch {
            let first = state.withLock {
                $0.coverage.warnedRejections.insert(.init(name: name, value: rejection.rawValue)).inserted
            }
            guard first else { continue }
            if rejection.source == .launch {
                // Only without a catalog: with one, the service leaves out launch values their key refuses.
                let error = ConfigurationError.invalidValue(
                    key: name, value: rejection.rawValue, reason: rejection.reason)
                onWarning(
                    .launchOverrideNotApplied(.init(key: name, value: rejection.rawValue, origin: nil, error: error)))
            } else {
                onWarning(.rejectedOverride(.init(name: name, value: rejection.rawValue, reason: rejection.reason)))
            }
        }
    }

    /// Sets the function called (outside the lock, on the thread that caused it) whenever new reads are recorded or
    /// the layers change.
    package func setChangeHook(_ hook: (@Sendable (CoverageChange) -> Void)?) {
        state.withLock { $0.changeHook = hook }
    }

    /// Which keys were read and when, with the values each read saw, and which unregistered keys were read.
    ///
    /// The wire value of each newly seen value is worked out here, outside the lock (it runs the key's `decode`
    /// and `encode`), once, and kept: a read only notes the layers it saw. Sorting happens outside the lock too.
    package func readCoverage() -> ConfigurationReadCoverage {
        resolveSeenValues()
        let (reads, unregistered) = state.withLock { state in
            (
                state.coverage.reads.map { name, record in
                    ConfigurationReadCoverage.Read(
                        name: name,
                        firstRead: record.firstRead,
                        currentValueFirstRead: record.layers == state.layers(for: name) ? record.layersFirstRead : nil,
                        values: ReadCoverageState.values(of: record),
                        valuesOmitted: record.valuesOmitted
                    )
                },
                Array(state.coverage.unregistered.values)
            )
        }
        return ConfigurationReadCoverage(
            reads: reads.sorted { $0.name < $1.name },
            unregistered: unregistered.sorted { $0.name < $1.name },
            isRecording: recordsReads
        )
    }

    /// Works out the wire values of the values reads saw that were not worked out yet: their layers are collected
    /// under the lock, resolved outside it, and kept where the key's record still holds the same layers.
    private func resolveSeenValues() {
        /// `index` -1: the record's only value so far, that of its ``ReadCoverageState/Record/layers``.
        typealias Pending = (
            name: String, index: Int, layers: RawLayers, keyType: any ConfigurationKey.Type,
            descriptor: ConfigurationKeyDescriptor?
        )
        let pending = state.withLock { state -> [Pending] in
            var pending: [Pending] = []
            for (name, record) in state.coverage.reads {
                if record.seen.isEmpty {
                    pending.append((name, -1, record.layers, record.keyType, state.descriptor(named: name)))
                }
                for (index, seen) in record.seen.enumerated() where seen.value == nil {
                    pending.append((name, index, seen.layers, record.keyType, state.descriptor(named: name)))
                }
            }
            return pending
        }
        guard !pending.isEmpty else { return }
        let values = pending.map {
            ReadCoverageState.wireValue(of: $0.keyType, layers: $0.layers, descriptor: $0.descriptor)
        }
        state.withLock { state in
            for (item, value) in zip(pending, values) {
                guard let record = state.coverage.reads[item.name] else { continue }
                if item.index < 0 {
                    // Unless the layers changed since (then `seen` holds these layers, worked out next time).
                    if record.seen.isEmpty, record.layers == item.layers {
                        state.coverage.reads[item.name]?.seen = [.init(layers: item.layers, value: .some(value))]
                    }
                } else if item.index < record.seen.count, record.seen[item.index].layers == item.layers {
                    state.coverage.reads[item.name]?.seen[item.index].value = .some(value)
                }
            }
        }
    }

    /// The overrides that their keys' `decode` (this program's code) refuses, sorted by key name.
    ///
    /// Only overrides of keys this engine knows (from its catalog or from typed use) are checked. Each value is
    /// decoded once, outside the lock, and the verdict kept until the override changes.
    package func rejectedOverrides() -> [ConfigurationRejectedOverride] {
        typealias Pending = (key: ReadCoverageState.OverrideValue, descriptor: ConfigurationKeyDescriptor)
        let (known, pending) = state.withLock { state -> ([ConfigurationRejectedOverride], [Pending]) in
            var known: [ConfigurationRejectedOverride] = []
            var pending: [Pending] = []
            var verdicts: [ReadCoverageState.OverrideValue: String?] = [:]
            for (name, value) in state.overrides {
                guard let descriptor = state.descriptor(named: name) else { continue }
                let key = ReadCoverageState.OverrideValue(name: name, value: value)
                if let verdict = state.coverage.overrideVerdicts[key] {
                    verdicts[key] = verdict
                    if let reason = verdict { known.append(.init(name: name, value: value, reason: reason)) }
                } else {
                    pending.append((key, descriptor))
                }
            }
            state.coverage.overrideVerdicts = verdicts
            return (known, pending)
        }
        var checked: [ConfigurationRejectedOverride] = []
        var verdicts: [ReadCoverageState.OverrideValue: String?] = [:]
        for (key, descriptor) in pending {
            do {
                _ = try descriptor.validate(key.value)
                verdicts[key] = .some(nil)
            } catch {
                verdicts[key] = .some(error.description)
                checked.append(.init(name: key.name, value: key.value, reason: error.description))
            }
        }
        if !verdicts.isEmpty {
            state.withLock { state in
                for (key, verdict) in verdicts where state.overrides[key.name] == key.value {
                    state.coverage.overrideVerdicts[key] = verdict
                }
            }
        }
        return (known + checked).sorted { ($0.name, $0.value) < ($1.name, $1.value) }
    }
}
