/// An error from a configuration operation, with a message a person can act on.
///
/// ```swift
/// do { try service.setOverride(rawValue: "yes", forKeyNamed: "function.album.like.enabled") }
/// catch { print(error) }  // function.album.like.enabled expects Y or N, got "yes"
/// ```
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A wire string the key cannot decode.
    case invalidValue(key: String, value: String, reason: String)
    /// A value whose key's `encode` gave no wire string or threw.
    case unencodableValue(key: String, reason: String)
    /// A key name no registered key has; `suggestions` lists the nearest known names.
    case unknownKey(String, suggestions: [String])
    /// Two scopes declare the same wire name.
    case duplicateKeyName(String, firstScope: String, secondScope: String)
    /// A scope whose key list is empty: usually reflection metadata was stripped.
    case scopeHasNoKeys(String)
    /// Two scopes in one catalog have the same name.
    case duplicateScopeName(String)
    /// This build has no override layer (the `DebugOverrides` package trait is off).
    case overridesDisabled

    /// The message shown to people.
    public var description: String {
        switch self {
        case .invalidValue(let key, _, let reason):
            let expectation = reason.hasPrefix("expected ") ? "expects " + reason.dropFirst("expected ".count) : reason
            return "\(key) \(expectation)"
        case .unencodableValue(let key, let reason):
            return "\(key): the value cannot be written as a wire string (\(reason))"
        case .unknownKey(let name, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
            return "unknown key \"\(name)\"\(hint)"
        case .duplicateKeyName(let name, let first, let second) where first == second:
            return "key name \"\(name)\" is declared twice in scope \(first); wire names must be unique"
        case .duplicateKeyName(let name, let first, let second):
            return "key name \"\(name)\" is declared in two scopes, \(first) and \(second); wire names must be unique"
        case .scopeHasNoKeys(let scope):
            return "scope \(scope) lists no keys; if reflection metadata is stripped, implement `static var keys`"
        case .duplicateScopeName(let scope):
            return "two scopes are named \(scope); give one a distinct `static var name`"
        case .overridesDisabled:
            return "overrides are compiled out of this build (the DebugOverrides package trait is off)"
        }
    }
}
