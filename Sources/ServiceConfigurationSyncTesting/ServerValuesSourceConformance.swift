import Foundation
import ServiceConfigurationCore
public import ServiceConfigurationSync
public import ServiceConfigurationTesting

/// The checks every `ServerValuesSource` must pass, for a source of this package or of your own: run them from
/// your tests against your backend, with closures that change what the backend serves.
///
/// ```swift
/// @Test func conformance() async throws {
///     let server = try MyValuesServer.start()
///     let backend = ServerValuesSourceConformance.Backend(
///         name: "MyValuesSource",
///         makeSource: { MyValuesSource(url: server.url(user: "qa", password: "secret")) },
///         publish: { values in try server.serve(values) },
///         publishInvalid: { try server.serve(raw: #"{"flag": 1}"#) },
///         credentials: ["secret"])
///     await ServerValuesSourceConformance.run(backend)   // each failed check is a test failure naming it
/// }
/// ```
///
/// The checks run in order against one source; each publishes the values it needs first. A source that does not
/// push changes (`ServerValuesSource/pushesChanges` is false) skips ``Check/pushedChange`` with the reason
/// printed and listed in the report's `ConformanceReport/skipped`.
public enum ServerValuesSourceConformance {
    /// One check of the suite.
    public enum Check: String, Sendable, Hashable, CaseIterable {
        /// A first fetch (no validators) brings exactly the values published (as `ServerValuesFetch/values(_:validators:)`
        /// or, from an evaluating source, `ServerValuesFetch/evaluated(_:evaluations:validators:)`), with validators
        /// to send next time.
        case firstFetch
        /// A fetch with the validators of the last one is `ServerValuesFetch/notModified(validators:)` when
        /// nothing changed.
        case notModified
        /// A fetch with the validators of the last one brings the new values when something changed.
        case changedValues
        /// A response that is not entirely valid is refused whole: `ServerSyncError/Kind/invalidResponse` with a
        /// reason, no values; the next valid response is accepted again.
        case refusal
        /// `ServerValuesSource/location` holds no credentials (no user or password, none of the backend's
        /// secrets).
        case location
        /// `ServerValuesSource/waitForChange(after:)` returns promptly when its task is cancelled.
        case cancellation
        /// A pushing source's `ServerValuesSource/waitForChange(after:)` returns after a change is published.
        case pushedChange
    }

    /// How the suite reaches a backend: a source, and closures that change what it serves.
    public struct Backend: Sendable {
        /// The backend's name, in every failure message.
        public var name: String
        /// The source under test (made once per run; its server already running).
        public var makeSource: @Sendable () async throws -> any ServerValuesSource
        /// Makes the backend serve `values` from now on.
        public var publish: @Sendable ([String: String]) async throws -> Void
        /// Makes the backend serve a response that is not entirely valid (a value that is not a string, bytes
        /// that are not UTF-8, ...); `nil` when it cannot (``Check/refusal`` is then skipped).
        public var publishInvalid: (@Sendable () async throws -> Void)?
        /// Texts that must never appear in `ServerValuesSource/location`: the passwords and tokens the source was
        /// given.
        public var credentials: [String]
        /// How long `ServerValuesSource/waitForChange(after:)` may take to return after a change or a
        /// cancellation.
        public var timeout: Duration

        /// Describes a backend.
        public init(
            name: String,
            makeSource: @escaping @Sendable () async throws -> any ServerValuesSource,
            publish: @escaping @Sendable ([String: String]) async throws -> Void,
            publishInvalid: (@Sendable () async throws -> Void)? = nil,
            credentials: [String] = [],
            timeout: Duration = .seconds(5)
        ) {
            self.name = name
            self.makeSource = makeSource
            self.publish = publish
            self.publishInvalid = publishInvalid
            self.credentials = credentials
            self.timeout = timeout
        }
    }

    /// Runs `checks` (all by default) against `backend`, recording each failure with the running test (Swift
    /// Testing or XCTest) at the caller's line unless `recordsFailures` is false; returns what each check found.
    @discardableResult
    public static func run(
        _ backend: Backend,
        checks: [Check] = Check.allCases,
        recordsFailures: Bool = true,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) async -> ConformanceReport<Check> {
        let run = ConformanceRun<Check>(
            title: "ServerValuesSourceConformance on \(backend.name)", recordsFailures: recordsFailures,
            location: ConformanceSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        let source: any ServerValuesSource
        do {
            source = try await backend.makeSource()
        } catch {
            for check in checks { await run.check(check) { throw error } }
            return run.report
        }
        let checker = SourceChecker(backend: backend, source: source, run: run)
        for check in checks {
            await run.check(check) { try await checker.run(check) }
        }
        return run.report
    }
}

/// The checks' code.
struct SourceChecker {
    typealias Check = ServerValuesSourceConformance.Check
    let backend: ServerValuesSourceConformance.Backend
    let source: any ServerValuesSource
    let run: ConformanceRun<Check>

    func run(_ check: Check) async throws {
        switch check {
        case .firstFetch: try await firstFetch()
        case .notModified: try await notModified()
        case .changedValues: try await changedValues()
        case .refusal: try await refusal()
        case .location: location()
        case .cancellation: try await cancellation()
        case .pushedChange: try await pushedChange()
        }
    }

    /// Publishes `values` and fetches them with no validators; `nil` (a failure recorded) when that fails.
    private func published(_ values: [String: String]) async throws -> ServerValuesValidators? {
        try await backend.publish(values)
        let fetched = try await source.fetch(ifChangedSince: ServerValuesValidators())
        guard fetched.values == values else {
            run.fail("a first fetch after publishing \(values) brought \(fetched)")
            return nil
        }
        return fetched.validators
    }

    private func firstFetch() async throws {
        let values = ["conformance.flag": "Y", "conformance.count": "5", "conformance.text": "é \" \\ {}"]
        guard let validators = try await published(values) else { return }
        run.expect(!validators.isEmpty, "a fetch of values brought no validators to send next time")
    }

    private func notModified() async throws {
        guard let validators = try await published(["conformance.flag": "Y"]) else { return }
        let second = try await source.fetch(ifChangedSince: validators)
        guard case .notModified = second else {
            run.fail("a second fetch with the first's validators, nothing changed, brought \(second), not notModified")
            return
        }
    }

    private func changedValues() async throws {
        guard let validators = try await published(["conformance.flag": "Y", "conformance.count": "1"]) else { return }
        let changed = ["conformance.flag": "N", "conformance.added": "new"]
        try await backend.publish(changed)
        let fetched = try await source.fetch(ifChangedSince: validators)
        let next = fetched.validators
        guard fetched.values == changed else {
            run.fail("after a change, a fetch with the old validators brought \(fetched), not the values \(changed)")
            return
        }
        run.expect(next != validators, "the validators of changed values are the same as before the change: \(next)")
    }

    private func refusal() async throws {
        guard let publishInvalid = backend.publishInvalid else {
            throw ConformanceSkip("the backend cannot publish an invalid response (publishInvalid)")
        }
        guard let validators = try await published(["conformance.flag": "Y"]) else { return }
        try await publishInvalid()
        for (name, sent) in [("no validators", ServerValuesValidators()), ("the last validators", validators)] {
            do {
                let fetched = try await source.fetch(ifChangedSince: sent)
                run.fail("a response that is not valid, fetched with \(name), was accepted: \(fetched)")
            } catch {
                run.expect(
                    error.kind == .invalidResponse && !error.reason.isEmpty,
                    "a response that is not valid was refused as \(error.kind.rawValue) (\"\(error.reason)\"), not "
                        + "invalidResponse with a reason")
            }
        }
        let good = ["conformance.flag": "N"]
        try await backend.publish(good)
        let fetched = try await source.fetch(ifChangedSince: validators)
        guard fetched.values == good else {
            run.fail("after a refused response, valid values again were fetched as \(fetched)")
            return
        }
    }

    private func location() {
        let location = source.location
        run.expect(!location.isEmpty, "the location is empty")
        if let components = URLComponents(string: location) {
            run.expect(
                components.user == nil && components.password == nil,
                "the location \(location) holds a user or password")
        }
        for secret in backend.credentials where !secret.isEmpty {
            run.expect(!location.contains(secret), "the location \(location) holds a credential")
        }
    }

    private func cancellation() async throws {
        guard let validators = try await published(["conformance.flag": "Y"]) else { return }
        let source = source
        let task = Task { try await source.waitForChange(after: validators) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let returned = await finishes(within: backend.timeout) { _ = await task.result }
        run.expect(
            returned, "waitForChange(after:) did not return within \(backend.timeout) of its task's cancellation")
    }

    private func pushedChange() async throws {
        guard source.pushesChanges else {
            throw ConformanceSkip("the source does not push changes (pushesChanges is false)")
        }
        guard let validators = try await published(["conformance.flag": "Y"]) else { return }
        let source = source
        let task = Task { try await source.waitForChange(after: validators) }
        try await Task.sleep(for: .milliseconds(300))
        try await backend.publish(["conformance.flag": "N"])
        let returned = await finishes(within: backend.timeout) { _ = await task.result }
        task.cancel()
        guard run.expect(returned, "waitForChange(after:) did not return within \(backend.timeout) of a change") else {
            return
        }
        if case .failure(let error) = await task.result {
            run.fail("waitForChange(after:) threw \(error) after a change, instead of returning")
        }
        let fetched = try await source.fetch(ifChangedSince: validators)
        guard fetched.values == ["conformance.flag": "N"] else {
            run.fail("after waitForChange(after:) returned, a fetch brought \(fetched), not the change")
            return
        }
    }
}

/// Whether `body` finishes within `timeout`; a body that does not is left running (it cannot be stopped here).
func finishes(within timeout: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    let done = SharedValue(false)
    let task = Task {
        await body()
        done.withLock { $0 = true }
    }
    _ = task
    return await poll(within: timeout) { done.withLock { $0 } }
}
