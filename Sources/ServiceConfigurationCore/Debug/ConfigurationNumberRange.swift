import Foundation

/// The values a number key accepts, and the step `+`/`-` move by in the debug menu: what a key declares with
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
/// The bounds are a value rule, the same for every source and every reader: a server value or an override outside
/// them is rejected with the reason and the key falls back to the next source (server, then default), as a value
/// that fails to decode does; setting an override outside them is refused; a catalog refuses a default outside them.
/// The program's typed read, the string-level resolution, change notifications, the debug menu and `config-menu`
/// agree. They travel as decimal strings, so 64-bit bounds keep every digit in a manifest.
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

    /// Why the canonical number `text` is outside the range, or `nil` when it is inside. Integers are compared
    /// exactly, whatever their size; other numbers as `Double`s. Text that is not a finite number (`nan`, `inf`) is
    /// not inside.
    public func problem(with text: String) -> String? {
        guard let low = Self.compare(text, minimum), low >= 0, let high = Self.compare(text, maximum), high <= 0 else {
            let kind = IntegerText(minimum) != nil && IntegerText(maximum) != nil ? "an integer" : "a number"
            return "expected \(kind) from \(minimum) to \(maximum), got \"\(text)\""
        }
        return nil
    }

    /// The order of two decimal numbers (-1, 0, 1), or `nil` when either is not a finite number.
    static func compare(_ first: String, _ second: String) -> Int? {
        if let first = IntegerText(first), let second = IntegerText(second) { return first.compare(with: second) }
        guard let first = Double(first), let second = Double(second), first.isFinite, second.isFinite else {
            return nil
        }
        return first < second ? -1 : first > second ? 1 : 0
    }

    /// A decimal integer of any size (`-?[0-9]+`), compared exactly.
    private struct IntegerText {
        var negative: Bool
        /// The digits without leading zeros (empty for zero).
        var digits: Substring

        init?(_ text: String) {
            let unsigned = text.hasPrefix("-") ? text.dropFirst() : text[...]
            guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            digits = unsigned.drop { $0 == "0" }
            negative = text.hasPrefix("-") && !digits.isEmpty
        }

        func compare(with other: IntegerText) -> Int {
            if negative != other.negative { return negative ? -1 : 1 }
            let magnitude =
                digits.count != other.digits.count
                ? (digits.count < other.digits.count ? -1 : 1)
                : (digits == other.digits ? 0 : (digits < other.digits ? -1 : 1))
            return negative ? -magnitude : magnitude
        }
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
    /// Bounds for the key's value: a server value or override outside `range` is rejected from every source; `+`
    /// and `-` in the menu move by `step`.
    public static func number(range: ClosedRange<Value>, step: Value = 1) -> Self {
        .number(
            .integer,
            ConfigurationNumberRange(
                minimum: String(range.lowerBound), maximum: String(range.upperBound), step: String(step)))
    }
}

extension ConfigurationDebugControlType where Value: BinaryFloatingPoint & LosslessStringConvertible {
    /// Bounds for the key's value: a server value or override outside `range` is rejected from every source; `+`
    /// and `-` in the menu move by `step`.
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
