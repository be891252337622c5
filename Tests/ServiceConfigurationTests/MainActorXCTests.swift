import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationTesting
import XCTest

/// The form of a main-actor XCTest that works with swift-corelibs-xctest on Linux (see the README's "Test with the
/// mock"): a `@MainActor` test case whose tests are `async`, set up in `setUp() async throws`. A *synchronous*
/// main-actor test method (in a `@MainActor` class without async tests, or marked `@MainActor` itself) aborts the
/// whole test run on Linux while tests are listed ("Could not cast value of type '(…) -> @MainActor () -> ()'"), so
/// it cannot be shown here.
@MainActor
final class MainActorMockXCTests: XCTestCase {
    private var mock = MockConfigurationService()

    override func setUp() async throws {
        mock = MockConfigurationService(scopes: [ConfigurationScopes.Fixture.self])
    }

    func testTheMockOnTheMainActor() async throws {
        MainActor.assertIsolated()
        mock.flag = true
        XCTAssertTrue(mock.flag)
        try mock.setOverride(false, for: \.flag)
        XCTAssertEqual(mock.resolution(of: \.flag).source, .overridden)
    }

    func testChangesOnTheMainActor() async throws {
        var changes = mock.changes(of: \.count).makeAsyncIterator()
        mock.count = 9
        let next = await changes.next()
        XCTAssertEqual(next, 9)
    }
}
