/// Where a key's effective value came from. Higher sources win: ``overridden`` > ``server`` > ``default``.
public enum ValueSource: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A debug override set by a person (debug menu, command-line tool) or a test.
    case overridden
    /// The configuration server's value from the last sync.
    case server
    /// The key's ``ConfigurationKey/defaultValue``.
    case `default`

    /// The source in capitals as the debug menu shows it: `OVERRIDDEN`, `SERVER`, `DEFAULT`.
    public var description: String { rawValue.uppercased() }
}
