import Foundation

/// The values a number control accepts, and the step `+`/`-` move by in the debug menu: what a key declares with
/// `.number(range:step:)` (integer keys get their type's bounds by default, so an `Int8` key refuses 300).
///
/// ```swift
/// enum RetryDelayKey: ConfigurationKey {
///     static let name = "function.network.retry_delay_sec"
///     static let defaultValue = 5
///     static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 1...60, step: 5) }
/// }
/// ```
///
/// The bounds are the debug tools' rule (the menu's editor, `config-menu set`, a manifest's validation): the
/// program's own decoding of server values is unchanged. They travel as decimal strings, so 64-bit bounds keep every
/// digit in a manifest.
public struct ConfigurationNumberRange: Sendable, Hashable, Codable {
    /// The smallest accepted value, as a decimal string.
    public var minimum: String
    /// The largest accepted value, as a decimal string.
    public var maximum: String
    /// How far `+` and `-` move, as a decimal string.
    public var step: String

    /// Creates a range from decimal strings.
    public init(minimum: String, maximum: String, step: String) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
    }

    /// Why the canonical number `text` is outside the range, or `nil` when it is inside.
    public func problem(with text: String) -> String? {
        guard let value = Decimal(string: text, locale: Self.locale), let low = bound(minimum),
            let high = bound(maximum)
        else { return nil }
        guard value >= low, value <= high else {
            return "expected a number from \(minimum) to \(maximum), got \"\(text)\""
        }
        return nil
    }

    /// `text` moved by `steps` steps (negative: down), kept within the range; `nil` when `text` is not a number.
    public func stepped(_ text: String, by steps: Int, kind: ConfigurationNumberKind) -> String? {
        guard let value = Decimal(string: text, locale: Self.locale), let step = bound(step), let low = bound(minimum),
            let high = bound(maximum)
        else { return nil }
        let moved = min(high, max(low, value + Decimal(steps) * step))
        switch kind {
        case .integer: return NSDecimalNumber(decimal: moved).stringValue
        case .floatingPoint: return Double(truncating: NSDecimalNumber(decimal: moved)).description
        }
    }

    /// "from 1 to 60, step 5", for the details pane and the editor.
    public var description: String { "from \(minimum) to \(maximum), step \(step)" }

    private func bound(_ text: String) -> Decimal? { Decimal(string: text, locale: Self.locale) }

    private static let locale = Locale(identifier: "en_US_POSIX")
}

extension ConfigurationDebugControlType where Value: BinaryInteger {
    /// A number editor that accepts `range` only; `+` and `-` in the menu move by `step`.
    public static func number(range: ClosedRange<Value>, step: Value = 1) -> Self {
        .number(
            .integer,
            ConfigurationNumberRange(
                minimum: String(range.lowerBound), maximum: String(range.upperBound), step: String(step)))
    }
}

extension ConfigurationDebugControlType where Value: BinaryFloatingPoint & LosslessStringConvertible {
    /// A number editor that accepts `range` only; `+` and `-` in the menu move by `step`.
    public static func number(range: ClosedRange<Value>, step: Value) -> Self {
        .number(
            .floatingPoint,
            ConfigurationNumberRange(
                minimum: range.lowerBound.description, maximum: range.upperBound.description, step: step.description))
    }
}

extension ConfigurationNumberRange {
    /// Whether this is the whole range of a 64-bit integer (`Int`, `Int64`, `UInt`, `UInt64`): nothing worth showing.
    public var isWholeInt64: Bool {
        (minimum == String(Int64.min) && maximum == String(Int64.max))
            || (minimum == "0" && maximum == String(UInt64.max))
    }
}
