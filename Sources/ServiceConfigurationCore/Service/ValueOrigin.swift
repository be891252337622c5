/// Where a key's effective value came from. Higher sources win: ``launch`` > ``overridden`` > ``server`` >
/// ``default``.
///
/// `print(resolution.source)` shows the debug menu's capitals (`DEFAULT`); `debugPrint`, `dump` and a debugger
/// show the Swift spelling (`.default`). Compare with the cases: `resolution.source == .default`.
public enum ValueOrigin: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible,
    CustomDebugStringConvertible
{
    /// An override this run was launched with (`-configOverride KEY=VALUE`, `CONFIG_OVERRIDES_JSON`,
    /// `CONFIG_SCENARIO`; see ``ConfigurationLaunchOverrides``): it holds until the program ends, whatever the
    /// override store says, and is never written to the store.
    case launch
    /// A debug override set by a person (debug menu, command-line tool) or a test.
    case overridden
    /// The configuration server's value from the last sync.
    case server
    /// The key's ``ConfigurationKey/defaultValue``.
    case `default`

    /// The source in capitals as the debug menu shows it: `LAUNCH`, `OVERRIDDEN`, `SERVER`, `DEFAULT`.
    public var description: String { rawValue.uppercased() }

    /// The case as written in Swift: `.launch`, `.overridden`, `.server`, `.default`.
    public var debugDescription: String { "." + rawValue }
}

/// The former name of ``ValueOrigin``, renamed so it is not confused with `ServerValuesSource`, a place server values are fetched from.
@available(*, deprecated, renamed: "ValueOrigin")
public typealias ValueSource = ValueOrigin
