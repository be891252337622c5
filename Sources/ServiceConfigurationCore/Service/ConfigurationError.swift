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
    /// A key name used with a service that was given no catalog, so it knows only the keys read so far.
    case unregisteredKey(String)
    /// Two scopes declare the same wire name (or one scope declares it twice).
    case duplicateKeyName(String, firstScope: String, secondScope: String)
    /// Two scopes declare a stored property of the same name, so `service.<name>` is ambiguous wherever both are
    /// visible.
    case duplicatePropertyName(String, firstScope: String, secondScope: String)
    /// A key whose declaration cannot work as written (a renamed requirement, a Bool encoding whose two strings are
    /// equal, a pattern that is not a regular expression, a default its own codec cannot encode or read back);
    /// `problem` says what and how to fix it.
    case invalidDeclaration(key: String, problem: String)
    /// A scope whose key list is empty: usually reflection metadata was stripped.
    case scopeHasNoKeys(String)
    /// Two scopes in one catalog have the same name.
    case duplicateScopeName(String)
    /// This service applies no overrides: a release build without ``ConfigurationOverridePolicy/allBuilds``, the
    /// policy ``ConfigurationOverridePolicy/never``, or the `DebugOverrides` package trait is off.
    case overridesDisabled
    /// An operation this service or store cannot do; the message says what.
    case unsupported(String)

    /// The message shown to people. Names from files and servers are shown with control and invisible characters
    /// escaped, so a message never drives the terminal it is printed on.
    public var description: String {
        let show = VisibleText.escaped
        switch self {
        case .invalidValue(let key, _, let reason):
            let expectation = reason.hasPrefix("expected ") ? "expects " + reason.dropFirst("expected ".count) : reason
            return "\(show(key)) \(expectation)"
        case .unencodableValue(let key, let reason):
            return "\(show(key)): the value cannot be written as a wire string (\(show(reason)))"
        case .unknownKey(let name, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.map(show).joined(separator: ", "))?"
            return "unknown key \"\(show(name))\"\(hint)"
        case .unregisteredKey(let name):
            return
                "unknown key \"\(show(name))\": this service was created without a catalog, so it knows only the keys "
                + "read so far; create it with the scopes that declare its keys "
                + "(MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self]), "
                + "LiveConfigurationService(catalog:)) or call register(_:) with the program's catalog"
        case .duplicateKeyName(let name, let first, let second):
            if first == second {
                return "key name \"\(show(name))\" is declared twice in scope \(show(first)); wire names must be unique"
            }
            return
                "key name \"\(show(name))\" is declared in two scopes, \(show(first)) and \(show(second)); wire names must be unique"
        case .duplicatePropertyName(let name, let first, let second):
            return "property \"\(name)\" is declared in two scopes, \(first) and \(second), so `service.\(name)` is "
                + "ambiguous wherever both are imported; prefix each property with its scope (for example "
                + "\(Self.prefixed(name, first)) and \(Self.prefixed(name, second)))"
        case .invalidDeclaration(let key, let problem):
            return "key \(show(key)): \(problem)"
        case .scopeHasNoKeys(let scope):
            return "scope \(show(scope)) lists no keys; if reflection metadata is stripped, implement `static var keys`"
        case .duplicateScopeName(let scope):
            return "two scopes are named \(show(scope)); give one a distinct `static var name`"
        case .unsupported(let what):
            return what
        case .overridesDisabled:
            return "overrides do not apply in this build: it is a release build (pass overridePolicy: .allBuilds to "
                + "apply them, for example in a QA build), the service was created with overridePolicy: .never, or "
                + "the DebugOverrides package trait is off"
        }
    }

    /// `checkoutEnabled` for property `enabled` in scope `Checkout`.
    private static func prefixed(_ property: String, _ scope: String) -> String {
        let head = scope.prefix(1).lowercased() + scope.dropFirst()
        return head + property.prefix(1).uppercased() + property.dropFirst()
    }
}
