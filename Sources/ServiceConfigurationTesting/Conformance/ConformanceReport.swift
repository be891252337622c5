import Foundation

/// What one run of a conformance suite found: each check passed, failed (with what went wrong) or skipped (with
/// why: a capability the backend declared it lacks).
///
/// ```swift
/// let report = await OverrideStoreConformance.run(backend)
/// report.failed(.conflicts)      // false: the check passed, or was skipped
/// report.skipped.map(\.reason)   // ["the backend gives no second instance on the same storage", ...]
/// ```
///
/// A run records each failure with the running test (Swift Testing's `Issue.record`, or `XCTFail`) as it finds it,
/// so a test that only runs a suite fails when the backend does; the report is for tests that look closer.
public struct ConformanceReport<Check>: Sendable, CustomStringConvertible
where Check: RawRepresentable<String> & Hashable & Sendable {
    /// One failed check.
    public struct Failure: Sendable, Hashable {
        /// The check that failed.
        public var check: Check
        /// What went wrong, for people.
        public var message: String
    }

    /// One check that did not run.
    public struct Skip: Sendable, Hashable {
        /// The check that did not run.
        public var check: Check
        /// Why it did not run: the capability the backend lacks.
        public var reason: String
    }

    /// The suite and the backend it ran against (`OverrideStoreConformance on FileOverrideStore`).
    public var title: String
    /// The checks that passed, in the order they ran.
    public internal(set) var passed: [Check] = []
    /// Every failure, in the order found (one check may fail more than once).
    public internal(set) var failures: [Failure] = []
    /// The checks that did not run, with why.
    public internal(set) var skipped: [Skip] = []

    init(title: String) {
        self.title = title
    }

    /// Whether `check` failed.
    public func failed(_ check: Check) -> Bool { failures.contains { $0.check == check } }

    /// The checks that failed, each once, in the order found.
    public var failedChecks: [Check] {
        var seen: Set<Check> = []
        return failures.map(\.check).filter { seen.insert($0).inserted }
    }

    /// One line per check that failed or was skipped, after a summary line.
    public var description: String {
        var lines = ["\(title): \(passed.count) passed, \(failedChecks.count) failed, \(skipped.count) skipped"]
        lines += failures.map { "  failed \($0.check.rawValue): \($0.message)" }
        lines += skipped.map { "  skipped \($0.check.rawValue): \($0.reason)" }
        return lines.joined(separator: "\n")
    }
}

/// Where a conformance suite attributes its failures: the line that ran it.
public struct ConformanceSourceLocation: Sendable {
    var location: TestFailure.Location

    /// The caller's location (the defaults of the suites' `run`).
    public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        location = TestFailure.Location(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// A check that cannot run against this backend; thrown by a check, it becomes a ``ConformanceReport/Skip``.
package struct ConformanceSkip: Error {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

/// Runs checks one after another, collecting what each finds, and reports failures to the running test.
package final class ConformanceRun<Check>
where Check: RawRepresentable<String> & Hashable & Sendable {
    package private(set) var report: ConformanceReport<Check>
    private let recordsFailures: Bool
    private let location: ConformanceSourceLocation
    private var current: Check?

    package init(title: String, recordsFailures: Bool, location: ConformanceSourceLocation) {
        report = ConformanceReport(title: title)
        self.recordsFailures = recordsFailures
        self.location = location
    }

    /// Runs `body` as `check`: passed when it records no failure and throws nothing.
    package func check(_ check: Check, _ body: () async throws -> Void) async {
        current = check
        let before = report.failures.count
        do {
            try await body()
            if report.failures.count == before { report.passed.append(check) }
        } catch let skip as ConformanceSkip {
            if report.failures.count == before {
                report.skipped.append(ConformanceReport.Skip(check: check, reason: skip.reason))
                print("\(report.title): skipped \(check.rawValue): \(skip.reason)")
            }
        } catch {
            fail("threw \(error)")
        }
        current = nil
    }

    /// Records a failure of the running check.
    package func fail(_ message: String) {
        guard let current else { return }
        report.failures.append(ConformanceReport.Failure(check: current, message: message))
        if recordsFailures {
            TestFailure.record("\(report.title): \(current.rawValue): \(message)", at: location.location)
        }
    }

    /// Records `message` as a failure unless `condition` holds; returns `condition`.
    @discardableResult
    package func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> Bool {
        if !condition { fail(message()) }
        return condition
    }
}
