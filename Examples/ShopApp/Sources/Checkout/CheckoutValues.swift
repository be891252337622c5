import ServiceConfiguration

/// The checkout flows the server can choose between.
public enum CheckoutFlow: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    case classic
    case oneTap = "one_tap"
    case express
}

/// An amount of money on the wire as `"<minor units> <ISO currency>"`, for example `"2000 EUR"`.
public struct MoneyAmount: Hashable, Sendable, ConfigurationValueStringRepresentable {
    /// The amount in the currency's minor unit (cents).
    public var minorUnits: Int
    /// The ISO 4217 code, upper case.
    public var currency: String

    /// Creates an amount.
    public init(minorUnits: Int, currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Parses `"2000 EUR"`.
    public init?(configurationValueString string: String) {
        let parts = string.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let amount = Int(parts[0]), amount >= 0, parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isUppercase })
        else { return nil }
        self.init(minorUnits: amount, currency: String(parts[1]))
    }

    /// `"2000 EUR"`.
    public var configurationValueString: String { "\(minorUnits) \(currency)" }

    /// For error messages.
    public static let configurationValueFormat = "MINOR_UNITS CURRENCY such as 2000 EUR"

    /// The shape a tool that does not link this module can check (`config-menu --manifest`).
    public static let configurationValuePattern = ConfigurationValuePattern(
        "[0-9]{1,15} [A-Z]{3}", format: configurationValueFormat)
}

/// Shipping prices: free above an order total, otherwise a price per country, in minor units.
public struct ShippingRules: Codable, Hashable, Sendable, ConfigurationValueJSONRepresentable {
    /// Orders from this total ship free.
    public var freeAbove: Int
    /// The shipping price per country code.
    public var countries: [String: Int]

    /// Creates rules.
    public init(freeAbove: Int, countries: [String: Int]) {
        self.freeAbove = freeAbove
        self.countries = countries
    }
}
