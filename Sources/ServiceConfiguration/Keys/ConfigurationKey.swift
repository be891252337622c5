/// One configuration key: its wire name, its value type, its single default, and how its value travels as a
/// string.
///
/// Declare a key in the module that owns it. The commonest declaration is three lines; the compiler picks the
/// codec and the debug control from the value type:
///
/// ```swift
/// enum AlbumLikeEnabledKey: ConfigurationKey {
///     static let name = "function.album.like.enabled"
///     static let defaultValue = false
/// }
/// ```
///
/// Add the key type as a stored property of your module's ``ConfigurationScope`` and it becomes readable as
/// `service.albumLikeEnabled` and appears in the debug menu, with no other code.
///
/// Default implementations:
/// - ``decode(from:)`` and ``encode(_:)`` for values conforming to ``ConfigurationValueStringRepresentable``
///   (`Bool` as `"Y"`/`"N"`, numbers, strings, raw-value enums, custom string values) or
///   ``ConfigurationValueJSONRepresentable`` (`Codable` compound values as JSON).
/// - ``debugTitle`` from the name (see ``ConfigurationDebugTitle``); ``debugControlType`` from the value type.
public protocol ConfigurationKey: SendableMetatype {
    /// The key's value type.
    associatedtype Value: Sendable

    /// The wire name the configuration server uses, for example `"function.album.like.enabled"`.
    ///
    /// Names must be unique across every scope of a program; ``ConfigurationCatalog`` checks it.
    static var name: String { get }

    /// The value used when neither an override nor the server provides a valid one. Written once, here.
    static var defaultValue: Value { get }

    /// Decodes a wire string. Throw a ``ConfigurationDecodingError`` saying what was expected; the library reports
    /// it (it never falls back silently).
    ///
    /// This runs outside the service's lock, so a custom implementation may read other keys of the same service.
    static func decode(from string: String) throws -> Value

    /// Encodes a value to its wire string, or returns `nil` when the value has no wire form.
    static func encode(_ value: Value) throws -> String?

    /// The title shown in the debug menu. Default: derived from ``name`` by ``ConfigurationDebugTitle``.
    static var debugTitle: String { get }

    /// A one-line explanation shown in the debug menu's details pane. Default: none.
    static var debugDescription: String? { get }

    /// How the debug menu edits the value. Default: chosen from the value type.
    static var debugControlType: ConfigurationDebugControlType<Value> { get }
}

extension ConfigurationKey {
    /// Derived from ``name``: `"function.album.like.enabled"` gives `"Like Enabled"`.
    public static var debugTitle: String { ConfigurationDebugTitle.derive(from: name) }

    /// No description.
    public static var debugDescription: String? { nil }
}

// MARK: - Codecs chosen by value type

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable {
    /// Decodes with `Value(configurationValueString:)`; an invalid string throws "expected <format>, got <string>".
    public static func decode(from string: String) throws -> Value {
        try Value.decodeConfigurationValue(string)
    }

    /// Encodes with `configurationValueString`.
    public static func encode(_ value: Value) throws -> String? {
        value.configurationValueString
    }

    /// A text editor validated by ``decode(from:)``.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .text }
}

extension ConfigurationKey where Value: ConfigurationValueJSONRepresentable {
    /// Decodes JSON text.
    public static func decode(from string: String) throws -> Value {
        try Value(configurationJSON: string)
    }

    /// Encodes as compact JSON with sorted keys.
    public static func encode(_ value: Value) throws -> String? {
        try value.configurationJSON()
    }

    /// The JSON editor.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .json }
}

/// A value that is both string- and JSON-representable travels as its string.
extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & ConfigurationValueJSONRepresentable {
    /// Decodes with `Value(configurationValueString:)`.
    public static func decode(from string: String) throws -> Value {
        try Value.decodeConfigurationValue(string)
    }

    /// Encodes with `configurationValueString`.
    public static func encode(_ value: Value) throws -> String? {
        value.configurationValueString
    }

    /// A text editor validated by ``decode(from:)``.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .text }
}

// MARK: - Debug controls chosen by value type

extension ConfigurationKey where Value == Bool {
    /// A toggle.
    public static var debugControlType: ConfigurationDebugControlType<Bool> { .toggle }
}

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & FixedWidthInteger {
    /// An integer editor.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .number(.integer) }
}

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & BinaryFloatingPoint {
    /// A floating-point editor.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .number(.floatingPoint) }
}

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & CaseIterable {
    /// A picker over every case, in declaration order.
    public static var debugControlType: ConfigurationDebugControlType<Value> {
        .picker(Value.allCases.map { ConfigurationDebugChoice($0) })
    }
}
