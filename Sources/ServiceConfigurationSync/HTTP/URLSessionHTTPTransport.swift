import ServiceConfigurationCore
#if canImport(Darwin)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    #if canImport(Security)
        import Security
    #endif

    /// HTTP through Foundation's `URLSession` (Apple platforms), where it handles trailers, 1xx answers and lengths
    /// correctly. Not built or run by this package's CI (Linux); keep it small.
    ///
    /// The session's delegate only records what arrives (as ``HTTPResponseHead``, `Data` and
    /// ``HTTPTransportError``, all `Sendable`) and enforces the body limit; the thread that called
    /// ``exchange(_:deadline:cancellation:receiver:)`` waits for those events and hands them to the receiver, so
    /// the receiver's closures never leave that thread. The session follows no redirect (the delegate declines
    /// them; ``HTTPTransport/send(_:cancellation:receiver:)`` decides), keeps no cookies and no cache, and trusts
    /// the request's CA file alone when it names one.
    final class URLSessionHTTPTransport: HTTPTransport {
        private let session: URLSession
        private let delegate = URLSessionTransportDelegate()

        init() {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            // The exchange's own deadline or silence limit bounds it; URLSession's are only a second line.
            configuration.timeoutIntervalForResource = 1e6
            session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        }

        deinit {
            session.invalidateAndCancel()
        }

        func exchange(
            _ request: HTTPRequest, deadline: ContinuousClock.Instant?, cancellation: HTTPCancellation?,
            receiver: HTTPReceiver
        ) throws(HTTPTransportError) -> HTTPResponseHead {
            try request.validate()
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            urlRequest.httpBody = request.body.isEmpty ? nil : Data(request.body)
            urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
            for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
            if !request.acceptsCompression { urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
            let silence = request.silenceLimit.map(\.inSeconds)
            urlRequest.timeoutInterval = silence.map { $0 + 1 } ?? 1e6
            let task = session.dataTask(with: urlRequest)
            let events = URLSessionExchange(
                limit: request.maximumBodySize, certificateAuthorityFile: request.certificateAuthorityFile,
                host: request.url.host ?? "the server")
            delegate.follow(task, events)
            defer { delegate.forget(task) }
            let id = cancellation?.attach {
                events.post(.end(.cancelled))
                task.cancel()
            }
            guard cancellation == nil || id != nil else { throw .cancelled }
            defer { cancellation?.detach(id) }
            task.resume()
            var head: HTTPResponseHead?
            while true {
                let wait: Double
                if let deadline {
                    wait = (deadline - .now).inSeconds
                } else {
                    wait = silence ?? 1e6
                }
                guard let event = events.next(within: wait) else {
                    task.cancel()
                    if deadline == nil, let limit = request.silenceLimit {
                        throw HTTPTransportError(.silent, "nothing arrived for \(limit.secondsDescription)")
                    }
                    throw HTTPTransportError(
                        .timedOut, "no complete answer within \((request.timeout ?? .zero).secondsDescription)")
                }
                switch event {
                case .head(var received):
                    received.url = request.url
                    head = received
                    guard receiver.head(received) else {
                        task.cancel()
                        throw .cancelled
                    }
                case .body(let data):
                    let keepGoing = data.withUnsafeBytes { receiver.body($0) }
                    guard keepGoing else {
                        task.cancel()
                        throw .cancelled
                    }
                case .end(let failure):
                    if let failure { throw failure }
                    guard let head else {
                        throw HTTPTransportError(.invalidResponse, "the server sent no complete answer")
                    }
                    return head
                }
            }
        }
    }

    /// What one task's delegate callbacks delivered, waiting for the exchange's thread.
    private final class URLSessionExchange: Sendable {
        enum Event: Sendable {
            case head(HTTPResponseHead)
            case body(Data)
            case end(HTTPTransportError?)
        }

        private struct State: Sendable {
            var events: [Event] = []
            var received = 0
            var ended = false
        }

        let limit: Int?
        let certificateAuthorityFile: String?
        let host: String
        private let state = Locked(State())
        private let signal = DispatchSemaphore(value: 0)

        init(limit: Int?, certificateAuthorityFile: String?, host: String) {
            self.limit = limit
            self.certificateAuthorityFile = certificateAuthorityFile
            self.host = host
        }

        /// Adds an event (nothing after the end); returns false once the exchange ended.
        @discardableResult
        func post(_ event: Event) -> Bool {
            let posted = state.withLock { state -> Bool in
                guard !state.ended else { return false }
                if case .end = event { state.ended = true }
                state.events.append(event)
                return true
            }
            if posted { signal.signal() }
            return posted
        }

        /// Counts `count` more bytes of body; false (and the exchange ended as too large) past the limit.
        func admit(_ count: Int) -> Bool {
            guard let limit else { return true }
            let within = state.withLock { state -> Bool in
                state.received += count
                return state.received <= limit
            }
            if !within { post(.end(.tooLarge(limit: limit, announced: nil))) }
            return within
        }

        /// The next event, waiting at most `seconds`; `nil` when none came.
        func next(within seconds: Double) -> Event? {
            let deadline = DispatchTime.now() + min(max(seconds, 0), 1e6)
            while true {
                if let event = state.withLock({ $0.events.isEmpty ? nil : $0.events.removeFirst() }) { return event }
                if signal.wait(timeout: deadline) == .timedOut {
                    return state.withLock { $0.events.isEmpty ? nil : $0.events.removeFirst() }
                }
            }
        }
    }

    /// The session's delegate: turns callbacks into events of the task's ``URLSessionExchange``.
    private final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Locked<[Int: URLSessionExchange]>([:])

        func follow(_ task: URLSessionTask, _ exchange: URLSessionExchange) {
            exchanges.withLock { $0[task.taskIdentifier] = exchange }
        }

        func forget(_ task: URLSessionTask) {
            _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        }

        private func exchange(_ task: URLSessionTask) -> URLSessionExchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)  // the 3xx is the answer; HTTPTransport.send decides whether to follow it
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let exchange = exchange(dataTask), let http = response as? HTTPURLResponse else {
                completionHandler(.cancel)
                return
            }
            let headers = http.allHeaderFields.compactMap { name, value -> HTTPHeader? in
                guard let name = name as? String else { return nil }
                return HTTPHeader(name, "\(value)")
            }
            if let limit = exchange.limit, response.expectedContentLength > Int64(limit) {
                exchange.post(.end(.tooLarge(limit: limit, announced: response.expectedContentLength)))
                completionHandler(.cancel)
                return
            }
            let head = HTTPResponseHead(
                status: http.statusCode, headers: headers, url: http.url ?? URL(fileURLWithPath: "/"))
            completionHandler(exchange.post(.head(head)) ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let exchange = exchange(dataTask) else { return }
            if exchange.admit(data.count) {
                exchange.post(.body(data))
            } else {
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = exchange(task) else { return }
            exchange.post(.end(error.map { Self.describe($0, host: exchange.host) }))
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            #if canImport(Security)
                guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                    let trust = challenge.protectionSpace.serverTrust, let exchange = exchange(task),
                    let file = exchange.certificateAuthorityFile
                else {
                    completionHandler(.performDefaultHandling, nil)
                    return
                }
                switch Self.evaluate(trust, anchorsIn: file, host: exchange.host) {
                case .success:
                    completionHandler(.useCredential, URLCredential(trust: trust))
                case .failure(let error):
                    exchange.post(.end(error))
                    completionHandler(.cancelAuthenticationChallenge, nil)
                }
            #else
                completionHandler(.performDefaultHandling, nil)
            #endif
        }

        #if canImport(Security)
            /// Evaluates `trust` against the certificates of the PEM file `path` alone.
            private static func evaluate(
                _ trust: SecTrust, anchorsIn path: String, host: String
            ) -> Result<Void, HTTPTransportError> {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    return .failure(
                        HTTPTransportError(.insecure, "the certificate authority file \(path) cannot be read"))
                }
                var anchors: [SecCertificate] = []
                for block in text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst() {
                    guard let body = block.components(separatedBy: "-----END CERTIFICATE-----").first,
                        let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters),
                        let certificate = SecCertificateCreateWithData(nil, der as CFData)
                    else { continue }
                    anchors.append(certificate)
                }
                guard !anchors.isEmpty else {
                    return .failure(
                        HTTPTransportError(.insecure, "the certificate authority file \(path) holds no PEM certificate")
                    )
                }
                SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, true)
                var error: CFError?
                if SecTrustEvaluateWithError(trust, &error) { return .success(()) }
                let code = error.map { CFErrorGetCode($0) } ?? 0
                let reason: String
                switch OSStatus(code) {
                case errSecCertificateExpired: reason = "the server's certificate has expired"
                case errSecCertificateNotValidYet: reason = "the server's certificate is not valid yet"
                case errSecHostNameMismatch: reason = "the server's certificate is not for \(host)"
                case errSecNotTrusted, errSecCreateChainFailed:
                    reason =
                        "the server's certificate is not signed by an authority this client trusts (the "
                        + "certificates in \(path))"
                default:
                    reason =
                        "the server's certificate was refused (\(error.map { CFErrorCopyDescription($0) as String } ?? "error \(code)"))"
                }
                return .failure(HTTPTransportError(.insecure, reason + "; not connected"))
            }
        #endif

        /// A URLSession error as a reason.
        static func describe(_ error: any Error, host: String) -> HTTPTransportError {
            let nsError = error as NSError
            let detail = (nsError.userInfo[NSLocalizedDescriptionKey] as? String).map { ": \($0)" } ?? ""
            guard nsError.domain == NSURLErrorDomain else {
                return HTTPTransportError(.unreachable, "network error\(detail)")
            }
            switch nsError.code {
            case NSURLErrorCannotConnectToHost: return HTTPTransportError(.unreachable, "connection refused")
            case NSURLErrorNetworkConnectionLost:
                return HTTPTransportError(.unreachable, "connection reset by the server")
            case NSURLErrorTimedOut: return HTTPTransportError(.timedOut, "no answer in time")
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                return HTTPTransportError(.unreachable, "unknown host \(host)")
            case NSURLErrorNotConnectedToInternet: return HTTPTransportError(.unreachable, "no network")
            case NSURLErrorCancelled: return .cancelled
            case NSURLErrorServerCertificateHasBadDate:
                return HTTPTransportError(.insecure, "the server's certificate has expired or is not valid yet")
            case NSURLErrorServerCertificateNotYetValid:
                return HTTPTransportError(.insecure, "the server's certificate is not valid yet")
            case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot:
                return HTTPTransportError(
                    .insecure,
                    "the server's certificate is not for \(host) or not signed by an authority this client trusts"
                        + detail)
            case NSURLErrorSecureConnectionFailed, NSURLErrorClientCertificateRejected:
                return HTTPTransportError(.insecure, "the TLS handshake with \(host) failed\(detail)")
            case NSURLErrorCannotDecodeContentData, NSURLErrorCannotDecodeRawData:
                return HTTPTransportError(.invalidResponse, "the body does not decompress\(detail)")
            case NSURLErrorBadServerResponse:
                return HTTPTransportError(.invalidResponse, "not a valid HTTP answer\(detail)")
            case NSURLErrorUnsupportedURL:
                return HTTPTransportError(.invalidRequest, "unsupported URL\(detail)")
            default:
                if detail.contains("remaining to read") {
                    return HTTPTransportError(.invalidResponse, "the response was cut short\(detail)")
                }
                return HTTPTransportError(.unreachable, "network error \(nsError.code)\(detail)")
            }
        }
    }
#endif
