extension ConfigurationReader {
    /// The key's new value each time its effective value changes.
    ///
    /// "Changes" compares the canonical wire strings of decoded values, so an override equal to the server value,
    /// or a sync that re-sends the same value, emits nothing. The stream yields after the state is updated; it
    /// does not yield the current value first (read it before iterating). It finishes when the consuming task is
    /// cancelled or the service goes away.
    ///
    /// ```swift
    /// for await enabled in service.changes(of: AlbumLikeEnabledKey.self) {
    ///     likeButton.isHidden = !enabled
    /// }
    /// ```
    public func changes<K: ConfigurationKey>(of key: K.Type) -> AsyncStream<K.Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: K.Value.self)
        let tracker = ChangeTracker()
        // Register and take the starting value under the tracker's lock: a change that lands in between is then
        // compared against the right starting point instead of being lost or reported twice.
        tracker.last.withLock { last in
            let observation = observe(
                { [weak self] changed in
                    guard changed.contains(K.name), let self else { return }
                    tracker.last.withLock { last in
                        let resolution = self.resolution(of: K.self)
                        let current = Self.canonical(K.self, resolution)
                        guard current != last else { return }
                        last = current
                        continuation.yield(resolution.value)
                    }
                },
                finish: { continuation.finish() }
            )
            last = Self.canonical(K.self, resolution(of: K.self))
            continuation.onTermination = { _ in observation.cancel() }
        }
        return stream
    }

    /// The names of the keys whose effective value changed, one set per change.
    ///
    /// ```swift
    /// for await names in service.changedKeyNames() { print("changed:", names.sorted()) }
    /// ```
    public func changedKeyNames() -> AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
        let observation = observe({ continuation.yield($0) }, finish: { continuation.finish() })
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    /// The value's wire form as the key writes it, so equal values compare equal whatever string they came from.
    private static func canonical<K: ConfigurationKey>(
        _ key: K.Type,
        _ resolution: ConfigurationResolution<K.Value>
    ) -> String? {
        (try? K.encode(resolution.value)) ?? resolution.rawValue
    }
}

/// The last value a change stream delivered, guarded so deliveries from concurrent writers stay ordered.
private final class ChangeTracker: Sendable {
    let last = Locked<String?>(nil)
}
