import ServiceConfiguration

/// The checkout screen's logic. It depends on its own scope only, through a live view: it always reads the latest
/// values, cannot reach another module's keys, and tests hand it a view of the mock.
public struct CheckoutModel: Sendable {
    private let configuration: ScopedConfiguration<ConfigurationScopes.Checkout>

    /// Creates the model: `CheckoutModel(configuration: service.scoped(to: ConfigurationScopes.Checkout.self))`.
    public init(configuration: ScopedConfiguration<ConfigurationScopes.Checkout>) {
        self.configuration = configuration
    }

    /// The payment methods offered, in order.
    public var paymentMethods: [String] {
        var methods = ["card"]
        if configuration.checkoutApplePayEnabled { methods.insert("apple-pay", at: 0) }
        if configuration.isEnabled(\.checkoutExpressTest) { methods.insert("express", at: 0) }
        return methods
    }

    /// Whether a cart of `items` items totalling `total` (minor units) can be ordered; the reason when not.
    public func check(items: Int, total: Int) -> String? {
        if items > configuration.checkoutMaxCartItems {
            return "at most \(configuration.checkoutMaxCartItems) items"
        }
        let minimum = configuration.checkoutMinimumOrder
        if total < minimum.minorUnits { return "the minimum order is \(minimum.configurationValueString)" }
        return nil
    }

    /// The shipping price for `country` at `total`; `nil` where the shop does not ship.
    public func shipping(to country: String, total: Int) -> Int? {
        let rules = configuration.checkoutShippingRules
        if total >= rules.freeAbove { return 0 }
        return rules.countries[country]
    }

    /// The service fee for `total`, rounded to a minor unit.
    public func fee(for total: Int) -> Int {
        Int((Double(total) * configuration.checkoutServiceFeeRate).rounded())
    }
}
