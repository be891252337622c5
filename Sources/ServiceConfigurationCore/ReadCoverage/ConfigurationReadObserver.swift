/// The read-observer hook of a ``LiveConfigurationService``, as swift-configuration's `AccessReporter`: an observer
/// is told, outside the service's locks and on the thread that caused it, whenever the service records new reads or
/// its layers change, and pulls what it needs from the engine itself. The core does not know what an observer does
/// with that; the file store's program report publisher is one.
package protocol ConfigurationReadObserver: AnyObject, Sendable {
    /// New reads were recorded, or the override or server layer changed.
    func engineChanged(_ change: ConfigurationEngine.CoverageChange)

    /// The service is going away (its deinit): the observer's last word. Must be idempotent.
    func end()
}

/// An override store that subscribes a read observer to each ``LiveConfigurationService`` built on it: the file
/// store, whose observer publishes the program report beside its file. Other stores bring none.
package protocol ConfigurationReadObserverProvider: OverrideStore {
    /// The observer for a service with `engine` and `options` of a program running as `programVersion` (if it
    /// said), or `nil` when that service is not to be observed.
    func makeReadObserver(
        engine: ConfigurationEngine, options: LiveConfigurationService.Options, programVersion: ProgramVersion?
    ) -> (any ConfigurationReadObserver)?
}
