import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationSyncTesting
import ServiceConfigurationTesting
import SharedTestSupport
import Testing

/// Keys of a program that takes its server values from an OFREP server.
extension ConfigurationScopes {
    struct OFREPFixture: ConfigurationScope {
        let newFlow: NewFlowKey
        enum NewFlowKey: ConfigurationKey {
            static let name = "checkout.new-flow"
            static let defaultValue = false
        }

        let darkMode: DarkModeKey
        enum DarkModeKey: ConfigurationKey {
            static let name = "ui.dark-mode"
            static let defaultValue = false
            static let boolEncoding = ConfigurationBoolEncoding.trueFalse
        }

        let retries: RetriesKey
        enum RetriesKey: ConfigurationKey {
            static let name = "net.retries"
            static let defaultValue = 3
        }

        let banner: BannerKey
        enum BannerKey: ConfigurationKey {
            static let name = "ui.banner"
            static let defaultValue = "none"
        }

        let limits: LimitsKey
        enum LimitsKey: ConfigurationKey {
            static let name = "net.limits"
            static let defaultValue = OFREPLimits(maximum: 1, tags: [])
        }
    }
}

struct OFREPLimits: Codable, Hashable, ConfigurationValueJSONRepresentable {
    var maximum: Int
    var tags: [String]
}

/// The OFREP source against a real OFREP server (fast-feature, started by each test on a free loopback port), and
/// against a small standard-library server for what fast-feature cannot be made to do (429, a body that is not an
/// OFREP answer).
@Suite(
    "OFREP source: typed values through each key's codec, targeting on the context, ETag/304, failures",
    .serialized)
struct OFREPServerValuesSourceTests {
    typealias Keys = ConfigurationScopes.OFREPFixture
    static let catalog = Result { try ConfigurationCatalog(scopes: [Keys.self]) }
    static var japan: [String: Any] { ["if": [["==": [["var": "country"], "JP"]], "on", NSNull()]] }

    /// fast-feature, or a failure naming scripts/setup-debian when it is not installed.
    static func server() throws -> OFREPTestServer {
        if let reason = OFREPTestServer.unavailableReason { throw FixtureError(reason) }
        return try OFREPTestServer.start()
    }

    static func source(
        _ server: OFREPTestServer, targetingKey: String? = "user-1", _ attributes: [String: String] = [:],
        catalog: Bool = true
    ) throws -> OFREPServerValuesSource {
        OFREPServerValuesSource(
            baseURL: server.baseURL,
            context: OFREPEvaluationContext(targetingKey: targetingKey, attributes: attributes),
            catalog: catalog ? try Self.catalog.get() : nil, timeout: .seconds(10))
    }

    static func fetched(_ source: OFREPServerValuesSource) async throws -> (
        [String: String], [String: ServerValueEvaluation], ServerValuesValidators
    ) {
        let fetched = try await source.fetch(ifChangedSince: ServerValuesValidators())
        guard case .evaluated(let values, let evaluations, let validators) = fetched else {
            throw FixtureError("expected an evaluation, got \(fetched)")
        }
        return (values, evaluations, validators)
    }

    @Test("the 'not installed' message names scripts/setup-debian")
    func missingServerIsNamed() {
        let reason = "\(OFREPTestServer.binary) is missing; run scripts/setup-debian"
        #expect(OFREPTestServer.unavailableReason == nil || OFREPTestServer.unavailableReason!.contains(reason))
    }

    @Test("a targeting rule on the context: country JP gets 'on', another country the default; variant and reason kept")
    func targeting() async throws {
        let server = try Self.server()
        try server.setFlag(
            Keys.NewFlowKey.name, variants: ["on": true, "off": false], defaultVariant: "off", targeting: Self.japan)
        let (japan, japanEvaluations, _) = try await Self.fetched(try Self.source(server, ["country": "JP"]))
        let (france, franceEvaluations, _) = try await Self.fetched(try Self.source(server, ["country": "FR"]))
        #expect(japan == [Keys.NewFlowKey.name: "Y"])
        #expect(france == [Keys.NewFlowKey.name: "N"])
        #expect(
            japanEvaluations[Keys.NewFlowKey.name] == ServerValueEvaluation(variant: "on", reason: "TARGETING_MATCH"))
        #expect(franceEvaluations[Keys.NewFlowKey.name] == ServerValueEvaluation(variant: "off", reason: "DEFAULT"))
        #expect(japanEvaluations[Keys.NewFlowKey.name]?.summary == "variant on · TARGETING_MATCH")

        // Through a sync into a service: the typed read is the targeted value.
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(catalog: try Self.catalog.get())
        let sync = ServerValuesSync(
            source: try Self.source(server, ["country": "JP"]), service: service,
            snapshotURL: SyncFixture.snapshotURL(in: folder), environment: .live)
        #expect(await sync.sync() == .updated(previousValues: [Keys.NewFlowKey.name: nil]))
        #expect(service[Keys.NewFlowKey.self] == true)
        #expect(sync.status.evaluations[Keys.NewFlowKey.name]?.reason == "TARGETING_MATCH")
    }

    @Test("typed values become wire strings through each key's codec: Bool encodings, numbers, strings, canonical JSON")
    func typedValues() async throws {
        let server = try Self.server()
        try server.setFlag(Keys.NewFlowKey.name, variants: ["on": true], defaultVariant: "on")
        try server.setFlag(Keys.DarkModeKey.name, variants: ["on": true], defaultVariant: "on")
        try server.setFlag(Keys.RetriesKey.name, variants: ["five": 5], defaultVariant: "five")
        try server.setFlag(Keys.BannerKey.name, variants: ["sale": "Winter sale"], defaultVariant: "sale")
        try server.setFlag(
            Keys.LimitsKey.name, variants: ["big": ["tags": ["a", "b/c"], "maximum": 10]], defaultVariant: "big")
        try server.setFlag("not.in.catalog", variants: ["on": false, "x": 0.25], defaultVariant: "on")
        let (values, evaluations, validators) = try await Self.fetched(try Self.source(server))
        #expect(
            values == [
                Keys.NewFlowKey.name: "Y", Keys.DarkModeKey.name: "true", Keys.RetriesKey.name: "5",
                Keys.BannerKey.name: "Winter sale", Keys.LimitsKey.name: #"{"maximum":10,"tags":["a","b/c"]}"#,
                "not.in.catalog": "N",
            ])
        #expect(evaluations.values.allSatisfy { $0.reason == "STATIC" && $0.errorCode == nil })
        #expect(validators.etag != nil)

        let service = LiveConfigurationService(serverValues: values, catalog: try Self.catalog.get())
        #expect(service[Keys.DarkModeKey.self] == true)
        #expect(service[Keys.RetriesKey.self] == 5)
        #expect(service[Keys.LimitsKey.self] == OFREPLimits(maximum: 10, tags: ["a", "b/c"]))
        #expect(service.resolution(of: Keys.LimitsKey.self).rejections.isEmpty)

        // Without the catalog a boolean is Y/N, which the trueFalse key then refuses when read.
        let (plain, _, _) = try await Self.fetched(try Self.source(server, catalog: false))
        #expect(plain[Keys.DarkModeKey.name] == "Y")
    }

    @Test("ETag: the second sync sends If-None-Match and the server answers 304; a change brings a 200 again")
    func notModified() async throws {
        let server = try Self.server()
        try server.setFlag(Keys.BannerKey.name, variants: ["a": "one"], defaultVariant: "a")
        let folder = TemporaryFolder()
        let sync = ServerValuesSync(
            source: try Self.source(server), service: nil, snapshotURL: SyncFixture.snapshotURL(in: folder),
            environment: .live)
        #expect(await sync.sync() == .updated(previousValues: [Keys.BannerKey.name: nil]))
        let etag = try #require(sync.status.validators.etag)
        #expect(await sync.sync() == .notModified)
        #expect(sync.status.validators.etag == etag)
        #expect(sync.status.state.name == "fresh")
        try server.setFlag(Keys.BannerKey.name, variants: ["a": "two"], defaultVariant: "a")
        #expect(await sync.sync() == .updated(previousValues: [Keys.BannerKey.name: "one"]))
        #expect(sync.values == [Keys.BannerKey.name: "two"])
        #expect(server.evaluationStatuses() == [200, 304, 200], "fast-feature's own access log")
    }

    @Test("unknown flags: a catalog key the server does not serve keeps its default; a flag the catalog lacks is kept")
    func unknownFlags() async throws {
        let server = try Self.server()
        try server.setFlag("other.flag", variants: ["v": "x"], defaultVariant: "v")
        let (values, _, _) = try await Self.fetched(try Self.source(server))
        #expect(values == ["other.flag": "x"])
        let service = LiveConfigurationService(serverValues: values, catalog: try Self.catalog.get())
        #expect(service.resolution(of: Keys.NewFlowKey.self).source == .default)
    }

    @Test(
        "a per-flag errorCode (fast-feature's PARSE_ERROR) is no server value: the key falls back, the reason is kept")
    func perFlagError() async throws {
        let server = try Self.server()
        try server.setFlag(
            Keys.NewFlowKey.name, variants: ["on": true, "off": false], defaultVariant: "off",
            targeting: ["if": [true, "missing-variant", NSNull()]])
        try server.setFlag(Keys.BannerKey.name, variants: ["a": "fine"], defaultVariant: "a")
        let folder = TemporaryFolder()
        let service = LiveConfigurationService(
            serverValues: [Keys.NewFlowKey.name: "Y"], catalog: try Self.catalog.get())
        let sync = ServerValuesSync(
            source: try Self.source(server), service: service, snapshotURL: SyncFixture.snapshotURL(in: folder),
            environment: .live)
        _ = await sync.sync()
        #expect(sync.values == [Keys.BannerKey.name: "fine"])
        #expect(service[Keys.NewFlowKey.self] == false)
        #expect(service.resolution(of: Keys.NewFlowKey.self).source == .default)
        let evaluation = try #require(sync.status.evaluations[Keys.NewFlowKey.name])
        #expect(evaluation.errorCode == "PARSE_ERROR")
        #expect(evaluation.rejection?.hasPrefix("PARSE_ERROR: targeting resolved to 'missing-variant'") == true)
    }

    @Test("a type mismatch (a boolean for a String key, a number for a Bool key) is TYPE_MISMATCH with the reason")
    func typeMismatch() async throws {
        let server = try Self.server()
        try server.setFlag(Keys.BannerKey.name, variants: ["on": true], defaultVariant: "on")
        try server.setFlag(Keys.NewFlowKey.name, variants: ["one": 1], defaultVariant: "one")
        try server.setFlag(Keys.RetriesKey.name, variants: ["list": [1, 2]], defaultVariant: "list")
        let (values, evaluations, _) = try await Self.fetched(try Self.source(server))
        #expect(values.isEmpty)
        #expect(
            evaluations[Keys.BannerKey.name]?.rejection
                == "TYPE_MISMATCH: the server sent a boolean; the key holds String")
        #expect(
            evaluations[Keys.NewFlowKey.name]?.rejection
                == "TYPE_MISMATCH: the server sent the number 1; the key holds a Bool")
        #expect(
            evaluations[Keys.RetriesKey.name]?.rejection == "TYPE_MISMATCH: the server sent an array; the key holds Int"
        )
        #expect(evaluations[Keys.BannerKey.name]?.variant == "on", "the variant is kept beside the error")
    }

    @Test("a value the key rejects is a server rejection with the key's reason; the key falls back to its default")
    func valueTheKeyRejects() async throws {
        let server = try Self.server()
        try server.setFlag(Keys.NewFlowKey.name, variants: ["odd": "maybe"], defaultVariant: "odd")
        try server.setFlag(Keys.RetriesKey.name, variants: ["half": 2.5], defaultVariant: "half")
        let (values, _, _) = try await Self.fetched(try Self.source(server))
        #expect(values == [Keys.NewFlowKey.name: "maybe", Keys.RetriesKey.name: "2.5"])
        let service = LiveConfigurationService(serverValues: values, catalog: try Self.catalog.get())
        let resolution = service.resolution(of: Keys.NewFlowKey.self)
        #expect(resolution.value == false && resolution.source == .default)
        #expect(resolution.rejections.map(\.description) == [#"server value rejected: expected Y or N, got "maybe""#])
        #expect(service.resolution(of: Keys.RetriesKey.self).rejections.first?.source == .server)
    }

    @Test("the server stopped mid-session: the status says why, the values stay, and the next start is cache-first")
    func serverStopped() async throws {
        let server = try Self.server()
        try server.setFlag(
            Keys.NewFlowKey.name, variants: ["on": true, "off": false], defaultVariant: "off", targeting: Self.japan)
        let folder = TemporaryFolder()
        let snapshot = SyncFixture.snapshotURL(in: folder)
        let service = LiveConfigurationService(catalog: try Self.catalog.get())
        let source = try Self.source(server, ["country": "JP"])
        let sync = ServerValuesSync(source: source, service: service, snapshotURL: snapshot, environment: .live)
        _ = await sync.sync()
        #expect(service[Keys.NewFlowKey.self] == true)
        server.kill()
        let failed = await sync.sync()
        #expect(failed.error?.kind == .unreachable)
        #expect(sync.status.state.name == "stale")
        #expect(sync.status.state.reason?.isEmpty == false)
        #expect(service[Keys.NewFlowKey.self] == true, "the last good values stay")
        sync.stop()

        // A new start (a new process would do the same): the snapshot's values and evaluations, before any fetch.
        let restarted = LiveConfigurationService(catalog: try Self.catalog.get())
        let again = ServerValuesSync(source: source, service: restarted, snapshotURL: snapshot, environment: .live)
        #expect(again.status.state.name == "cached")
        #expect(restarted[Keys.NewFlowKey.self] == true)
        #expect(
            again.status.evaluations[Keys.NewFlowKey.name]
                == ServerValueEvaluation(variant: "on", reason: "TARGETING_MATCH"))
        #expect(again.status.source == "ofrep://127.0.0.1:\(server.port)?targetingKey=user-1&country=JP")

        // Another context's source does not take this context's snapshot.
        let other = ServerValuesSync(
            source: try Self.source(server, ["country": "FR"]), service: nil, snapshotURL: snapshot, environment: .live)
        #expect(other.status.state.name == "waiting")
        #expect(other.status.snapshotProblem?.contains("not ofrep://") == true)
    }

    @Test("ServerValuesSourceConformance passes against fast-feature (refusal: fast-feature cannot serve a bad answer)")
    func conformance() async throws {
        let server = try Self.server()
        let backend = ServerValuesSourceConformance.Backend(
            name: "OFREPServerValuesSource on fast-feature",
            makeSource: { try Self.source(server, catalog: false) },
            publish: { values in try server.setStringFlags(values) },
            credentials: [])
        let report = await ServerValuesSourceConformance.run(backend)
        #expect(report.failures.isEmpty)
        #expect(report.skipped.map(\.check) == [.refusal, .pushedChange])
    }
}

/// What fast-feature cannot be made to do, against `ofrep_fixture.py` (Python's standard library).
@Suite("OFREP source: 429 and Retry-After, 400 with an error code, bad answers refused whole, the context sent")
struct OFREPSourceFaultTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OFREPServer/ofrep_fixture.py")

    final class Fixture {
        let server: FixtureHTTPServer
        init() throws { server = try FixtureHTTPServer(script: OFREPSourceFaultTests.script) }
        func body(_ text: String) throws {
            try Data(text.utf8).write(to: server.folder.appendingPathComponent("body"), options: .atomic)
        }
        func mode(_ word: String?) throws { try server.setMode(word) }
        func sentBodies() -> [String] {
            let text =
                (try? String(contentsOf: server.folder.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["body"] as? String
            }
        }
        func source(_ context: OFREPEvaluationContext = OFREPEvaluationContext()) -> OFREPServerValuesSource {
            OFREPServerValuesSource(
                baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, context: context, timeout: .seconds(10))
        }
    }

    @Test("the request is a POST of {\"context\": {...}} with targetingKey and the attributes")
    func contextSent() async throws {
        let fixture = try Fixture()
        try fixture.body(#"{"flags": [{"key": "a", "value": "x", "reason": "STATIC"}]}"#)
        let source = fixture.source(
            OFREPEvaluationContext(targetingKey: "u1", attributes: ["country": "JP", "os": "18.2"]))
        let fetched = try await source.fetch(ifChangedSince: .init())
        #expect(fetched.values == ["a": "x"], "\(fetched)")
        #expect(fixture.sentBodies() == [#"{"context":{"targetingKey":"u1","country":"JP","os":"18.2"}}"#])
        // The targeting key given as an attribute is refused before anything is sent.
        let misnamed = fixture.source(OFREPEvaluationContext(attributes: ["targetingKey": "u1"]))
        await #expect {
            _ = try await misnamed.fetch(ifChangedSince: .init())
        } throws: { error in
            (error as? ServerSyncError)?.reason
                == #"the context names "targetingKey" as an attribute; give it as the targeting key"#
        }
        #expect(fixture.sentBodies().count == 1)
    }

    @Test("429 with Retry-After: an httpStatus failure that carries the wait, and the sync waits at least that long")
    func tooManyRequests() async throws {
        let fixture = try Fixture()
        try fixture.body(#"{"flags": []}"#)
        try fixture.mode("429:7")
        let source = fixture.source()
        do {
            _ = try await source.fetch(ifChangedSince: .init())
            Issue.record("a 429 was accepted")
        } catch {
            #expect(error.kind == .httpStatus && error.statusCode == 429)
            #expect(error.retryAfter == .seconds(7))
            #expect(
                error.reason
                    == "HTTP 429 (too many requests): slow down; the server asks to wait 7 s (Retry-After)")
        }
        let recorder = SleepRecorder(limit: 1)
        let sync = ServerValuesSync(
            source: source, service: nil, snapshotURL: nil, backoff: ServerSyncBackoff(initial: .milliseconds(100)),
            environment: recorder.environment(random: { 0.5 }))
        sync.start()
        #expect(await pollUntil { recorder.delays.count == 1 })
        #expect(recorder.delays == [.seconds(7)], "the backoff's 100 ms raised to the server's 7 s")
        #expect(sync.status.lastError?.statusCode == 429)
        sync.stop()

        // Without Retry-After the backoff alone counts; an absurd Retry-After is capped at an hour.
        #expect(
            ServerSyncError(kind: .httpStatus, reason: "", retryAfter: .seconds(1_000_000)).retryAfter == .seconds(3600)
        )
    }

    @Test("Retry-After as an HTTP date, Retry-Later as an ISO 8601 time (the OFREP OpenAPI file's); 400 names the code")
    func otherStatuses() async throws {
        let fixture = try Fixture()
        try fixture.mode("400")
        do {
            _ = try await fixture.source().fetch(ifChangedSince: .init())
            Issue.record("a 400 was accepted")
        } catch {
            #expect(error.reason == "HTTP 400 (bad request): INVALID_CONTEXT: country must be a string")
            #expect(error.retryAfter == nil)
        }
        // The wait is what is left of the minute when the answer is read: the minute less the time the request took
        // (seconds under ThreadSanitizer on a busy machine), less up to a second the ISO 8601 form truncates.
        let sent = Date()
        let inAMinute = ISO8601DateFormatter().string(from: sent.addingTimeInterval(60))
        try fixture.mode("later:" + inAMinute)
        do {
            _ = try await fixture.source().fetch(ifChangedSince: .init())
            Issue.record("a 429 was accepted")
        } catch {
            let elapsed = Date().timeIntervalSince(sent)
            #expect(error.statusCode == 429)
            #expect(
                error.retryAfter.map { $0 >= .seconds(59 - elapsed) && $0 <= .seconds(60) } == true,
                "\(error), \(elapsed) s after the time was written")
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let later = formatter.string(from: now.addingTimeInterval(90))
        #expect(OFREPServerValuesSource.retryAfter(later, now: now) == .seconds(90))
        #expect(OFREPServerValuesSource.retryAfter("soon", now: now) == nil)
        // The OFREP OpenAPI file's form (an ISO 8601 time, in its `Retry-Later` header).
        #expect(OFREPServerValuesSource.retryAfter("2027-01-15T08:01:40Z", now: now) == .seconds(100))
    }

    @Test(
        "an answer that is not an OFREP bulk evaluation is refused whole, naming what is wrong",
        arguments: [
            ("not json", "not JSON: "),
            (#"[1]"#, "not an OFREP bulk evaluation: expected a JSON object, found an array"),
            (#"{"values": {}}"#, #"not an OFREP bulk evaluation: no "flags" array"#),
            (#"{"flags": [{"value": 1}]}"#, #"not an OFREP bulk evaluation: flag 1 has no "key""#),
            (#"{"flags": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}"#, "the flag a is evaluated twice"),
            (
                #"{"flags": [{"key": "a", "reason": "STATIC"}]}"#,
                #"the flag a has neither a "value" nor an "errorCode""#
            ),
            (
                #"{"flags": [{"key": "a", "value": 1, "variant": 3}]}"#,
                #""variant" of flag 1 must be a string, found a number"#
            ),
        ])
    func refusedWhole(body: String, reason: String) async throws {
        let fixture = try Fixture()
        try fixture.body(body)
        do {
            let fetched = try await fixture.source().fetch(ifChangedSince: .init())
            Issue.record("accepted: \(fetched)")
        } catch {
            #expect(error.kind == .invalidResponse)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("ofrep:// and ofreps:// URLs: the context from the query, the location reads back, bad URLs named")
    func urls() throws {
        let source = try OFREPServerValuesSource.source(
            for: URL(string: "ofreps://flags.example.com:8443/api?targetingKey=u%201&country=JP")!)
        #expect(source.evaluationURL.absoluteString == "https://flags.example.com:8443/api/ofrep/v1/evaluate/flags")
        #expect(source.context == OFREPEvaluationContext(targetingKey: "u 1", attributes: ["country": "JP"]))
        #expect(source.location == "ofreps://flags.example.com:8443/api?targetingKey=u%201&country=JP")
        let again = try OFREPServerValuesSource.source(for: URL(string: source.location)!)
        #expect(again.context == source.context && again.baseURL == source.baseURL)
        #expect(
            try OFREPServerValuesSource.source(for: URL(string: "ofrep://127.0.0.1:8016")!).evaluationURL.absoluteString
                == "http://127.0.0.1:8016/ofrep/v1/evaluate/flags")
        let refusals: [(String, String)] = [
            ("http://127.0.0.1:1", "is not an ofrep:// or ofreps:// URL"),
            ("ofrep:///base", "has no host"),
            ("ofrep://h?country=JP&country=FR", #"the context attribute "country" is given twice"#),
            ("ofrep://h?country", #"the context item "country" needs the form NAME=VALUE"#),
        ]
        for (text, reason) in refusals {
            #expect {
                _ = try OFREPServerValuesSource.source(for: URL(string: text)!)
            } throws: { error in
                (error as? ServerSyncError)?.reason.contains(reason) == true
            }
        }
        #expect(OFREPServerValuesSource.decimal("1e3") == "1000")
        #expect(OFREPServerValuesSource.decimal("2.5E-1") == "0.25")
        #expect(OFREPServerValuesSource.decimal("-0.50") == "-0.50")
    }
}
