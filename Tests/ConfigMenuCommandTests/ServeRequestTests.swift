import ConfigurationServer
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import SharedTestSupport
import Testing

/// `config-menu serve`'s request parsing, OFREP answers and token check, without sockets.
@Suite("serve: requests parsed strictly, answers typed by key")
struct ServeRequestTests {
    func head(_ text: String) throws(HTTPServerRequest.Refusal) -> (request: HTTPServerRequest, bodyLength: Int) {
        let bytes = Array(text.utf8)
        return try HTTPServerRequest.parseHead(bytes[...])
    }

    func refusal(_ text: String) -> Int? {
        do {
            _ = try head(text)
            return nil
        } catch {
            return error.status
        }
    }

    @Test("a request line, fields by lower-case name, a percent-decoded path without the query, the body's length")
    func parses() throws {
        let parsed = try head(
            "POST /ofrep/v1/evaluate/flags/a%2Eb?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\nX-A: 1\r\nx-a: 2")
        #expect(parsed.request.method == "POST")
        #expect(parsed.request.path == "/ofrep/v1/evaluate/flags/a.b")
        #expect(parsed.request.headers["x-a"] == "1, 2")
        #expect(parsed.bodyLength == 12)
    }

    @Test("what is refused, with the status that says why")
    func refusals() {
        #expect(refusal("GET / HTTP/2.0") == 505)
        #expect(refusal("get / HTTP/1.1") == 400)
        #expect(refusal("GET http://x/ HTTP/1.1") == 400)
        #expect(refusal("GET /a%00b HTTP/1.1") == 400, "a decoded NUL")
        #expect(refusal("GET /%ff HTTP/1.1") == 400, "not UTF-8 once decoded")
        #expect(refusal("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nContent-Length: -1") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nContent-Length: 99999999999999999999") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nContent-Length: 65537") == 413)
        #expect(refusal("GET / HTTP/1.1\r\nX: a\u{1B}[2J") == 400, "a control character in a value")
        #expect(refusal("GET / HTTP/1.1\r\nBad Name: 1") == 400)
        #expect(refusal("GET / HTTP/1.1\r\n folded: 1") == 400)
        #expect(refusal("GET / HTTP/1.1\r\nTransfer-Encoding: chunked") == 501)
        #expect(refusal("GET / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5") == nil, "the same length twice")
        #expect(throws: HTTPServerRequest.Refusal.self) {
            try HTTPServerRequest.headEnd(in: Array(repeating: UInt8(ascii: "a"), count: 20_000))
        }
    }

    @Test("seeded fuzz: mutated and random heads are parsed or refused with a 4xx/5xx, never a crash")
    func fuzz() {
        var random = SeededGenerator(seed: 0x5E_27E)
        let valid = Array(
            "POST /ofrep/v1/evaluate/flags/k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nAuthorization: Bearer t"
                .utf8)
        var refused = 0
        for round in 0..<20_000 {
            var bytes = valid
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                    default: bytes.remove(at: index)
                    }
                }
            }
            do {
                _ = try HTTPServerRequest.headEnd(in: bytes)
                _ = try HTTPServerRequest.parseHead(bytes[...])
            } catch {
                refused += 1
                #expect((400...505).contains(error.status), "\(error)")
            }
        }
        #expect(refused > 5_000, "the fuzz reaches the refusals (\(refused))")
    }

    @Test("values typed by the key's control; reasons and variants by source; the ETag follows the values")
    func typedValues() throws {
        let catalog = try DemoConfiguration.makeCatalog()
        let service = LiveConfigurationService(
            serverValues: ["function.media.upload_concurrency": "4"], catalog: catalog, overridePolicy: .allBuilds)
        let before = OFREPState(catalog: catalog) { service.resolution(forKeyNamed: $0) }
        func value(_ key: String, in state: OFREPState) -> JSONValue? {
            guard case .object(let members)? = state.flag(named: key)?.object else { return nil }
            return members.first { $0.key == "value" }?.value
        }
        #expect(value("function.album.like.enabled", in: before) == .bool(false))
        #expect(value("function.media.upload_concurrency", in: before) == .number("4"))
        #expect(value("function.network.timeout_sec", in: before) == .number("15.0"))
        #expect(value("function.chat.bubble_style", in: before) == .string("rounded"))
        guard case .object(let hours)? = value("function.notifications.quiet_hours", in: before) else {
            Issue.record("a JSON key's value is its JSON")
            return
        }
        #expect(hours.map(\.key).contains("start"))
        #expect(before.flag(named: "function.media.upload_concurrency")?.source == .server)

        try service.setOverride(rawValue: "Y", forKeyNamed: "function.album.like.enabled", note: nil)
        let after = OFREPState(catalog: catalog) { service.resolution(forKeyNamed: $0) }
        #expect(value("function.album.like.enabled", in: after) == .bool(true))
        #expect(before.etag != after.etag)
        #expect(before.changedKeys(in: after) == ["function.album.like.enabled"])
        #expect(OFREPState.reason(.overridden) == "STATIC")
        #expect(OFREPState.reason(.server) == "TARGETING_MATCH")
        #expect(OFREPState.reason(.default) == "DEFAULT")
        let again = OFREPState(catalog: catalog) { service.resolution(forKeyNamed: $0) }
        #expect(again.etag == after.etag && again.changedKeys(in: after).isEmpty)
    }

    @Test("a change stream read in any pieces: events by name and ETag, CRLF or LF; an endless event is refused")
    func eventStream() throws {
        let text =
            "event: ready\ndata: {\"etag\":\"\\\"a\\\"\"}\n\n: comment\n\n"
            + "event: flags-changed\r\ndata: {\"etag\":\"\\\"b\\\"\",\"keys\":[\"k\"]}\r\n\r\ndata: x\n\n"
        let bytes = Array(text.utf8)
        var random = SeededGenerator(seed: 24)
        for _ in 0..<200 {
            var parser = EventStreamParser()
            var events: [EventStreamParser.Event] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + Int.random(in: 1...9, using: &random))
                events += try bytes[offset..<end].withUnsafeBytes { try parser.feed($0) }
                offset = end
            }
            #expect(
                events.filter { $0.name != "message" } == [
                    .init(name: "ready", etag: "\"a\""), .init(name: "flags-changed", etag: "\"b\""),
                ])
        }
        var parser = EventStreamParser()
        let endless = [UInt8](repeating: UInt8(ascii: "x"), count: EventStreamParser.maximumEventSize + 1)
        #expect(throws: ServerSyncError.self) { try endless.withUnsafeBytes { try parser.feed($0) } }
    }

    @Test("the token: only the exact Bearer header matches")
    func tokenMatch() {
        let token = "0123456789abcdef"
        #expect(OFREPServer.matches("Bearer 0123456789abcdef", token: token))
        #expect(!OFREPServer.matches(nil, token: token))
        #expect(!OFREPServer.matches("Bearer 0123456789abcdeF", token: token))
        #expect(!OFREPServer.matches("Bearer 0123456789abcdef0", token: token))
        #expect(!OFREPServer.matches("Bearer 0123456789abcde", token: token))
        #expect(!OFREPServer.matches("bearer 0123456789abcdef", token: token))
    }
}
