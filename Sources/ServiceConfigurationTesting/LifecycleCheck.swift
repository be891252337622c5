public import Foundation
public import ServiceConfigurationCore

extension ConfigurationCatalog {
    /// Fails the running test once for each key whose removal is past due (`ConfigurationKeyLifecycle.removeBy`),
    /// naming the key, its owner and ticket, and returns whether none is.
    ///
    /// Run it in the app's tests so the reminder reaches code review when the day (or the version) comes, instead of
    /// a flag living on forever:
    ///
    /// ```swift
    /// @Test func noFlagIsPastDue() throws {
    ///     let catalog = try AppConfiguration.makeCatalog()
    ///     catalog.expectNoKeyPastDue(version: ProgramVersion(Bundle.main.shortVersion))
    /// }
    /// ```
    ///
    /// A day is due from its start in UTC; a version due counts only when `version` is given. The failure is
    /// reported to Swift Testing or XCTest, whichever runs the test (and to standard error), at the caller's line.
    ///
    /// - Parameters:
    ///   - now: The moment to judge at; default: now.
    ///   - version: The version the app is built as, for keys due at a version; `nil` leaves them out.
    ///   - fileID: The caller's file, for the failure's location.
    ///   - filePath: The caller's file path, for the failure's location.
    ///   - line: The caller's line, for the failure's location.
    ///   - column: The caller's column, for the failure's location.
    /// - Returns: `true` when no key is past due.
    @discardableResult
    public func expectNoKeyPastDue(
        at now: Date = Date(), version: ProgramVersion? = nil, fileID: StaticString = #fileID,
        filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Bool {
        let pastDue = keysPastDue(at: now, version: version)
        let location = TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        for (key, _) in pastDue {
            let facts = key.lifecycle.summary(at: now, version: version) ?? ""
            TestFailure.record(
                "The configuration key \(VisibleText.escaped(key.name)) (\(key.scopeName)) is past its removal: "
                    + "\(facts). Remove the key and the code that reads it, or move its removeBy if the plan changed",
                at: location)
        }
        return pastDue.isEmpty
    }
}
