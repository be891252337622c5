/// One configuration key: its wire name, its value type, its single default, and how its value travels as a
/// string.
///
/// Declare a key in the module that owns it. The commonest declaration is four lines (five with its property in
/// the scope); the compiler picks the codec and the debug control from the value type:
///
/// ```swift
/// public enum AlbumLikeEnabledKey: ConfigurationKey {
///     public static let name = "function.album.like.enabled"
///     public static let defaultValue = false
/// }
/// ```
///
/// Add the key type as a stored property of your module's ``ConfigurationScope`` and it becomes readable as
/// `service.albumLikeEnabled` and appears in the debug menu, with no other code. A key read from another module
/// is `public`, with a `public` name and default (the protocol is public, so its requirements must be too).
///
/// Default implementations:
/// - ``decode(from:)`` and ``encode(_:)`` for values conforming to ``ConfigurationValueStringRepresentable``
///   (`Bool` as ``boolEncoding`` says, `"Y"`/`"N"` unless the key chooses another; numbers, strings, raw-value
///   enums, custom string values) or ``ConfigurationValueJSONRepresentable`` (`Codable` compound values as JSON).
/// - ``debugTitle`` from the name (see ``ConfigurationDebugTitle``); ``summary`` empty; ``debugControlType`` from
///   the value type; ``valuePattern`` from the value type (``ConfigurationValuePattern/any`` for most).
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

    /// The type of ``summary``: `String` (the default, and what `static let summary = "…"` infers) or `String?`.
    associatedtype Summary: ConfigurationKeySummary = String

    /// A one-line explanation of the key, shown in the debug menu's details pane and written to the catalog
    /// manifest under the same name. Default: none.
    ///
    /// ```swift
    /// static let summary = "Whether album photos show a like button."
    /// ```
    static var summary: Summary { get }

    /// How the debug menu edits the value. Default: chosen from the value type.
    static var debugControlType: ConfigurationDebugControlType<Value> { get }

    /// A regular expression every wire string of this key must match as a whole, checked by ``decode(from:)`` and,
    /// through the catalog manifest, by tools that do not link the program. Default: the value type's
    /// ``ConfigurationValueStringRepresentable/configurationValuePattern`` for string values,
    /// ``ConfigurationValuePattern/any`` otherwise.
    ///
    /// ```swift
    /// static let valuePattern = ConfigurationValuePattern("#[0-9A-F]{6}", format: "#RRGGBB such as #06C755")
    /// ```
    static var valuePattern: ConfigurationValuePattern { get }

    /// How a `Bool` value travels: `"Y"`/`"N"` (``ConfigurationBoolEncoding/letterYN``, the default),
    /// `"true"`/`"false"`, `"1"`/`"0"`, `"yes"`/`"no"`, `"on"`/`"off"` or your own pair. Only `Bool` keys use it.
    ///
    /// ```swift
    /// static let boolEncoding = ConfigurationBoolEncoding.trueFalse
    /// ```
    static var boolEncoding: ConfigurationBoolEncoding { get }

    /// Who owns the key, its ticket, and when it should be gone (``ConfigurationKeyLifecycle``). Default:
    /// ``ConfigurationKeyLifecycle/none``.
    ///
    /// ```swift
    /// static let lifecycle = ConfigurationKeyLifecycle(owner: "album-team", ticket: "ALB-1024", removeBy: .date("2027-03-31"))
    /// ```
    static var lifecycle: ConfigurationKeyLifecycle { get }

    /// Not for use: the description was renamed ``summary``. A key that still declares `debugDescription` (in any
    /// type) is refused by ``ConfigurationCatalog`` with an error that names the key, instead of being ignored.
    associatedtype _DebugDescriptionIsNowSummary = ConfigurationKeyRenamedRequirement

    /// Not for use: the description was renamed ``summary``; see `_DebugDescriptionIsNowSummary`.
    static var debugDescription: _DebugDescriptionIsNowSummary { get }
}

/// The marker behind ``ConfigurationKey/debugDescription``: a key that does not declare the old name gets this.
public enum ConfigurationKeyRenamedRequirement: Sendable {
    /// The only value.
    case notDeclared
}

/// What a key's ``ConfigurationKey/summary`` may be: a `String` (empty means none) or an optional one.
public protocol ConfigurationKeySummary: Sendable {
    /// The summary's text, or `nil` when there is none.
    var summaryText: String? { get }
}

extension String: ConfigurationKeySummary {
    /// The string itself; `nil` when it is empty.
    public var summaryText: String? { isEmpty ? nil : self }
}

extension Optional: ConfigurationKeySummary where Wrapped == String {
    /// The wrapped string; `nil` when it is absent or empty.
    public var summaryText: String? { self.flatMap { $0.isEmpty ? nil : $0 } }
}

extension ConfigurationKey {
    /// Derived from ``name``: `"function.album.like.enabled"` gives `"Like Enabled"`.
    public static var debugTitle: String { ConfigurationDebugTitle.derive(from: name) }

    /// No constraint beyond the codec's own.
    public static var valuePattern: ConfigurationValuePattern { .any }

    /// `"Y"`/`"N"`.
    public static var boolEncoding: ConfigurationBoolEncoding { .letterYN }

    /// Nothing declared.
    public static var lifecycle: ConfigurationKeyLifecycle { .none }
}

extension ConfigurationKey where Summary == String {
    /// No summary.
    public static var summary: String { "" }
}

extension ConfigurationKey where _DebugDescriptionIsNowSummary == ConfigurationKeyRenamedRequirement {
    /// Not declared (the supported state): the description is ``summary``.
    public static var debugDescription: ConfigurationKeyRenamedRequirement { .notDeclared }
}

extension ConfigurationKey {
    /// Whether the key still declares the old `debugDescription` (which would otherwise be ignored).
    static var declaresRenamedDebugDescription: Bool {
        _DebugDescriptionIsNowSummary.self != ConfigurationKeyRenamedRequirement.self
    }
}

// MARK: - Codecs chosen by value type

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable {
    /// Checks ``valuePattern``, then decodes with `Value(configurationValueString:)`; an invalid string throws
    /// "expected <format>, got <string>".
    public static func decode(from string: String) throws -> Value {
        try valuePattern.check(string)
        return try Value.decodeConfigurationValue(string)
    }

    /// Encodes with `configurationValueString`.
    public static func encode(_ value: Value) throws -> String? {
        value.configurationValueString
    }

    /// The value type's ``ConfigurationValueStringRepresentable/configurationValuePattern``.
    public static var valuePattern: ConfigurationValuePattern { Value.configurationValuePattern }

    /// A text editor validated by ``decode(from:)``.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .text }
}

extension ConfigurationKey where Value: ConfigurationValueJSONRepresentable {
    /// Decodes JSON text.
    public static func decode(from string: String) throws -> Value {
        try valuePattern.check(string)
        return try Value(configurationJSON: string)
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
    /// Checks ``valuePattern``, then decodes with `Value(configurationValueString:)`.
    public static func decode(from string: String) throws -> Value {
        try valuePattern.check(string)
        return try Value.decodeConfigurationValue(string)
    }

    /// Encodes with `configurationValueString`.
    public static func encode(_ value: Value) throws -> String? {
        value.configurationValueString
    }

    /// The value type's ``ConfigurationValueStringRepresentable/configurationValuePattern``.
    public static var valuePattern: ConfigurationValuePattern { Value.configurationValuePattern }

    /// A text editor validated by ``decode(from:)``.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .text }
}

// MARK: - Bool keys

extension ConfigurationKey where Value == Bool {
    /// Accepts exactly the two strings of ``boolEncoding``.
    public static func decode(from string: String) throws -> Bool {
        try boolEncoding.decode(string)
    }

    /// The string of ``boolEncoding`` for `value`.
    public static func encode(_ value: Bool) throws -> String? {
        boolEncoding.encode(value)
    }

    /// A toggle.
    public static var debugControlType: ConfigurationDebugControlType<Bool> { .toggle }
}

// MARK: - Debug controls chosen by value type

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & FixedWidthInteger {
    /// An integer editor.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .number(range: Value.min...Value.max) }
}

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & BinaryFloatingPoint {
    /// A floating-point editor.
    public static var debugControlType: ConfigurationDebugControlType<Value> { .number(.floatingPoint) }
}

extension ConfigurationKey where Value: ConfigurationValueStringRepresentable & CaseIterable {
    /// A picker over every case, in declaration order. Cases whose wire strings are numbers are titled with their
    /// case names (an `Int`-backed enum shows `sandbox`, with `99` beside it, not only `99`).
    public static var debugControlType: ConfigurationDebugControlType<Value> {
        .picker(
            Value.allCases.map { value in
                let wire = value.configurationValueString
                let name = String(describing: value)
                return ConfigurationDebugChoice(value, title: Double(wire) != nil && name != wire ? name : nil)
            })
    }
}
