import Foundation

/// Pushes an override store's entries into the engine, leaving out expired ones, and re-evaluates them when the
/// server values change and when the next expiry time comes (a timer on the layer's clock), so a running program
/// stops applying an expired override without a restart and its observers fire.
final class OverrideApplier: Sendable {
    let engine: ConfigurationEngine
    let store: any OverrideStore
    let clock: any OverrideClock
    let programVersion: ProgramVersion?

    private struct State: Sendable {
        /// The stored entries that have an expiry rule, by key (the ones whose application can change by itself).
        var conditional: [String: OverrideEntry] = [:]
        /// The pending timer's deadline and handle.
        var deadline: Date?
        var timer: ConfigurationObservation?
    }

    private let state = Locked(State())

    init(
        engine: ConfigurationEngine, store: any OverrideStore, clock: any OverrideClock, programVersion: ProgramVersion?
    ) {
        self.engine = engine
        self.store = store
        self.clock = clock
        self.programVersion = programVersion
    }

    /// Stops the timer.
    func stop() {
        state.withLock { state -> ConfigurationObservation? in
            defer { state.timer = nil }
            return state.timer
        }?.cancel()
    }

    /// Whether `entry` applies now, given the key's server value.
    private func applies(_ entry: OverrideEntry, server: String?, now: Date) -> Bool {
        entry.expiry.isNever || entry.expiration(now: now, serverValue: server, programVersion: programVersion) == nil
    }

    /// Applies everything the store holds (at start).
    func applyAll() {
        let entries = store.entries
        state.withLock { $0.conditional = entries.filter { !$0.value.expiry.isNever } }
        let now = clock.now
        engine.updateLayers(touching: nil) { server, overrides in
            overrides = [:]
            overrides.reserveCapacity(entries.count)
            for (name, entry) in entries where applies(entry, server: server[name], now: now) {
                overrides[name] = entry.value
            }
        }
        reschedule()
    }

    /// Applies what the store holds for `keys` now.
    func apply(_ keys: some Sequence<String>) {
        let entries = Dictionary(Set(keys).map { ($0, store.entry(forKey: $0)) }, uniquingKeysWith: { $1 })
        guard !entries.isEmpty else { return }
        state.withLock { state in
            for (name, entry) in entries { state.conditional[name] = entry.flatMap { $0.expiry.isNever ? nil : $0 } }
        }
        let now = clock.now
        engine.updateLayers(touching: Set(entries.keys)) { server, overrides in
            for (name, entry) in entries {
                overrides[name] = entry.flatMap { applies($0, server: server[name], now: now) ? $0.value : nil }
            }
        }
        if entries.values.contains(where: { $0?.expiry.expiresAt != nil }) || state.withLock({ $0.deadline != nil }) {
            reschedule()
        }
    }

    /// Replaces the server values and, in the same step, re-evaluates the overrides that expire when the server
    /// value changes.
    func replaceServerValues(_ values: [String: String]) {
        let conditional = state.withLock { $0.conditional }
        let now = clock.now
        engine.updateLayers(touching: nil) { server, overrides in
            server = values
            for (name, entry) in conditional {
                overrides[name] = applies(entry, server: values[name], now: now) ? entry.value : nil
            }
        }
    }

    /// Sets or removes one key's server value and re-evaluates its override.
    func setServerValue(_ raw: String?, forKeyNamed name: String) {
        let entry = state.withLock { $0.conditional[name] }
        let now = clock.now
        engine.updateLayers(touching: [name]) { server, overrides in
            server[name] = raw
            if let entry { overrides[name] = applies(entry, server: raw, now: now) ? entry.value : nil }
        }
    }

    /// The stored overrides that have expired now, with why.
    var expired: [String: OverrideExpiryReason] {
        let conditional = state.withLock { $0.conditional }
        guard !conditional.isEmpty else { return [:] }
        let server = engine.serverValues
        let now = clock.now
        var result: [String: OverrideExpiryReason] = [:]
        for (name, entry) in conditional {
            if let expiration = entry.expiration(now: now, serverValue: server[name], programVersion: programVersion) {
                result[name] = expiration
            }
        }
        return result
    }

    /// Waits for the nearest future expiry time, if any (replacing a timer for another time).
    private func reschedule() {
        let now = clock.now
        let next = state.withLock { state in
            state.conditional.values.compactMap(\.expiry.expiresAt).filter { $0 > now }.min()
        }
        let replaced = state.withLock { state -> ConfigurationObservation?? in
            guard state.deadline != next else { return .none }
            defer {
                state.deadline = next
                state.timer = nil
            }
            return .some(state.timer)
        }
        guard case .some(let old) = replaced else { return }
        old?.cancel()
        guard let next else { return }
        let timer = clock.schedule(at: next) { [weak self] in self?.timerFired() }
        let stale = state.withLock { state -> ConfigurationObservation? in
            guard state.deadline == next, state.timer == nil else { return timer }
            state.timer = timer
            return nil
        }
        stale?.cancel()
    }

    /// The nearest expiry time came: re-evaluates the timed overrides, then waits for the next one.
    private func timerFired() {
        let (conditional, deadline) = state.withLock { state in
            defer {
                state.deadline = nil
                state.timer = nil
            }
            return (state.conditional.filter { $0.value.expiry.expiresAt != nil }, state.deadline)
        }
        if let deadline, clock.now < deadline {
            // Woken early (a long wait is cut into days): wait again.
            reschedule()
            return
        }
        let now = clock.now
        engine.updateLayers(touching: Set(conditional.keys)) { server, overrides in
            for (name, entry) in conditional {
                overrides[name] = applies(entry, server: server[name], now: now) ? entry.value : nil
            }
        }
        reschedule()
    }
}
