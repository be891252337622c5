import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationSyncTesting
import ServiceConfigurationTesting
import SharedTestSupport
import Testing

@Suite("ServerValuesSourceConformance: the HTTP and etcd sources pass; each check fails a source that breaks it")
struct ServerValuesSourceConformanceTests {
    typealias Check = ServerValuesSourceConformance.Check

    @Test("HTTPServerValuesSource passes, against the fixture server; it pushes no changes, so that check is skipped")
    func http() async throws {
        let server = try FixtureHTTPServer()
        let report = await ServerValuesSourceConformance.run(Self.httpBackend(server))
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.check) == [.pushedChange])
        #expect(report.skipped.first?.reason == "the source does not push changes (pushesChanges is false)")
        #expect(report.passed.count == Check.allCases.count - 1)
        withExtendedLifetime(server) {}
    }

    @Test(
        "EtcdServerValuesSource passes every check, against a real etcd",
        .enabled(if: EtcdFixture.available, "etcd is not installed (scripts/setup-debian installs etcd-server)"))
    func etcd() async throws {
        let etcd = try EtcdFixture.shared()
        let prefix = EtcdFixture.prefix("source-conformance")
        let backend = ServerValuesSourceConformance.Backend(
            name: "EtcdServerValuesSource",
            makeSource: { try EtcdServerValuesSource(url: etcd.url(prefix: prefix), environment: [:]) },
            publish: { values in
                // Only what differs, so a watcher never sees the prefix emptied on the way.
                let now = try EtcdFixture.keys(under: prefix, in: etcd)
                for (key, value) in values where now["\(prefix)/\(key)"] != Array(value.utf8) {
                    try EtcdFixture.put(Array(value.utf8), at: "\(prefix)/\(key)", in: etcd)
                }
                for key in now.keys where values[String(key.dropFirst(prefix.count + 1))] == nil {
                    _ = try etcd.etcdctl(["del", key])
                }
            },
            publishInvalid: { try EtcdFixture.put([0x4E, 0xFF], at: "\(prefix)/binary.key", in: etcd) },
            // A watch's event took over 5 s to arrive under ThreadSanitizer in a loaded run.
            timeout: .seconds(5 * timingSlack))
        let report = await ServerValuesSourceConformance.run(backend)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.isEmpty)
        #expect(report.passed == Check.allCases)
    }

    @Test(
        "each check reports, by name, the source that breaks its guarantee",
        arguments: [
            (FaultySource.Fault.dropsAValue, Check.firstFetch),
            (.ignoresValidators, .notModified),
            (.neverSeesChanges, .changedValues),
            (.acceptsInvalid, .refusal),
            (.showsCredentials, .location),
            (.ignoresCancellation, .cancellation),
            (.neverPushes, .pushedChange),
        ])
    func catches(fault: FaultySource.Fault, check: Check) async throws {
        let server = try FixtureHTTPServer()
        var backend = Self.httpBackend(server)
        let makeSource = backend.makeSource
        backend.makeSource = { FaultySource(inner: try await makeSource(), fault: fault) }
        backend.timeout = .seconds(1)
        let report = await ServerValuesSourceConformance.run(backend, checks: [check], recordsFailures: false)
        #expect(report.failedChecks == [check], "\(report)")
        withExtendedLifetime(server) {}
    }

    /// The fixture server's values through an HTTP source whose URL holds a user and password.
    static func httpBackend(_ server: FixtureHTTPServer) -> ServerValuesSourceConformance.Backend {
        let folder = server.folder
        var components = URLComponents(url: server.url(), resolvingAgainstBaseURL: false)!
        components.user = "qa"
        components.password = "s3cret-password"
        let url = components.url!
        return ServerValuesSourceConformance.Backend(
            name: "HTTPServerValuesSource",
            makeSource: { HTTPServerValuesSource(url: url, timeout: .seconds(10)) },
            publish: { values in
                let data = try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])
                try data.write(to: folder.appendingPathComponent("values.json"), options: .atomic)
                try Data().write(to: folder.appendingPathComponent("mode"), options: .atomic)
            },
            publishInvalid: {
                try Data("number".utf8).write(to: folder.appendingPathComponent("mode"), options: .atomic)
            },
            credentials: ["s3cret-password"])
    }
}

/// A source that breaks one guarantee of the one it wraps, to show that the check of it can fail.
struct FaultySource: ServerValuesSource {
    enum Fault: Sendable, CaseIterable {
        /// Leaves one value out of every fetch.
        case dropsAValue
        /// Fetches as if no validators were given.
        case ignoresValidators
        /// Answers "not modified" to every fetch with validators.
        case neverSeesChanges
        /// Answers an invalid response with no values instead of refusing it.
        case acceptsInvalid
        /// Shows the URL with its password as the location.
        case showsCredentials
        /// Waits 3 s whatever happens, cancellation included.
        case ignoresCancellation
        /// Says it pushes changes, and never reports one.
        case neverPushes
    }

    let inner: any ServerValuesSource
    let fault: Fault

    var location: String {
        fault == .showsCredentials ? "http://qa:s3cret-password@127.0.0.1/values.json" : inner.location
    }

    var pushesChanges: Bool { fault == .neverPushes || fault == .ignoresCancellation || inner.pushesChanges }

    func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError) -> ServerValuesFetch {
        switch fault {
        case .ignoresValidators:
            return try await inner.fetch(ifChangedSince: ServerValuesValidators())
        case .neverSeesChanges where !validators.isEmpty:
            return .notModified(validators: validators)
        case .acceptsInvalid:
            do {
                return try await inner.fetch(ifChangedSince: validators)
            } catch  where error.kind == .invalidResponse {
                return .values([:], validators: validators)
            }
        case .dropsAValue:
            let fetched = try await inner.fetch(ifChangedSince: validators)
            guard case .values(var values, let next) = fetched, let first = values.keys.sorted().first else {
                return fetched
            }
            values[first] = nil
            return .values(values, validators: next)
        default:
            return try await inner.fetch(ifChangedSince: validators)
        }
    }

    func waitForChange(after validators: ServerValuesValidators) async throws(ServerSyncError) {
        switch fault {
        case .ignoresCancellation:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 3) { continuation.resume() }
            }
        case .neverPushes:
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
            throw ServerSyncError(kind: .cancelled, reason: "cancelled")
        default:
            try await inner.waitForChange(after: validators)
        }
    }
}
