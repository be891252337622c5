/// The two wire strings of a `Bool` key, declared once per key.
///
/// Servers spell booleans in several ways; a key says which one its server uses and the codec, the debug menu's
/// toggle, the catalog manifest and the mock follow:
///
/// ```swift
/// public enum ApplePayEnabledKey: ConfigurationKey {
///     public static let name = "checkout.apple_pay.enabled"
///     public static let defaultValue = false
///     public static let boolEncoding = ConfigurationBoolEncoding.trueFalse
/// }
/// ```
///
/// Decoding is exact: only the two strings are accepted (`"True"` is refused by ``trueFalse``), and the refusal is
/// reported like any other, never turned silently into the default.
public struct ConfigurationBoolEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The wire string for `true`.
    public let trueString: String
    /// The wire string for `false`.
    public let falseString: String

    /// A pair of your own; the two strings must differ (``ConfigurationCatalog`` refuses a key whose strings are
    /// equal).
    public init(true trueString: String, false falseString: String) {
        self.trueString = trueString
        self.falseString = falseString
    }

    /// `"Y"` / `"N"`: the default.
    public static let letterYN = ConfigurationBoolEncoding(true: "Y", false: "N")
    /// `"true"` / `"false"`.
    public static let trueFalse = ConfigurationBoolEncoding(true: "true", false: "false")
    /// `"1"` / `"0"`.
    public static let oneZero = ConfigurationBoolEncoding(true: "1", false: "0")
    /// `"yes"` / `"no"`.
    public static let yesNo = ConfigurationBoolEncoding(true: "yes", false: "no")
    /// `"on"` / `"off"`.
    public static let onOff = ConfigurationBoolEncoding(true: "on", false: "off")

    /// The value of `string`, or an error naming both accepted strings.
    public func decode(_ string: String) throws(ConfigurationDecodingError) -> Bool {
        if string == trueString { return true }
        if string == falseString { return false }
        throw ConfigurationDecodingError(expected: description, got: string)
    }

    /// The wire string of `value`.
    public func encode(_ value: Bool) -> String { value ? trueString : falseString }

    /// `Y or N`, `true or false`.
    public var description: String { "\(trueString) or \(falseString)" }
}
