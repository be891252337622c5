import ServiceConfiguration
import ServiceConfigurationTesting
import Testing
import XCTest

extension ConfigurationScopes {
    /// A key whose codec is broken the way real ones are: the encoding does not decode back.
    struct BrokenCodec: ConfigurationScope {
        let price: PriceKey
        enum PriceKey: ConfigurationKey {
            static let name = "test.broken.price"
            static let defaultValue = MoneyAmount(minorUnits: 0, currency: "EUR")
        }
    }
}

extension ConfigurationDynamicLookup {
    subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.BrokenCodec, K>) -> K {
        self[K.self]
    }
}

@Suite("The mock reports a broken codec as a test failure and keeps going")
struct MockFailureTests {
    typealias Keys = ConfigurationScopes.BrokenCodec

    @Test("under Swift Testing: one issue naming the key and the reason; the test and the process go on")
    func swiftTesting() {
        let mock = MockConfigurationService(scopes: [Keys.self])
        var continued = false
        withKnownIssue {
            mock.price = MoneyAmount(minorUnits: 100, currency: "eur")
            continued = true
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                #"MockConfigurationService: test.broken.price expects AMOUNT CURRENCY such as 20 EUR, got "100 eur""#)
        }
        #expect(continued)
        // The value went out as production would send it: rejected, the default used, the reason kept.
        let resolution = mock.resolution(of: \.price)
        #expect(resolution.source == .default)
        #expect(resolution.rejections.map(\.rawValue) == ["100 eur"])
        mock.price = MoneyAmount(minorUnits: 250, currency: "USD")
        #expect(mock.price == MoneyAmount(minorUnits: 250, currency: "USD"))
    }

    @Test("scopes that cannot form a catalog are an issue, not a crash")
    func badScopes() {
        withKnownIssue {
            let mock = MockConfigurationService(scopes: [
                ConfigurationScopes.Fixture.self, ConfigurationScopes.SameProperty.self,
            ])
            #expect(mock.resolution(forKeyNamed: ConfigurationScopes.Fixture.FlagKey.name) != nil)
        }
    }
}

/// The same failure under XCTest: recorded on the running test case (captured here so the suite stays green).
final class MockFailureXCTests: XCTestCase {
    private var recorded: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        recorded.append("\(URL(fileURLWithPath: filePath).lastPathComponent):\(lineNumber): \(description)")
    }

    func testBrokenCodecIsAnXCTestFailure() {
        let mock = MockConfigurationService(scopes: [ConfigurationScopes.BrokenCodec.self])
        let line = #line + 1
        mock.setServerValue(MoneyAmount(minorUnits: 100, currency: "eur"), for: \.price)
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(
            recorded.first,
            #"MockFailureTests.swift:\#(line): failed - MockConfigurationService: test.broken.price expects AMOUNT CURRENCY such as 20 EUR, got "100 eur""#
        )
        XCTAssertEqual(mock.resolution(of: \.price).source, .default, "the test went on")
    }
}
