/// In which builds debug overrides apply. The default keeps them out of release builds.
///
/// A program that configures nothing applies overrides in debug builds only: a release build (`swift build -c
/// release`, an Xcode Release or Archive) never reads the override store, and setting an override throws
/// ``ConfigurationError/overridesDisabled``, so a forgotten store file or a stray `CONFIG_OVERRIDES_FILE` cannot
/// change what users get. A QA or TestFlight build that is compiled for release but must honour overrides says so
/// in one line, usually behind the app's own build flag:
///
/// ```swift
/// #if QA
///     let policy = ConfigurationOverridePolicy.allBuilds
/// #else
///     let policy = ConfigurationOverridePolicy.debugBuildsOnly
/// #endif
/// let service = LiveConfigurationService(catalog: catalog, overrideStore: store, overridePolicy: policy)
/// ```
///
/// "Debug build" means the `DEBUG` compilation condition of this package's own code, which SwiftPM sets from the
/// configuration of the whole build (a dependency is built in its root package's configuration). Turning the
/// `DebugOverrides` package trait off (`.package(…, traits: [])`) removes the override layer from every build,
/// whatever the policy.
///
/// To test what a release build does from a debug test run (`swift test`), use ``never``: it behaves as a release
/// build with the default policy, whatever the build.
///
/// ```swift
/// let mock = MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self], overridePolicy: .never)
/// #expect(throws: ConfigurationError.overridesDisabled) { try mock.setOverride(3, for: \.checkoutMaxCartItems) }
/// ```
public enum ConfigurationOverridePolicy: Sendable, Hashable, CaseIterable {
    /// Overrides apply in debug builds only. The default.
    case debugBuildsOnly
    /// Overrides apply in every build, release included: QA and TestFlight builds, internal tools.
    case allBuilds
    /// Overrides never apply, in any build: what a release build does under ``debugBuildsOnly``. The store is never
    /// read, overrides passed in memory are ignored, and setting one throws ``ConfigurationError/overridesDisabled``.
    /// For tests of release behaviour in a debug test run.
    case never

    /// Whether overrides apply in this build under this policy (always `false` without the `DebugOverrides`
    /// trait).
    public var appliesInThisBuild: Bool {
        guard ConfigurationEngine.overridesCompiledIn else { return false }
        switch self {
        case .allBuilds: return true
        case .debugBuildsOnly: return Self.isDebugBuild
        case .never: return false
        }
    }

    /// Whether this package was compiled with the `DEBUG` condition (SwiftPM's debug configuration).
    public static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }
}
