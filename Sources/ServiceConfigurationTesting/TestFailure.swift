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
enum TestFailure {
    /// Where a failure is attributed: the caller of the mock's API.
    struct Location: Sendable {
        var fileID: StaticString
        var filePath: StaticString
        var line: UInt
        var column: UInt
    }

    static func record(_ message: String, at location: Location) {
        #if canImport(Testing)
            if Test.current != nil {
                Issue.record(
                    Comment(rawValue: message),
                    sourceLocation: SourceLocation(
                        fileID: "\(location.fileID)", filePath: "\(location.filePath)", line: Int(location.line),
                        column: Int(location.column))
                )
                return
            }
        #endif
        #if canImport(XCTest)
            XCTFail(message, file: location.filePath, line: location.line)
        #endif
        FileHandle.standardError.write(Data("\(location.fileID):\(location.line): error: \(message)\n".utf8))
    }
}
