import Foundation

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Reports a failure to whichever test runner is running the current test, and lets the test go on.
///
/// Under Swift Testing (a test is current) the failure is an `Issue.record`; otherwise it is an `XCTFail`, which
/// XCTest attributes to the running test case. Outside any test both do nothing, so the message also goes to
/// standard error. Nothing here stops the process: one broken codec fails one test, and the others still report.
package enum TestFailure {
    /// Where a failure is attributed: the caller of the mock's API.
    package struct Location: Sendable {
        var fileID: StaticString
        var filePath: StaticString
        var line: UInt
        var column: UInt
    }

    /// Records `message` at `location`, the caller of the mock's API; without one (a property's setter, which Swift
    /// gives no caller location) at the running test's declaration under Swift Testing, and on the running test
    /// case under XCTest.
    package static func record(_ message: String, at location: Location?) {
        #if canImport(Testing)
            if let test = Test.current {
                let sourceLocation =
                    location.map {
                        SourceLocation(
                            fileID: "\($0.fileID)", filePath: "\($0.filePath)", line: Int($0.line),
                            column: Int($0.column))
                    } ?? test.sourceLocation
                Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
                return
            }
        #endif
        #if canImport(XCTest)
            if let location {
                XCTFail(message, file: location.filePath, line: location.line)
            } else {
                XCTFail(message)
            }
        #endif
        let place = location.map { "\($0.fileID):\($0.line): " } ?? ""
        FileHandle.standardError.write(Data("\(place)error: \(message)\n".utf8))
    }
}
