import Foundation
package import ServiceConfigurationCore
import ServiceConfigurationFiles

/// `config-menu serve`: a catalog's effective values (overrides over server values over defaults) over OFREP, the
/// OpenFeature Remote Evaluation Protocol, for any OpenFeature client, and a change stream.
///
/// - `POST /ofrep/v1/evaluate/flags`: every key (bulk evaluation), with an ETag; `If-None-Match` with it answers 304.
/// - `POST /ofrep/v1/evaluate/flags/KEY`: one key; 404 with `FLAG_NOT_FOUND` for a key the catalog does not have.
/// - `GET /ofrep/v1/events`: server-sent events: `ready` at once, `flags-changed` (`{"etag": …, "keys": […]}`) within
///   a second of a change, a comment every 15 seconds so proxies keep the connection.
///
/// The values do not depend on the evaluation context (it is checked for shape, then ignored): they are the QA
/// machine's values, the same for every caller. A token, when set, is required on every request
/// (`Authorization: Bearer TOKEN`) and compared in constant time. Each request is bounded (head 16 KiB, body 64 KiB,
/// 10 seconds to arrive), each client address to 100 requests a second (burst 200, then 429 with `Retry-After`),
/// the server to 64 connections at once (then 503). No part of a request names a file. Answers carry
/// `Access-Control-Allow-Origin: *` and a browser's preflight (`OPTIONS`, which carries no token) is answered, so an
/// OpenFeature web SDK can read the values too; the token still guards every other request.
package final class OFREPServer: Sendable {
    /// What the server answers with, and how much it accepts.
    package struct Configuration: Sendable {
        /// Where to listen.
        package var address: HTTPSocket.Address
        /// The bearer token every request must carry, if any.
        package var token: String?
        /// Requests a second each client address may send on average, and in a burst.
        package var requestsPerSecond: Double = 100
        package var burst: Double = 200
        /// Connections open at once (change streams included).
        package var connections = 64
        /// How long a request may take to arrive.
        package var requestTimeout: Duration = .seconds(10)
        /// How often the values are read again without a change notice: a safety net only, since a change, a sync
        /// and an override's expiry are announced by the service's observer (a full read of 100,000 keys each second
        /// would cost a core a tenth of its time).
        package var refreshInterval: Duration = .seconds(10)
        /// How often a change stream sends a comment when nothing changed.
        package var heartbeat: Duration = .seconds(15)
        /// Bounds of a request (its body: an OFREP evaluation's).
        package var limits = HTTPServerRequest.Limits()
        /// Whether the override store's routes refuse every change (403).
        package var readOnly = false

        package init(address: HTTPSocket.Address, token: String?) {
            self.address = address
            self.token = token
        }
    }

    private struct State: Sendable {
        var values: OFREPState
        var generation: UInt64 = 0
        var dirty = false
        /// Each open change stream's wake-up, signalled at every new generation.
        var listeners: [UInt64: DispatchSemaphore] = [:]
        var nextListener: UInt64 = 0
        var stopped = false
        var connections = 0
        var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    }

    private let configuration: Configuration
    private let catalog: ConfigurationCatalog
    private let resolve: @Sendable (String) -> ConfigurationResolution<String?>?
    private let state: Locked<State>
    private let listener: HTTPSocket
    /// Where the server listens (with the port the system chose for port 0).
    package let address: HTTPSocket.Address
    private let observation: Locked<ConfigurationObservation?> = Locked(nil)
    /// Signalled when the service announces a change: the values are resolved again at once.
    private let changed = DispatchSemaphore(value: 0)
    /// The override store's routes (`/store/v1/…`), when the server serves a store.
    private let storeEndpoint: StoreEndpoint?

    /// Opens the listening socket; ``run()`` serves. With a `store`, its overrides are served too
    /// (``StoreEndpoint``), for `HTTPOverrideStore` clients.
    package init(
        catalog: ConfigurationCatalog, service: LiveConfigurationService, configuration: Configuration,
        store: (any OverrideStore)? = nil
    ) throws(HTTPSocket.Failure) {
        self.configuration = configuration
        self.catalog = catalog
        storeEndpoint = store.map { StoreEndpoint(store: $0, readOnly: configuration.readOnly) }
        let resolve: @Sendable (String) -> ConfigurationResolution<String?>? = { service.resolution(forKeyNamed: $0) }
        self.resolve = resolve
        state = Locked(State(values: OFREPState(catalog: catalog, resolve: resolve)))
        listener = try HTTPSocket.listen(on: configuration.address)
        address = listener.boundAddress() ?? configuration.address
        let state = self.state
        observation.withLock {
            $0 = service.observe { [changed] _ in
                state.withLock { $0.dirty = true }
                changed.signal()
            }
        }
    }

    /// The values as served now.
    package var values: OFREPState { state.withLock { $0.values } }

    /// Serves until ``stop()``: follows changes on a thread of its own and accepts connections on the calling
    /// thread. Returns the reason when the listening socket failed (not after ``stop()``).
    package func run() -> String? {
        Thread { [self] in refreshLoop() }.start()
        while let (connection, peer) = listener.accept() {
            admit(connection, peer: peer)
        }
        return state.withLock { $0.stopped } ? nil : "the listening socket failed: \(HTTPSocket.errorText())"
    }

    /// Stops accepting; open change streams end within a fraction of a second.
    package func stop() {
        state.withLock { $0.stopped = true }
        listener.close()
        observation.withLock { $0 = nil }
        storeEndpoint?.stop()
    }

    // MARK: Threads

    /// Serves a new connection on a thread of its own, or answers 503 when too many are open.
    private func admit(_ connection: HTTPSocket, peer: String) {
        let admitted = state.withLock { state -> Bool in
            guard state.connections < configuration.connections else { return false }
            state.connections += 1
            return true
        }
        guard admitted else {
            let busy = HTTPServerResponse.json(
                503, Self.error("GENERAL", "the server has \(configuration.connections) connections open"),
                headers: [("Retry-After", "1")])
            connection.write(busy.encoded, until: .now + .seconds(1))
            connection.close()
            return
        }
        Thread { [self] in
            serve(connection, peer: peer)
            connection.closeLingering()
            state.withLock { $0.connections -= 1 }
        }.start()
    }

    private func refreshLoop() {
        var last = ContinuousClock.now
        while !state.withLock({ $0.stopped }) {
            _ = changed.wait(timeout: .now() + .milliseconds(250))
            let dirty = state.withLock { state in
                defer { state.dirty = false }
                return state.dirty
            }
            guard dirty || ContinuousClock.now - last >= configuration.refreshInterval else { continue }
            last = .now
            let fresh = OFREPState(catalog: catalog, resolve: resolve)
            let listeners = state.withLock { state -> [DispatchSemaphore] in
                guard fresh.etag != state.values.etag else { return [] }
                state.values = fresh
                state.generation += 1
                return Array(state.listeners.values)
            }
            for listener in listeners { listener.signal() }
        }
    }

    // MARK: One connection

    private func serve(_ connection: HTTPSocket, peer: String) {
        let deadline = ContinuousClock.now + configuration.requestTimeout
        let request: HTTPServerRequest
        switch readRequest(connection, until: deadline) {
        case .success(let read): request = read
        case .failure(let refusal):
            if refusal.status != 0 {
                let response = HTTPServerResponse.json(refusal.status, Self.error("GENERAL", refusal.reason))
                connection.write(response.encoded, until: .now + .seconds(2))
            }
            return
        }
        if request.method == "OPTIONS" {  // a browser's preflight: it carries no token
            connection.write(Self.preflight.encoded, until: .now + .seconds(5))
            return
        }
        if let response = refusal(of: request, peer: peer) {
            connection.write(response.encoded, until: .now + .seconds(5))
            return
        }
        if request.path == "/ofrep/v1/events" && request.method == "GET" {
            stream(to: connection)
            return
        }
        if StoreEndpoint.handles(request.path) {
            guard let storeEndpoint else {
                let response = HTTPServerResponse.json(
                    404, Self.error("GENERAL", "this server serves no override store"))
                connection.write(response.encoded, until: .now + .seconds(5))
                return
            }
            if request.path == StoreEndpoint.eventsPath && request.method == "GET" {
                storeEndpoint.stream(to: connection, heartbeat: configuration.heartbeat) {
                    state.withLock { $0.stopped }
                }
                return
            }
            connection.write(storeEndpoint.respond(to: request).encoded, until: .now + .seconds(30))
            return
        }
        connection.write(respond(to: request).encoded, until: .now + .seconds(10))
    }

    /// The request, or why there is none (status 0: the client went away or never finished; nothing to answer).
    private func readRequest(_ connection: HTTPSocket, until deadline: ContinuousClock.Instant) -> Result<
        HTTPServerRequest, HTTPServerRequest.Refusal
    > {
        var bytes: [UInt8] = []
        var limits = configuration.limits
        // A store's body may be as large as its file (the parser checks this bound); OFREP's is checked below.
        if storeEndpoint != nil { limits.body = max(limits.body, StoreEndpoint.bodyLimit) }
        var headEnd: Int?
        do throws(HTTPServerRequest.Refusal) {
            while true {
                headEnd = try HTTPServerRequest.headEnd(in: bytes, limits: limits)
                if headEnd != nil { break }
                guard let more = connection.read(limit: 4096, until: deadline) else {
                    return .failure(.init(408, "the request did not arrive within the time allowed"))
                }
                guard !more.isEmpty else { return .failure(.init(0, "closed")) }
                bytes += more
            }
            guard let headEnd else { return .failure(.init(0, "closed")) }
            var (request, length) = try HTTPServerRequest.parseHead(bytes[..<(headEnd - 4)], limits: limits)
            if length > configuration.limits.body, !StoreEndpoint.handles(request.path) {
                return .failure(
                    .init(
                        413, "a body of \(length) bytes; at most \(configuration.limits.body) are accepted"))
            }
            var body = Array(bytes[headEnd...])
            if body.count < length, request.headers["expect"]?.lowercased() == "100-continue" {
                connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), until: deadline)
            }
            while body.count < length {
                guard let more = connection.read(limit: min(65_536, length - body.count), until: deadline) else {
                    return .failure(.init(408, "the body did not arrive within the time allowed"))
                }
                guard !more.isEmpty else { return .failure(.init(0, "closed")) }
                body += more
            }
            guard body.count == length else {
                return .failure(.init(400, "more bytes than Content-Length announced"))
            }
            request.body = body
            return .success(request)
        } catch {
            return .failure(error)
        }
    }

    /// The answer to a request that may not go on: a missing or wrong token, or a client over its rate.
    private func refusal(of request: HTTPServerRequest, peer: String) -> HTTPServerResponse? {
        if let token = configuration.token, !Self.matches(request.headers["authorization"], token: token) {
            return .json(
                401, Self.error("GENERAL", "this server needs its token: Authorization: Bearer TOKEN"),
                headers: [("WWW-Authenticate", "Bearer")])
        }
        let now = ContinuousClock.now
        let allowed = state.withLock { state -> Bool in
            var bucket = state.buckets[peer] ?? (configuration.burst, now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(configuration.burst, bucket.tokens + seconds * configuration.requestsPerSecond)
            bucket.at = now
            let allowed = bucket.tokens >= 1
            if allowed { bucket.tokens -= 1 }
            if state.buckets.count > 4096 { state.buckets.removeAll() }
            state.buckets[peer] = bucket
            return allowed
        }
        guard allowed else {
            return .json(
                429, Self.error("GENERAL", "more than \(Int(configuration.requestsPerSecond)) requests a second"),
                headers: [("Retry-After", "1")])
        }
        return nil
    }

    /// The answer to an OFREP request.
    package func respond(to request: HTTPServerRequest) -> HTTPServerResponse {
        let bulk = "/ofrep/v1/evaluate/flags"
        guard request.path == bulk || request.path.hasPrefix(bulk + "/") else {
            if request.path == "/ofrep/v1/events" {
                return .json(
                    405, Self.error("GENERAL", "the change stream is read with GET"), headers: [("Allow", "GET")])
            }
            return .json(
                404,
                Self.error(
                    "GENERAL",
                    "no such endpoint: POST \(bulk), POST \(bulk)/KEY and GET /ofrep/v1/events are served"))
        }
        guard request.method == "POST" else {
            return .json(405, Self.error("GENERAL", "evaluations are POST requests"), headers: [("Allow", "POST")])
        }
        if let problem = Self.contextProblem(request.body) {
            return .json(400, Self.error(problem.code, problem.details))
        }
        let values = self.values
        if request.path == bulk {
            let etag = [("ETag", values.etag), ("Link", Self.changeStreamLink)]
            if let match = request.headers["if-none-match"],
                match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == values.etag })
            {
                return HTTPServerResponse(status: 304, headers: etag)
            }
            return HTTPServerResponse(
                status: 200, headers: [("Content-Type", "application/json")] + etag, body: values.body)
        }
        let key = String(request.path.dropFirst(bulk.count + 1))
        guard let flag = values.flag(named: key) else {
            return .json(
                404,
                JSONWriter.string(
                    .object([
                        ("key", .string(key)), ("errorCode", .string("FLAG_NOT_FOUND")),
                        ("errorDetails", .string("the catalog has no key named \(key)")),
                    ]), indent: nil))
        }
        return .json(200, JSONWriter.string(flag.object, indent: nil))
    }

    /// Why a request body is not an OFREP evaluation request: not JSON (`PARSE_ERROR`), or a `context` that is not an
    /// object (`INVALID_CONTEXT`). An empty body is an empty context.
    static func contextProblem(_ body: [UInt8]) -> (code: String, details: String)? {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        let root: JSONValue
        do {
            root = try StrictJSON.parse(body, maximumDepth: 16)
        } catch {
            return ("PARSE_ERROR", "the request body is not JSON: \(error)")
        }
        guard case .object(let members) = root else {
            return ("PARSE_ERROR", "the request body is \(root.typeDescription), not an object")
        }
        if let context = members.first(where: { $0.key == "context" })?.value {
            guard case .object = context else {
                return ("INVALID_CONTEXT", "context is \(context.typeDescription), not an object")
            }
        }
        return nil
    }

    // MARK: Change stream

    private func stream(to connection: HTTPSocket) {
        var (reported, generation) = state.withLock { ($0.values, $0.generation) }
        let ready = "event: ready\ndata: " + JSONWriter.string(.object([("etag", .string(reported.etag))]), indent: nil)
        guard
            connection.write(
                HTTPServerResponse.eventStreamHead + Array((ready + "\n\n").utf8), until: .now + .seconds(5))
        else { return }
        let wake = DispatchSemaphore(value: 0)
        let listener = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = wake
            return state.nextListener
        }
        defer { _ = state.withLock { $0.listeners.removeValue(forKey: listener) } }
        var quietSince = ContinuousClock.now
        while true {
            // Woken by a change; else every quarter second, to notice a client that left or a stop.
            _ = wake.wait(timeout: .now() + .milliseconds(250))
            let (stopped, latest, latestGeneration) = state.withLock { ($0.stopped, $0.values, $0.generation) }
            if stopped || connection.peerHasGone { return }
            var message: String?
            if latestGeneration != generation {
                let keys = reported.changedKeys(in: latest)
                generation = latestGeneration
                reported = latest
                if !keys.isEmpty {
                    message =
                        "event: flags-changed\ndata: "
                        + JSONWriter.string(
                            .object([("etag", .string(latest.etag)), ("keys", .array(keys.map(JSONValue.string)))]),
                            indent: nil) + "\n\n"
                }
            } else if ContinuousClock.now - quietSince >= configuration.heartbeat {
                message = ": still here\n\n"
            }
            guard let message else { continue }
            guard connection.write(Array(message.utf8), until: .now + .seconds(10)) else { return }
            quietSince = .now
        }
    }

    // MARK: Helpers

    /// The bulk evaluation's offer of the change stream, which this package's OFREP source follows.
    static let changeStreamLink = #"</ofrep/v1/events>; rel="service-configuration-changes""#

    /// The answer to a CORS preflight: any origin may call with a token (it travels in a header, never a cookie), so
    /// an OpenFeature web SDK in a browser can read the values too.
    static let preflight = HTTPServerResponse(
        status: 204,
        headers: [
            ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, If-Match"),
            ("Access-Control-Max-Age", "600"),
        ])

    /// An OFREP error body.
    static func error(_ code: String, _ details: String) -> String {
        JSONWriter.string(.object([("errorCode", .string(code)), ("errorDetails", .string(details))]), indent: nil)
    }

    /// Whether `header` is `Bearer TOKEN`, compared in time that depends only on the token's length.
    package static func matches(_ header: String?, token: String) -> Bool {
        let given = Array((header ?? "").utf8)
        let expected = Array(("Bearer " + token).utf8)
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= (index < given.count ? given[index] : 0) ^ expected[index]
        }
        return difference == 0
    }
}
