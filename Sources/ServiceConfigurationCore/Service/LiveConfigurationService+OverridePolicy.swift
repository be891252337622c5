extension LiveConfigurationService {
    /// Whether this service applies overrides: `false` in a release build created with the default
    /// ``ConfigurationOverridePolicy/debugBuildsOnly``, and in every build without the `DebugOverrides` trait.
    ///
    /// A debug menu can show it, so nobody wonders why an override has no effect.
    public var overridesApply: Bool { engine.overridesEnabled }
}
