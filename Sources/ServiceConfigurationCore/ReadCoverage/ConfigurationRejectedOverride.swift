/// An override this program's own `decode` refuses, so the program ignores it and falls back to the server value
/// or the default.
///
/// A standalone tool validates overrides from a catalog manifest and cannot run a key's custom `decode` (a string
/// format like `"20 EUR"`, a JSON shape), so it may accept a value that the program rejects; the program reports
/// such overrides here and in its published program report.
public struct ConfigurationRejectedOverride: Sendable, Hashable, CustomStringConvertible {
    /// The key's wire name.
    public var name: String
    /// The override's wire string.
    public var value: String
    /// Why the key's `decode` refused it.
    public var reason: String

    /// Creates a rejected override.
    public init(name: String, value: String, reason: String) {
        self.name = name
        self.value = value
        self.reason = reason
    }

    /// For example `override of payments.limit = "20 EUR" rejected: expected an amount like "20.00 EUR"`.
    public var description: String {
        "override of \(VisibleText.escaped(name)) = \"\(VisibleText.escaped(value))\" rejected by this program: "
            + "\(VisibleText.escaped(reason)); it uses the server value or the default instead. Fix: set a value the "
            + "key accepts, or remove the override"
    }
}
