/// A value that travels as a single string in the configuration wire format.
///
/// Conform a type to this protocol and every ``ConfigurationKey`` whose `Value` is that type gets a correct
/// ``ConfigurationKey/decode(from:)`` and ``ConfigurationKey/encode(_:)`` for free. The library provides
/// conformances for `Bool` (`"Y"`/`"N"`), the integer types, `Double`, `Float`, `String`, and (through a default
/// implementation) every `RawRepresentable` type whose raw value is itself string-representable, such as
/// `enum Mode: String, ConfigurationValueStringRepresentable`.
///
/// A custom value conforms by hand:
///
/// ```swift
/// struct ImageTransferQuality: ConfigurationValueStringRepresentable {
///     var maxDimension: Int
///     var compression: Double
///     init?(configurationValueString string: String) { /* parse "1280,70" */ }
///     var configurationValueString: String { "\(maxDimension),\(Int(compression * 100))" }
/// }
/// ```
public protocol ConfigurationValueStringRepresentable: Sendable {
    /// Creates a value from its wire string, or returns `nil` when the string is not a valid value.
    init?(configurationValueString string: String)

    /// The value's wire string; `init(configurationValueString:)` of this string gives back an equal value.
    var configurationValueString: String { get }

    /// A short human description of the accepted format, used in error messages ("expected <format>").
    ///
    /// The default is derived from the type's name ("a valid ImageTransferQuality"). Give a concrete example
    /// where you can, for instance `"WIDTH,QUALITY such as 1280,70"`.
    static var configurationValueFormat: String { get }

    /// What a refused `string` should have been, for its error message ("expected <this>, got …"). The default is
    /// ``configurationValueFormat``; integers name their type's range when `string` is a whole number outside it.
    static func configurationValueExpectation(refusing string: String) -> String

    /// A regular expression every wire string must match as a whole, carried in the catalog manifest so tools that
    /// do not link the program refuse what the program refuses. Default: ``ConfigurationValuePattern/any``.
    ///
    /// ```swift
    /// static let configurationValuePattern = ConfigurationValuePattern("[0-9]+,[0-9]{1,3}", format: "1280,70")
    /// ```
    static var configurationValuePattern: ConfigurationValuePattern { get }
}

extension ConfigurationValueStringRepresentable {
    /// The default format description: "a valid <TypeName>".
    public static var configurationValueFormat: String { "a valid \(Self.self)" }

    /// The format, whatever was refused.
    public static func configurationValueExpectation(refusing string: String) -> String { configurationValueFormat }

    /// No pattern: the parser alone decides.
    public static var configurationValuePattern: ConfigurationValuePattern { .any }

    /// Parses `string`, or throws a ``ConfigurationDecodingError`` that names the expected format.
    public static func decodeConfigurationValue(_ string: String) throws(ConfigurationDecodingError) -> Self {
        guard let value = Self(configurationValueString: string) else {
            throw ConfigurationDecodingError(expected: configurationValueExpectation(refusing: string), got: string)
        }
        return value
    }
}

extension Bool: ConfigurationValueStringRepresentable {
    /// Accepts exactly `"Y"` (true) and `"N"` (false); anything else, including `"y"`, `"true"` and `""`, is invalid.
    public init?(configurationValueString string: String) {
        switch string {
        case "Y": self = true
        case "N": self = false
        default: return nil
        }
    }

    /// `"Y"` for true, `"N"` for false.
    public var configurationValueString: String { self ? "Y" : "N" }

    /// `"Y or N"`.
    public static var configurationValueFormat: String { "Y or N" }
}

extension String: ConfigurationValueStringRepresentable {
    /// Every string is a valid `String` value, including the empty string.
    public init?(configurationValueString string: String) { self = string }

    /// The string itself.
    public var configurationValueString: String { self }

    /// `"any text"`.
    public static var configurationValueFormat: String { "any text" }
}

/// Integers are written in decimal, with an optional leading minus sign and no grouping.
extension ConfigurationValueStringRepresentable where Self: FixedWidthInteger {
    /// Parses a decimal integer in range for the type.
    public init?(configurationValueString string: String) { self.init(string, radix: 10) }

    /// The decimal form.
    public var configurationValueString: String { String(self) }

    /// "an integer" for 64-bit signed types, "a whole number" for 64-bit unsigned ones, otherwise "an integer from
    /// <min> to <max>".
    public static var configurationValueFormat: String {
        if bitWidth >= 64 { return Self.isSigned ? "an integer" : "a whole number (0 or more)" }
        return "an integer from \(Self.min) to \(Self.max)"
    }

    /// For a whole number outside the type's range (`99999999999999999999` for an `Int`), the range itself:
    /// "an integer from -9223372036854775808 to 9223372036854775807"; otherwise the format.
    public static func configurationValueExpectation(refusing string: String) -> String {
        let digits = string.hasPrefix("-") ? string.dropFirst() : Substring(string)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return configurationValueFormat }
        return Self.isSigned ? "an integer from \(Self.min) to \(Self.max)" : "a whole number from 0 to \(Self.max)"
    }
}

extension Int: ConfigurationValueStringRepresentable {}
extension Int8: ConfigurationValueStringRepresentable {}
extension Int16: ConfigurationValueStringRepresentable {}
extension Int32: ConfigurationValueStringRepresentable {}
extension Int64: ConfigurationValueStringRepresentable {}
extension UInt: ConfigurationValueStringRepresentable {}
extension UInt8: ConfigurationValueStringRepresentable {}
extension UInt16: ConfigurationValueStringRepresentable {}
extension UInt32: ConfigurationValueStringRepresentable {}
extension UInt64: ConfigurationValueStringRepresentable {}

/// Floating-point values are written in the shortest form that reads back exactly; NaN and infinities are refused
/// because no configuration server means them.
extension ConfigurationValueStringRepresentable where Self: BinaryFloatingPoint & LosslessStringConvertible {
    /// Parses a finite decimal number such as `"0.7"`, `"-3"` or `"1e3"`.
    public init?(configurationValueString string: String) {
        guard let value = Self(string), value.isFinite else { return nil }
        self = value
    }

    /// The shortest round-tripping decimal form (`"0.7"`, `"3.0"`).
    public var configurationValueString: String { description }

    /// `"a finite number"`.
    public static var configurationValueFormat: String { "a finite number" }
}

extension Double: ConfigurationValueStringRepresentable {}
extension Float: ConfigurationValueStringRepresentable {}

/// Enums (and other raw-representable types) travel as their raw value.
extension ConfigurationValueStringRepresentable
where Self: RawRepresentable, RawValue: ConfigurationValueStringRepresentable {
    /// Parses the raw value, then looks it up.
    public init?(configurationValueString string: String) {
        guard let raw = RawValue(configurationValueString: string) else { return nil }
        self.init(rawValue: raw)
    }

    /// The raw value's wire string.
    public var configurationValueString: String { rawValue.configurationValueString }
}

/// Case-iterable enums name their cases in error messages.
extension ConfigurationValueStringRepresentable
where Self: RawRepresentable & CaseIterable, RawValue: ConfigurationValueStringRepresentable {
    /// "one of: a, b, c".
    public static var configurationValueFormat: String {
        "one of: " + allCases.map(\.configurationValueString).joined(separator: ", ")
    }
}
