import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Redirects: followed to the same scheme, host and port; anything else refused unless the source allows other
/// hosts, and credentials never reach another host.
@Suite("HTTP sync redirects: same origin only, credentials never forwarded")
struct HTTPRedirectTests {
    typealias F = SyncFixture

    static let served = [F.flag: "Y", F.count: "7"]

    @Test("a redirect to the same server is followed, with the same credentials")
    func sameOrigin() async throws {
        let server = try FixtureHTTPServer(values: Self.served)
        let url = URL(string: "http://qa:secret@127.0.0.1:\(server.port)/redirect/same")!
        let sync = F.sync(url, service: nil, snapshot: nil)
        let outcome = await sync.sync()
        #expect(outcome == .updated(previousValues: [F.flag: nil, F.count: nil]), "\(outcome)")
        let requests = server.requests()
        #expect(requests.map(\.path) == ["/redirect/same", "/values.json"])
        let basic = "Basic " + Data("qa:secret".utf8).base64EncodedString()
        #expect(requests.map(\.authorization) == [basic, basic])
    }

    @Test(
        "a redirect to another host, another scheme, or round in circles is refused, naming where it led",
        arguments: [
            ("other-host", "another host; redirects are followed only to http://127.0.0.1:"),
            ("https", "another scheme; redirects are followed only to http://127.0.0.1:"),
            ("loop", "more than 5 redirects"),
        ])
    func refused(kind: String, reason: String) async throws {
        let server = try FixtureHTTPServer(values: Self.served)
        let service = LiveConfigurationService(serverValues: ["kept.key": "kept"])
        let sync = ServerValuesSync(
            source: HTTPServerValuesSource(
                url: server.url("/redirect/\(kind)"), headers: ["Authorization": "Bearer t"]),
            service: service, snapshotURL: nil, environment: .live)
        let error = try #require(await sync.sync().error)
        #expect(error.kind == .httpStatus)
        #expect(error.reason.contains(reason), "\(error.reason)")
        #expect(service.serverValues == ["kept.key": "kept"])
        #expect(server.requests().allSatisfy { $0.host == "127.0.0.1:\(server.port)" }, "nothing went to localhost")
    }

    @Test("allowed to follow another host, the source sends it no credentials (header or URL)")
    func otherHostWithoutCredentials() async throws {
        let server = try FixtureHTTPServer(values: Self.served)
        let url = URL(string: "http://qa:secret@127.0.0.1:\(server.port)/redirect/other-host")!
        for headers in [[:], ["Authorization": "Bearer token", "Cookie": "session=1"]] {
            let sync = ServerValuesSync(
                source: HTTPServerValuesSource(url: url, headers: headers, followsRedirectsToOtherHosts: true),
                service: nil, snapshotURL: nil, environment: .live)
            let outcome = await sync.sync()
            #expect(outcome.error == nil, "\(outcome)")
            #expect(sync.values == Self.served)
        }
        let requests = server.requests()
        #expect(
            requests.map(\.host) == ["127.0.0.1", "localhost", "127.0.0.1", "localhost"].map { "\($0):\(server.port)" })
        #expect(requests[0].authorization == "Basic " + Data("qa:secret".utf8).base64EncodedString())
        #expect(requests[2].authorization == "Bearer token")
        #expect(requests[2].cookie == "session=1")
        #expect(requests[1].authorization == nil && requests[3].authorization == nil, "\(requests)")
        #expect(requests[3].cookie == nil, "\(requests)")
    }
}
