import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import Synchronization
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

    /// The issues `body` records: where, and what they say.
    func issues(_ body: () -> Void) -> [(location: SourceLocation, comment: String)] {
        let recorded = Mutex<[(location: SourceLocation, comment: String)]>([])
        withKnownIssue {
            body()
        } matching: { issue in
            recorded.withLock { $0.append((issue.sourceLocation!, issue.comments.map(\.rawValue).joined())) }
            return true
        }
        return recorded.withLock { $0 }
    }

    @Test("a setter's failure is recorded at the caller's line; a property's at the test, never in the library")
    func sourceLocations() throws {
        let mock = MockConfigurationService(scopes: [Keys.self])
        let line = #line + 1
        let byKeyPath = issues { mock.setServerValue(MoneyAmount(minorUnits: 1, currency: "eur"), for: \.price) }
        #expect(byKeyPath.map(\.location.fileID) == [#fileID])
        #expect(byKeyPath.map(\.location.line) == [line])
        // Swift's #column in a default argument is the column of the call's opening parenthesis.
        let source = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")[line - 1]
        let call = try #require(source.range(of: "setServerValue(")).upperBound
        #expect(byKeyPath.map(\.location.column) == [source.distance(from: source.startIndex, to: call)])
        let byType = issues {
            mock.setServerValue(MoneyAmount(minorUnits: 1, currency: "eur"), for: Keys.PriceKey.self)
        }
        #expect(byType.map(\.location.line) == [line + 8])
        // A property setter cannot be given its caller's line (Swift passes none to a dynamic member's setter): its
        // failure is recorded at the running test, in the test's file, and says how to get the line.
        let byProperty = issues { mock.price = MoneyAmount(minorUnits: 2, currency: "eur") }
        let test = try #require(Test.current?.sourceLocation)
        #expect(byProperty.map(\.location.fileID) == [#fileID])
        #expect(byProperty.map(\.location.line) == [test.line])
        #expect(byProperty.first?.comment.contains("setServerValue(_:for:) records it at the line of the call") == true)
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
