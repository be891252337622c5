import Checkout
import ServiceConfiguration
import ServiceConfigurationTesting
import XCTest

/// The same mock under XCTest: a broken value is an XCTest failure of the running test, and the run goes on.
final class CheckoutXCTests: XCTestCase {
    private var failures: [String] = []

    // Captured so that this suite can check the failure and still pass.
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        failures.append(description)
    }

    func testBrokenValueIsAnXCTestFailure() {
        let mock = MockConfigurationService(scopes: [ConfigurationScopes.Checkout.self])
        mock.checkoutMinimumOrder = MoneyAmount(minorUnits: 100, currency: "eur")
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.contains(
                #"checkout.minimum_order expects MINOR_UNITS CURRENCY such as 2000 EUR, got "100 eur""#) == true)
        mock.checkoutMaxCartItems = 3
        XCTAssertEqual(mock.checkoutMaxCartItems, 3, "the test went on")
    }
}
