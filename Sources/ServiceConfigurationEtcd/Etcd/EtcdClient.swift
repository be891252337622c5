package import Foundation
import ServiceConfigurationCore
package import ServiceConfigurationSync

/// The calls the etcd sources and stores make, through etcd v3's JSON gateway (`/v3/kv/range`, `/v3/kv/txn`,
/// `/v3/kv/deleterange`, `/v3/watch`, `/v3/auth/authenticate`), over the platform's ``HTTPTransport`` (libcurl on
/// Linux, URLSession on Apple platforms): HTTP for `etcd://`, HTTPS for `etcds://` (trusting
/// ``EtcdEndpoint/certificateAuthorityFile`` when one is named).
///
/// ```swift
/// let client = EtcdClient(endpoint: try EtcdEndpoint(url: URL(string: "etcd://127.0.0.1:2379/demo/values")!))
/// let range = try client.range()            // every key of the prefix, and the revision it was read at
/// let watch = client.watch(from: range.revision + 1, on: queue) { message in ... }
/// ```
///
/// Calls are synchronous and bounded by ``timeout`` (``perform(_:)`` runs them for async code, cancellable); a
/// watch reports on the queue it is given. A call that changes etcd (``transaction(comparing:changes:cancellation:)``,
/// ``deletePrefix(cancellation:)``, ``put(_:at:)``) and times out once its request is on its way fails with
/// ``EtcdError/Kind/outcomeUnknown``, not ``EtcdError/Kind/timedOut``: etcd may have made the change, or may still
/// make it, so its caller must not say that nothing changed. With credentials, the client exchanges a user name and password for a
/// token on the first call and again when etcd says the token is no longer valid (etcd restarted, or it expired).
package final class EtcdClient: Sendable {
    /// The server and the prefix.
    package let endpoint: EtcdEndpoint
    /// The longest a call may take.
    package let timeout: Duration
    /// The largest answer accepted (for a watch: the largest message), in bytes.
    package let maximumResponseSize: Int
    private let transport: any HTTPTransport
    private let token: Locked<String?>

    /// The default answer limit: 64 MiB (keys and values travel as base64 inside JSON).
    package static let defaultMaximumResponseSize = 64 << 20

    /// How long a watch may stay silent before it is abandoned and set up again. Watches ask for progress
    /// notifications (etcd sends one every 10 minutes by default), so only a connection that died without closing
    /// stays silent this long.
    package static let watchSilenceLimit: TimeInterval = 900

    /// How often a running watch checks that etcd still answers (a small count-only read of the prefix, bounded by
    /// ``timeout``), or `nil` for never. A stopped or cut-off etcd sends nothing and closes nothing, so the watch
    /// alone would notice only after ``watchSilenceLimit``; the check ends it within this interval plus the timeout.
    package let watchCheckInterval: Duration?

    package init(
        endpoint: EtcdEndpoint, timeout: Duration = .seconds(5),
        maximumResponseSize: Int = EtcdClient.defaultMaximumResponseSize,
        watchCheckInterval: Duration? = .seconds(30)
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        self.watchCheckInterval = watchCheckInterval
        if case .token(let given) = endpoint.credentials {
            token = Locked(given)
        } else {
            token = Locked(nil)
        }
        transport = HTTPTransports.system()
    }

    // MARK: Calls

    /// Every key under the prefix, read at the store's current revision.
    package func range(cancellation: HTTPCancellation? = nil) throws(EtcdError) -> EtcdRange {
        let body = try call(
            "/v3/kv/range", ["key": base64(endpoint.prefix), "range_end": base64(endpoint.rangeEnd)], cancellation)
        return try EtcdWire.range(EtcdWire.decode(EtcdWire.RangeResponse.self, from: body))
    }

    /// Every key in `[key, rangeEnd)` (or, with `countOnly`, how many there are), values left out with `keysOnly`.
    package func range(
        from key: [UInt8], to rangeEnd: [UInt8], keysOnly: Bool = false, cancellation: HTTPCancellation? = nil
    ) throws(EtcdError) -> EtcdRange {
        var request: [String: Any] = ["key": base64(key), "range_end": base64(rangeEnd)]
        if keysOnly { request["keys_only"] = true }
        let body = try call("/v3/kv/range", request, cancellation)
        return try EtcdWire.range(EtcdWire.decode(EtcdWire.RangeResponse.self, from: body))
    }

    /// How many keys `[key, rangeEnd)` holds.
    package func count(from key: [UInt8], to rangeEnd: [UInt8]) throws(EtcdError) -> Int {
        let body = try call(
            "/v3/kv/range", ["key": base64(key), "range_end": base64(rangeEnd), "count_only": true], nil)
        return Int(try EtcdWire.number(EtcdWire.decode(EtcdWire.RangeResponse.self, from: body).count))
    }

    /// A comparison of a transaction: the key's last change is at `modRevision` (0: the key does not exist); with
    /// `rangeEnd`, every key in `[key, rangeEnd)` was last changed before `modRevision` (none changed since).
    package struct Comparison: Sendable, Hashable {
        package var key: [UInt8]
        package var modRevision: Int64
        package var rangeEnd: [UInt8]?

        package init(key: [UInt8], modRevision: Int64, rangeEnd: [UInt8]? = nil) {
            self.key = key
            self.modRevision = modRevision
            self.rangeEnd = rangeEnd
        }
    }

    /// A change of a transaction: put `value` (or delete, for `nil`) at `key`; with `rangeEnd` (and no value), delete
    /// every key in `[key, rangeEnd)`.
    package struct Change: Sendable, Hashable {
        package var key: [UInt8]
        package var value: [UInt8]?
        package var rangeEnd: [UInt8]?

        package init(key: [UInt8], value: [UInt8]?, rangeEnd: [UInt8]? = nil) {
            self.key = key
            self.value = value
            self.rangeEnd = rangeEnd
        }
    }

    /// What a transaction did.
    package enum TransactionOutcome: Sendable, Hashable {
        /// Every comparison held: the changes were made, at this revision.
        case committed(revision: Int64)
        /// A comparison failed: nothing changed; the prefix as it is now.
        case conflict(EtcdRange)
    }

    /// Makes `changes` at once if every comparison holds; otherwise changes nothing and reads the prefix again, in
    /// the same round trip.
    package func transaction(
        comparing comparisons: [Comparison], changes: [Change], cancellation: HTTPCancellation? = nil
    ) throws(EtcdError) -> TransactionOutcome {
        let compare: [[String: Any]] = comparisons.map {
            var comparison: [String: Any] = [
                "target": "MOD", "result": "EQUAL", "key": base64($0.key), "mod_revision": String($0.modRevision),
            ]
            if let end = $0.rangeEnd {
                comparison["result"] = "LESS"
                comparison["range_end"] = base64(end)
            }
            return comparison
        }
        let success: [[String: Any]] = changes.map { change in
            if let value = change.value {
                return ["request_put": ["key": base64(change.key), "value": base64(value)]]
            }
            if let end = change.rangeEnd {
                return ["request_delete_range": ["key": base64(change.key), "range_end": base64(end)]]
            }
            return ["request_delete_range": ["key": base64(change.key)]]
        }
        let failure: [[String: Any]] = [
            ["request_range": ["key": base64(endpoint.prefix), "range_end": base64(endpoint.rangeEnd)]]
        ]
        let body = try call(
            "/v3/kv/txn", ["compare": compare, "success": success, "failure": failure], cancellation, changes: true)
        let answer = try EtcdWire.decode(EtcdWire.TxnResponse.self, from: body)
        let revision = try EtcdWire.number(answer.header?.revision)
        if answer.succeeded == true { return .committed(revision: revision) }
        guard let range = answer.responses?.first?.responseRange else {
            throw EtcdError(.invalidResponse, "etcd's answer to a failed transaction holds no range")
        }
        return .conflict(try EtcdWire.range(range, revision: revision, cluster: answer.header?.clusterId))
    }

    /// Deletes every key under the prefix; returns the revision of the deletion.
    package func deletePrefix(cancellation: HTTPCancellation? = nil) throws(EtcdError) -> Int64 {
        let body = try call(
            "/v3/kv/deleterange", ["key": base64(endpoint.prefix), "range_end": base64(endpoint.rangeEnd)],
            cancellation, changes: true)
        return try EtcdWire.number(EtcdWire.decode(EtcdWire.PutResponse.self, from: body).header?.revision)
    }

    /// Puts `value` at `key` unconditionally; returns the revision of the change (for tests and tools).
    package func put(_ value: [UInt8], at key: [UInt8]) throws(EtcdError) -> Int64 {
        let body = try call("/v3/kv/put", ["key": base64(key), "value": base64(value)], nil, changes: true)
        return try EtcdWire.number(EtcdWire.decode(EtcdWire.PutResponse.self, from: body).header?.revision)
    }

    /// Compacts the history up to `revision` (for tests: watches from before it are then cancelled).
    package func compact(revision: Int64) throws(EtcdError) {
        _ = try call("/v3/kv/compaction", ["revision": String(revision), "physical": true], nil)
    }

    /// Runs synchronous calls for async code, off the concurrency pool; cancelling the task cancels the call.
    package func perform<T: Sendable>(
        _ body: @escaping @Sendable (HTTPCancellation) throws(EtcdError) -> T
    ) async throws(EtcdError) -> T {
        let result = await HTTPCancellation.runBlocking("EtcdClient.perform") { cancellation in
            Result { () throws(EtcdError) -> T in try body(cancellation) }
        }
        return try result.get()
    }

    // MARK: Watching

    /// Watches the prefix from `revision` on: `handler` gets each message, then (unless the watch was cancelled)
    /// one failure when the stream ends, all on `queue`, in order. Keep the returned watch; cancel it to stop.
    package func watch(
        from revision: Int64, on queue: DispatchQueue,
        handler: @escaping @Sendable (Result<EtcdWatchMessage, EtcdError>) -> Void
    ) -> EtcdWatch {
        let watch = EtcdWatch()
        queue.async { [self] in
            let token: String?
            do throws(EtcdError) {
                token = try currentToken(nil)
            } catch {
                if !watch.isCancelled { handler(.failure(error)) }
                return
            }
            let create: [String: Any] = [
                "key": base64(endpoint.prefix), "range_end": base64(endpoint.rangeEnd),
                "start_revision": String(max(1, revision)), "progress_notify": true,
            ]
            let ended = Locked(false)
            stream(
                "/v3/watch", body: Self.json(["create_request": create]), token: token,
                cancellation: watch.cancellation,
                onLine: { line in
                    queue.async {
                        guard !watch.isCancelled, !ended.withLock({ $0 }) else { return }
                        do throws(EtcdError) {
                            handler(.success(try EtcdWire.watchMessage(Data(line))))
                        } catch {
                            ended.withLock { $0 = true }
                            watch.cancel()
                            handler(.failure(error))
                        }
                    }
                },
                onEnd: { [weak self] outcome in
                    queue.async { [weak self] in
                        guard !watch.isCancelled, !ended.withLock({ $0 }) else { return }
                        ended.withLock { $0 = true }
                        switch outcome {
                        case .failure(let error):
                            handler(.failure(error))
                        case .answer(let status, let body) where status != 200:
                            let error = EtcdWire.error(status: status, body: Data(body))
                            if error.isInvalidToken { self?.forgetToken(token) }
                            handler(.failure(error))
                        case .answer:
                            handler(.failure(EtcdError(.unreachable, "etcd closed the watch")))
                        }
                    }
                })
            scheduleCheck(of: watch, ended: ended, on: queue, handler: handler)
        }
        return watch
    }

    /// After ``watchCheckInterval``, checks that etcd answers a small read; when it does not (it timed out, or
    /// cannot be reached), ends `watch` with that failure, so its owner reports the problem and sets it up again.
    private func scheduleCheck(
        of watch: EtcdWatch, ended: Locked<Bool>, on queue: DispatchQueue,
        handler: @escaping @Sendable (Result<EtcdWatchMessage, EtcdError>) -> Void
    ) {
        guard let interval = watchCheckInterval else { return }
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0.01, seconds)) { [weak self, weak watch] in
            guard let self, let watch, !watch.isCancelled, !ended.withLock({ $0 }) else { return }
            do throws(EtcdError) {
                _ = try call(
                    "/v3/kv/range",
                    ["key": base64(endpoint.prefix), "range_end": base64(endpoint.rangeEnd), "count_only": true],
                    watch.cancellation)
            } catch  where error.kind == .timedOut || error.kind == .unreachable {
                queue.async {
                    guard !watch.isCancelled, !ended.withLock({ $0 }) else { return }
                    ended.withLock { $0 = true }
                    watch.cancel()
                    handler(.failure(EtcdError(error.kind, "etcd stopped answering while watched (\(error.reason))")))
                }
                return
            } catch {
                // Refused (permissions changed, a token to renew...) or cancelled: the watch itself will say so.
                guard error.kind != .cancelled else { return }
            }
            scheduleCheck(of: watch, ended: ended, on: queue, handler: handler)
        }
    }

    // MARK: The wire

    private func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    private static func json(_ body: [String: Any]) -> [UInt8] {
        [UInt8]((try? JSONSerialization.data(withJSONObject: body)) ?? Data("{}".utf8))
    }

    /// One call, authenticating first when needed and once more when etcd says the token is no longer valid. For a
    /// call that `changes` etcd, a timeout of the request itself (not of authenticating first) leaves the outcome
    /// unknown.
    func call(
        _ path: String, _ body: [String: Any], _ cancellation: HTTPCancellation?, changes: Bool = false
    ) throws(EtcdError) -> Data {
        let bytes = Self.json(body)
        let token = try currentToken(cancellation)
        do {
            return try send(path, bytes, token: token, cancellation, changes: changes)
        } catch  where error.isInvalidToken {
            guard case .password = endpoint.credentials else { throw error }
            forgetToken(token)
            return try send(path, bytes, token: try currentToken(cancellation), cancellation, changes: changes)
        }
    }

    /// The token to send: the one given, the one obtained before, or a new one for the user name and password.
    private func currentToken(_ cancellation: HTTPCancellation?) throws(EtcdError) -> String? {
        if let token = token.withLock({ $0 }) { return token }
        guard case .password(let user, let password) = endpoint.credentials else { return nil }
        let body: Data
        do {
            body = try send(
                "/v3/auth/authenticate", Self.json(["name": user, "password": password]), token: nil, cancellation)
        } catch  where error.kind == .refused || error.kind == .unauthenticated {
            throw EtcdError(.unauthenticated, "etcd refused the user \"\(user)\": \(error.reason)", code: error.code)
        }
        guard let issued = try EtcdWire.decode(EtcdWire.AuthResponse.self, from: body).token, !issued.isEmpty else {
            throw EtcdError(
                .unauthenticated,
                "etcd issued no token for \"\(user)\" (is authentication off? then give no user name)")
        }
        token.withLock { $0 = issued }
        return issued
    }

    private func forgetToken(_ stale: String?) {
        token.withLock { if $0 == stale { $0 = nil } }
    }

    /// Sends one request and returns the body of a 200 answer; any other answer is the error etcd answered with.
    /// When the request `changes` etcd, a timeout is ``EtcdError/Kind/outcomeUnknown``: the transport cannot tell
    /// whether etcd received the request (a stopped etcd's kernel still accepts the connection and the bytes), so
    /// the change may have been made, or may be made once etcd runs again.
    private func send(
        _ path: String, _ body: [UInt8], token: String?, _ cancellation: HTTPCancellation?, changes: Bool = false
    ) throws(EtcdError) -> Data {
        let answer: HTTPResponse
        do {
            answer = try transport.fetch(
                request(path, body: body, token: token, timeout: timeout), cancellation: cancellation)
        } catch let error where changes && error.kind == .timedOut {
            throw EtcdError(.outcomeUnknown, etcdError(error).reason)
        } catch {
            throw etcdError(error)
        }
        guard answer.head.status == 200 else { throw EtcdWire.error(status: answer.head.status, body: answer.body) }
        return answer.body
    }

    /// A POST of JSON to the gateway at `path`: within `timeout` (a call), or for as long as it lasts (`nil`: a
    /// watch, bounded by ``watchSilenceLimit``); no redirect; the answer within ``maximumResponseSize`` (for a
    /// watch, each message is held to it as it arrives).
    private func request(_ path: String, body: [UInt8], token: String?, timeout: Duration?) -> HTTPRequest {
        var headers = [HTTPHeader("Content-Type", "application/json"), HTTPHeader("Accept", "application/json")]
        if let token { headers.append(HTTPHeader("Authorization", token)) }
        return HTTPRequest(
            method: "POST", url: endpoint.baseURL.appendingPathComponent(String(path.dropFirst())), headers: headers,
            body: body, timeout: timeout, silenceLimit: timeout == nil ? .seconds(Self.watchSilenceLimit) : nil,
            maximumBodySize: timeout == nil ? nil : maximumResponseSize, redirects: .none,
            certificateAuthorityFile: endpoint.certificateAuthorityFile)
    }

    /// A transport failure in etcd's words.
    private func etcdError(_ error: HTTPTransportError) -> EtcdError {
        switch error.kind {
        case .unreachable: return EtcdError(.unreachable, error.reason)
        case .insecure:
            let hint =
                endpoint.certificateAuthorityFile == nil && error.reason.contains("not signed by an authority")
                ? "; name etcd's certificate authority with \(EtcdEndpoint.certificateAuthorityVariable)" : ""
            return EtcdError(.unreachable, "TLS: \(error.reason)\(hint)")
        case .timedOut: return EtcdError(.timedOut, "etcd did not answer within \(timeout.secondsDescription)")
        case .silent:
            return EtcdError(
                .timedOut, "etcd sent nothing for \(Duration.seconds(Self.watchSilenceLimit).secondsDescription)")
        case .tooLarge:
            return EtcdError(
                .tooLarge, "etcd's answer is larger than the \(ByteCount.describe(maximumResponseSize)) limit; refused")
        case .invalidResponse, .redirectRefused:
            let notHTTP = error.reason.hasPrefix("not a valid HTTP answer") || error.reason.hasPrefix("not an HTTP")
            return EtcdError(.invalidResponse, error.reason + (notHTTP ? " (is this etcd's client port?)" : ""))
        case .invalidRequest: return EtcdError(.notConfigured, error.reason)
        case .cancelled: return .cancelled
        }
    }

    /// POSTs `body` to `path` on a thread of its own and follows the answer as a stream of lines: `onLine` gets each
    /// line of a 200 answer (at most ``maximumResponseSize`` bytes each), then `onEnd` how the answer ended (an
    /// answer other than 200 with its body). Both are called in order from that thread; `cancellation` stops the
    /// stream, after which `onEnd` may or may not be called.
    private func stream(
        _ path: String, body: [UInt8], token: String?, cancellation: HTTPCancellation,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onEnd: @escaping @Sendable (EtcdTransferOutcome) -> Void
    ) {
        let request = self.request(path, body: body, token: token, timeout: nil)
        let (transport, limit) = (self.transport, maximumResponseSize)
        let thread = Thread { [weak self] in
            var status = 0
            var pending: [UInt8] = []
            var refusal: EtcdError?
            let receiver = HTTPReceiver(
                head: { head in
                    status = head.status
                    return true
                },
                body: { bytes in
                    // What is pending holds no newline: only the new bytes are searched (a long message arrives
                    // in many pieces).
                    var from = pending.count
                    pending.append(contentsOf: bytes)
                    if status == 200 {
                        var start = 0
                        while let newline = pending[from...].firstIndex(of: 0x0A) {
                            if newline > start { onLine(Array(pending[start..<newline])) }
                            start = newline + 1
                            from = start
                        }
                        if start > 0 { pending.removeFirst(start) }
                    }
                    guard pending.count <= limit else {
                        refusal = EtcdError(
                            .tooLarge, "a message of etcd's is larger than the \(ByteCount.describe(limit)) limit")
                        return false
                    }
                    return true
                })
            do throws(HTTPTransportError) {
                _ = try transport.send(request, cancellation: cancellation, receiver: receiver)
                onEnd(.answer(status: status, body: pending))
            } catch {
                guard let self else { return }
                onEnd(.failure(refusal ?? etcdError(error)))
            }
        }
        thread.name = "etcd watch"
        thread.start()
    }
}

/// How a transfer ended.
enum EtcdTransferOutcome: Sendable {
    /// etcd answered with this status; `body` is the whole answer (for a stream: what followed the last line).
    case answer(status: Int, body: [UInt8])
    /// The transfer failed or was refused.
    case failure(EtcdError)
}

/// A watch of an ``EtcdClient``; cancel it to stop (nothing more is reported after that).
package final class EtcdWatch: Sendable {
    let cancellation = HTTPCancellation()

    init() {}

    deinit {
        cancellation.cancel()
    }

    /// Stops the watch.
    package func cancel() { cancellation.cancel() }

    /// Whether the watch was cancelled.
    package var isCancelled: Bool { cancellation.isCancelled }
}
