import ServiceConfigurationCore
#if canImport(CCurl)
    import CCurl
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// HTTP through libcurl's easy interface (Linux): one easy handle per exchange, used only by the thread that
    /// runs it.
    ///
    /// What libcurl is trusted with, and what is checked here:
    /// - libcurl parses the answer: 1xx answers before the final one, chunked bodies and their trailers, lengths,
    ///   gzip/deflate (`CURLOPT_ACCEPT_ENCODING`), TLS with certificate and host checks (never turned off), a CA
    ///   file (`CURLOPT_CAINFO`). Only `http` and `https` are allowed, and libcurl follows no redirect
    ///   (``HTTPTransport/send(_:cancellation:receiver:)`` does, within the policy).
    /// - Here: the body limit on decompressed bytes in the write callback (and on the announced length through
    ///   the header callback), a bound on the headers, a `Content-Length` that cannot be represented refused as
    ///   malformed, the whole deadline (`CURLOPT_TIMEOUT_MS`) or a stream's silence limit
    ///   (`CURLOPT_LOW_SPEED_TIME`), cancellation from another thread (the progress callback, called at least once
    ///   a second), and libcurl's codes turned into plain reasons (certificate errors above all).
    /// - `CURLOPT_NOSIGNAL`: libcurl must not use signals in a multi-threaded program.
    struct CurlHTTPTransport: HTTPTransport {
        /// `curl_global_init`, once per process before the first handle. It is not thread-safe in older libcurl;
        /// a `static let` is initialised exactly once, on first use, under the runtime's lock.
        private static let initialised: CURLcode = curl_global_init(scc_global_all())

        /// The most header bytes accepted for one answer, 1xx answers and trailers included.
        static let headerLimit = 256 << 10

        /// `libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 ...`: the library and what it was built with.
        static var versionDescription: String { String(cString: curl_version()) }

        func exchange(
            _ request: HTTPRequest, deadline: ContinuousClock.Instant?, cancellation: HTTPCancellation?,
            receiver: HTTPReceiver
        ) throws(HTTPTransportError) -> HTTPResponseHead {
            guard Self.initialised == CURLE_OK else {
                throw HTTPTransportError(.unreachable, "libcurl could not be initialised (\(Self.initialised))")
            }
            try request.validate()
            if cancellation?.isCancelled == true { throw .cancelled }
            var remaining: Duration?
            if let deadline {
                remaining = deadline - .now
                guard remaining! > .zero else { throw Self.timedOut(request) }
            }
            guard let handle = curl_easy_init() else {
                throw HTTPTransportError(.unreachable, "libcurl could not create a transfer")
            }
            defer { curl_easy_cleanup(handle) }
            let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            defer { errorBuffer.deallocate() }
            var headerList: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(headerList) }

            let transfer = CurlTransfer(request: request, receiver: receiver, cancellation: cancellation)
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            var options = CurlOptions(handle: handle)
            options.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
            options.set(CURLOPT_URL, request.url.absoluteString)
            options.set(CURLOPT_NOSIGNAL, 1)
            options.restrictProtocols()
            options.set(CURLOPT_FOLLOWLOCATION, 0)
            options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            options.set(CURLOPT_USERAGENT, "ServiceConfiguration")
            if let remaining {
                let milliseconds = Self.milliseconds(remaining)
                options.set(CURLOPT_TIMEOUT_MS, milliseconds)
                options.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            } else {
                options.set(CURLOPT_CONNECTTIMEOUT_MS, 10_000)
            }
            if let silence = request.silenceLimit {
                // Less than a byte a second for that long: nothing arrived.
                options.set(CURLOPT_LOW_SPEED_LIMIT, 1)
                options.set(CURLOPT_LOW_SPEED_TIME, max(1, Self.milliseconds(silence) / 1000))
                options.set(CURLOPT_TCP_KEEPALIVE, 1)
            }
            if request.acceptsCompression { options.set(CURLOPT_ACCEPT_ENCODING, "") }
            // No CURLOPT_MAXFILESIZE_LARGE: libcurl 7.88 applies it to the announced length only, which the header
            // callback checks too, and it would refuse a Content-Length of 2^63 or more before the callback sees it,
            // as "too large", where that is a malformed answer.
            if let file = request.certificateAuthorityFile { options.set(CURLOPT_CAINFO, file) }
            switch request.method {
            case "GET":
                options.set(CURLOPT_HTTPGET, 1)
            case "POST":
                options.set(CURLOPT_POST, 1)
                options.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: curl_off_t(request.body.count))
                // COPYPOSTFIELDS copies the bytes (as many as the size set just before: zeros are kept).
                if request.body.isEmpty {
                    options.set(CURLOPT_COPYPOSTFIELDS, "")
                } else {
                    request.body.withUnsafeBytes { bytes in
                        options.set(
                            CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    }
                }
            default:
                options.set(CURLOPT_CUSTOMREQUEST, request.method)
            }
            // "Expect:" keeps libcurl from waiting for a 100 Continue before a large POST body.
            for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
                guard let appended = curl_slist_append(headerList, line) else {
                    throw HTTPTransportError(.unreachable, "libcurl could not hold the request's headers")
                }
                headerList = appended
            }
            options.set(CURLOPT_HTTPHEADER, list: headerList)
            options.set(CURLOPT_HEADERDATA, pointer: context)
            options.setWriteFunction(CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.header(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
            }
            options.set(CURLOPT_WRITEDATA, pointer: context)
            options.setWriteFunction(CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.body(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
            }
            options.set(CURLOPT_NOPROGRESS, 0)
            options.set(CURLOPT_XFERINFODATA, pointer: context)
            options.setProgressFunction { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }
            if let failure = options.failure {
                throw HTTPTransportError(.invalidRequest, "libcurl refused the request's settings (\(failure))")
            }

            let code = withExtendedLifetime(transfer) { curl_easy_perform(handle) }
            if let refusal = transfer.refusal { throw refusal }
            if transfer.stopped || transfer.isCancelled { throw .cancelled }
            if code == CURLE_OUT_OF_MEMORY, transfer.isReadingHead {
                // What libcurl 7.88 returns for a header line over its 100 KiB (CURL_MAX_HTTP_HEADER).
                throw HTTPTransportError(
                    .invalidResponse, "a header line of the answer is longer than libcurl's 100 KiB; refused")
            }
            guard code == CURLE_OK else {
                throw Self.failure(code, handle: handle, message: String(cString: errorBuffer), request: request)
            }
            guard let head = transfer.head else {
                throw HTTPTransportError(.invalidResponse, "the server sent no complete answer")
            }
            return head
        }

        // MARK: Failures in words

        /// libcurl's `code` for `request` as a reason a person can act on.
        private static func failure(
            _ code: CURLcode, handle: UnsafeMutableRawPointer, message: String, request: HTTPRequest
        ) -> HTTPTransportError {
            let host = request.url.host ?? "the server"
            let detail = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            switch code {
            case CURLE_COULDNT_CONNECT:
                switch Self.info(handle, CURLINFO_OS_ERRNO) {
                case Int(ECONNREFUSED): return HTTPTransportError(.unreachable, "connection refused")
                case Int(EHOSTUNREACH), Int(ENETUNREACH): return HTTPTransportError(.unreachable, "no route to \(host)")
                default: return HTTPTransportError(.unreachable, "cannot connect to \(host): \(detail)")
                }
            case CURLE_COULDNT_RESOLVE_HOST:
                return HTTPTransportError(.unreachable, "unknown host \(host)")
            case CURLE_COULDNT_RESOLVE_PROXY:
                return HTTPTransportError(.unreachable, "unknown proxy host: \(detail)")
            case CURLE_OPERATION_TIMEDOUT:
                if request.timeout == nil, let silence = request.silenceLimit {
                    return HTTPTransportError(.silent, "nothing arrived for \(silence.secondsDescription)")
                }
                return timedOut(request)
            case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
                let number = Self.info(handle, CURLINFO_OS_ERRNO)
                if number == Int(ECONNRESET) || number == Int(EPIPE) {
                    return HTTPTransportError(.unreachable, "connection reset by the server")
                }
                return HTTPTransportError(.unreachable, "network error: \(detail)")
            case CURLE_GOT_NOTHING:
                return HTTPTransportError(.unreachable, "the server closed the connection without answering")
            case CURLE_PARTIAL_FILE:
                return HTTPTransportError(.invalidResponse, "the response was cut short (\(detail))")
            case CURLE_BAD_CONTENT_ENCODING:
                return HTTPTransportError(.invalidResponse, "the body does not decompress (\(detail))")
            case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM,
                CURLE_HTTP3:
                return HTTPTransportError(.invalidResponse, "not a valid HTTP answer (\(detail))")
            case CURLE_FILESIZE_EXCEEDED:
                return .tooLarge(limit: request.maximumBodySize ?? 0, announced: nil)
            case CURLE_PEER_FAILED_VERIFICATION:
                return certificateFailure(handle, message: detail, host: host, request: request)
            case CURLE_SSL_CACERT_BADFILE:
                return HTTPTransportError(
                    .insecure,
                    "the certificate authority file \(request.certificateAuthorityFile ?? "") cannot be used "
                        + "(\(detail))")
            case CURLE_SSL_CONNECT_ERROR:
                return HTTPTransportError(.insecure, "the TLS handshake with \(host) failed (\(detail))")
            case CURLE_URL_MALFORMAT:
                return HTTPTransportError(.invalidRequest, "\(HTTPRedirect.visible(request.url)) is not a usable URL")
            case CURLE_ABORTED_BY_CALLBACK:
                return .cancelled
            default:
                return HTTPTransportError(.unreachable, "network error: \(detail) (libcurl \(code.rawValue))")
            }
        }

        /// A certificate that failed verification, named by what is wrong with it.
        private static func certificateFailure(
            _ handle: UnsafeMutableRawPointer, message: String, host: String, request: HTTPRequest
        ) -> HTTPTransportError {
            let trusted =
                request.certificateAuthorityFile.map { "the certificates in \($0)" } ?? "the system's authorities"
            let reason: String
            // libcurl checks the host name itself, after OpenSSL verified the chain: only its message says so.
            let hostMismatch = message.contains("subject name") || message.contains("target host name")
            // OpenSSL's X509_V_ERR_* numbers, which CURLINFO_SSL_VERIFYRESULT reports.
            switch Self.info(handle, CURLINFO_SSL_VERIFYRESULT) {
            case _ where hostMismatch: reason = "the server's certificate is not for \(host)"
            case 10: reason = "the server's certificate has expired"
            case 9: reason = "the server's certificate is not valid yet"
            case 2, 18, 19, 20, 21, 27:
                reason = "the server's certificate is not signed by an authority this client trusts (\(trusted))"
            case 23: reason = "the server's certificate was revoked"
            case 62, 64: reason = "the server's certificate is not for \(host)"
            default: reason = "the server's certificate was refused (\(message))"
            }
            return HTTPTransportError(.insecure, reason + "; not connected")
        }

        private static func timedOut(_ request: HTTPRequest) -> HTTPTransportError {
            HTTPTransportError(.timedOut, "no complete answer within \((request.timeout ?? .zero).secondsDescription)")
        }

        private static func info(_ handle: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int {
            var value = 0
            return scc_getinfo_long(handle, info, &value) == CURLE_OK ? value : -1
        }

        /// At least 1 ms, at most a million seconds.
        private static func milliseconds(_ duration: Duration) -> Int {
            Int(min(max((duration.inSeconds * 1000).rounded(.up), 1), 1e9))
        }

    }

    /// The options of one easy handle, set in order; the first refusal is kept.
    private struct CurlOptions {
        let handle: UnsafeMutableRawPointer
        var failure: String?

        mutating func check(_ code: CURLcode, _ option: CURLoption) {
            if code != CURLE_OK, failure == nil {
                failure = "option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))"
            }
        }

        mutating func set(_ option: CURLoption, _ value: Int) { check(scc_setopt_long(handle, option, value), option) }

        mutating func set(_ option: CURLoption, offset value: curl_off_t) {
            check(scc_setopt_offset(handle, option, value), option)
        }

        mutating func set(_ option: CURLoption, _ value: String) {
            check(scc_setopt_string(handle, option, value), option)
        }

        mutating func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
            check(scc_setopt_pointer(handle, option, value), option)
        }

        mutating func set(_ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?) {
            check(scc_setopt_list(handle, option, list), option)
        }

        mutating func setWriteFunction(_ option: CURLoption, _ function: curl_write_callback) {
            check(scc_setopt_write_function(handle, option, function), option)
        }

        mutating func setProgressFunction(_ function: curl_xferinfo_callback) {
            check(scc_setopt_xferinfo_function(handle, function), CURLOPT_XFERINFOFUNCTION)
        }

        mutating func restrictProtocols() { check(scc_restrict_protocols_to_http(handle), CURLOPT_PROTOCOLS) }
    }

    /// The state of one exchange, reached from libcurl's callbacks through their user-data pointer. Only the thread
    /// running `curl_easy_perform` touches it (libcurl calls back on that thread); the cancellation it reads is
    /// thread-safe.
    private final class CurlTransfer {
        let request: HTTPRequest
        let receiver: HTTPReceiver
        let cancellation: HTTPCancellation?
        /// The final head, once received.
        private(set) var head: HTTPResponseHead?
        /// Why the transfer was refused here, if it was.
        private(set) var refusal: HTTPTransportError?
        /// Whether the receiver asked to stop.
        private(set) var stopped = false
        private var status: Int?
        private var headers: [HTTPHeader] = []
        private var headerBytes = 0
        private var received = 0

        init(request: HTTPRequest, receiver: HTTPReceiver, cancellation: HTTPCancellation?) {
            self.request = request
            self.receiver = receiver
            self.cancellation = cancellation
        }

        var isCancelled: Bool { cancellation?.isCancelled == true }

        /// Whether a status line arrived and its head is not complete yet.
        var isReadingHead: Bool { status != nil && head == nil }

        /// One header line (status lines and the empty line ending a head included); false stops the transfer.
        func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
            headerBytes += bytes.count
            guard headerBytes <= CurlHTTPTransport.headerLimit else {
                return refuse(
                    HTTPTransportError(
                        .invalidResponse,
                        "the answer's headers are larger than \(ByteCount.describe(CurlHTTPTransport.headerLimit)); "
                            + "refused"))
            }
            // After the final head: the trailers of a chunked body, read and ignored.
            guard head == nil else { return true }
            var end = bytes.count
            while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let code = Int(parts[1]), (100...599).contains(code) else {
                    return refuse(
                        HTTPTransportError(.invalidResponse, "not an HTTP status line: \"\(line.prefix(60))\""))
                }
                status = code
                headers = []
                return true
            }
            guard let status else {
                return refuse(HTTPTransportError(.invalidResponse, "the answer has a header before its status line"))
            }
            if line.isEmpty {
                // A 1xx answer (100 Continue, 103 Early Hints) is followed by the real one.
                if status < 200 {
                    self.status = nil
                    return true
                }
                if let problem = contentLengthProblem() { return refuse(problem) }
                let complete = HTTPResponseHead(status: status, headers: headers, url: request.url)
                head = complete
                guard receiver.head(complete) else {
                    stopped = true
                    return false
                }
                return true
            }
            if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                return true
            }
            guard let colon = line.firstIndex(of: ":") else {
                return refuse(HTTPTransportError(.invalidResponse, "the answer has a malformed header line"))
            }
            headers.append(
                HTTPHeader(
                    String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            return true
        }

        /// Why the head's `Content-Length` is unusable, if it is: not a number, several different ones, a number
        /// that cannot be represented (2^63 or more), or more than the body limit.
        private func contentLengthProblem() -> HTTPTransportError? {
            let values = headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
                .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            guard let first = values.first else { return nil }
            guard values.allSatisfy({ $0 == first }) else {
                return HTTPTransportError(.invalidResponse, "the answer has several different Content-Length values")
            }
            guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return HTTPTransportError(
                    .invalidResponse, "the answer's Content-Length \"\(first.prefix(40))\" is not a number")
            }
            guard let length = Int64(first) else {
                return HTTPTransportError(
                    .invalidResponse,
                    "the answer's Content-Length \(first.prefix(40)) cannot be represented; refused as malformed")
            }
            if let limit = request.maximumBodySize, length > limit {
                return .tooLarge(limit: limit, announced: length)
            }
            return nil
        }

        /// A piece of the body, decompressed; false stops the transfer.
        func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
            received += bytes.count
            if let limit = request.maximumBodySize, received > limit {
                return refuse(.tooLarge(limit: limit, announced: nil))
            }
            guard receiver.body(bytes) else {
                stopped = true
                return false
            }
            return true
        }

        private func refuse(_ error: HTTPTransportError) -> Bool {
            if refusal == nil { refusal = error }
            return false
        }
    }
#endif
