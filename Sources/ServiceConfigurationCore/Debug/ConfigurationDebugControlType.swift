/// How the debug menu lets a person change a key's value.
///
/// Every ``ConfigurationKey`` gets a sensible control from its value type: ``toggle`` for `Bool`, ``picker(_:)``
/// for case-iterable enums, ``number(_:_:)`` for integers and floating point, ``text`` for strings and custom string
/// values, and ``json`` for compound values. A key can choose another, for example a picker over a fixed list of
/// sizes:
///
/// ```swift
/// enum ThumbnailSizeKey: ConfigurationKey {
///     static let name = "function.media.thumbnail_size"
///     static let defaultValue = 256
///     static var debugControlType: ConfigurationDebugControlType<Int> {
///         .picker([.init(128), .init(256), .init(512, title: "512 (retina)")])
///     }
/// }
/// ```
public enum ConfigurationDebugControlType<Value: Sendable>: Sendable {
    /// An on/off switch: Space flips it. Meant for `Bool` values.
    case toggle
    /// A list of choices; the menu marks the current one.
    case picker([ConfigurationDebugChoice<Value>])
    /// A one-line text editor; input is validated by the key's `decode(from:)` as it is typed.
    case text
    /// A one-line numeric editor; with a range, `+`/`-` step through it (see `number(range:step:)`), and the range
    /// is a value rule: a value outside it is rejected from every source (see ``ConfigurationNumberRange``).
    case number(ConfigurationNumberKind, ConfigurationNumberRange? = nil)
    /// A multi-line JSON editor (or `$EDITOR`); the text is validated by the key's `decode(from:)` before saving.
    case json
}

/// One choice of a ``ConfigurationDebugControlType/picker(_:)`` control.
public struct ConfigurationDebugChoice<Value: Sendable>: Sendable {
    /// The value this choice selects.
    public var value: Value
    /// The label shown in the picker; `nil` shows the value's wire string.
    public var title: String?

    /// Creates a choice, optionally with a label.
    public init(_ value: Value, title: String? = nil) {
        self.value = value
        self.title = title
    }
}

/// Which kind of number a ``ConfigurationDebugControlType/number(_:_:)`` control edits.
public enum ConfigurationNumberKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Whole numbers.
    case integer
    /// Numbers with a fractional part.
    case floatingPoint
}
