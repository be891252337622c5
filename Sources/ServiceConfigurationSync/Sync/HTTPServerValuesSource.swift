public import Foundation
import ServiceConfigurationCore

/// Server values from an HTTP(S) endpoint, fetched with conditional requests through the platform's HTTP transport
/// (libcurl on Linux, URLSession on Apple platforms).
///
/// ```swift
/// let source = HTTPServerValuesSource(url: URL(string: "https://config.example.com/values.json")!)
/// let sync = ServerValuesSync(source: source, service: service, interval: .seconds(300))
/// sync.start()
/// ```
///
/// Each fetch sends `If-None-Match` (the last `ETag`) and `If-Modified-Since` (the last `Last-Modified`) when it
/// has them; a 304 keeps the values. A 304 to a request that sent neither is an error (nothing is stored from it).
/// A 200 must carry the whole set of values in the ``format`` (by default a JSON object of strings) and is refused
/// whole, with the reason, when anything is wrong: another status, the wrong content type, a `Content-Length` that
/// is malformed or cannot be represented, a body over ``maximumBodySize`` (counted after decompression, as it
/// arrives, and never kept: the transfer stops), a truncated body, or a body the format cannot decode. The whole
/// fetch — connecting, redirects, the body, decompressing it — must end within ``timeout``. Redirects are followed
/// to the same scheme, host and port only (unless ``followsRedirectsToOtherHosts``), and credentials (the URL's
/// user name and password, `Authorization` and `Cookie` headers) are never sent to another host.
public final class HTTPServerValuesSource: ServerValuesSource {
    /// The endpoint.
    public let url: URL
    /// How the body is read.
    public let format: ServerValuesFormat
    /// The longest a whole fetch may take, from the request to the last byte.
    public let timeout: Duration
    /// The largest body accepted, in bytes after decompression.
    public let maximumBodySize: Int
    /// Extra request headers, for example `Authorization`.
    public let headers: [String: String]
    /// Whether a redirect may lead to another host or port (never from `https` to `http`); credentials are not
    /// sent there.
    public let followsRedirectsToOtherHosts: Bool
    private let transport: any HTTPTransport

    /// The default body limit: 10 MiB.
    public static let defaultMaximumBodySize = 10 << 20

    /// Creates a source for `url`. Nothing is fetched until a sync asks.
    public init(
        url: URL,
        format: ServerValuesFormat = .json,
        timeout: Duration = .seconds(30),
        maximumBodySize: Int = HTTPServerValuesSource.defaultMaximumBodySize,
        headers: [String: String] = [:],
        followsRedirectsToOtherHosts: Bool = false
    ) {
        self.url = url
        self.format = format
        // At most a million seconds: a longer wait is no limit.
        self.timeout = min(max(timeout, .milliseconds(1)), .seconds(1_000_000))
        self.maximumBodySize = maximumBodySize
        self.headers = headers
        self.followsRedirectsToOtherHosts = followsRedirectsToOtherHosts
        transport = HTTPTransports.system()
    }

    /// The URL without user name or password.
    public var location: String { HTTPRedirect.visible(url) }

    /// Fetches once, conditionally on `validators`.
    public func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError)
        -> ServerValuesFetch
    {
        var request = HTTPRequest(
            url: url, timeout: timeout, maximumBodySize: maximumBodySize, acceptsCompression: true,
            redirects: HTTPRedirectPolicy(maximum: 5, allowsOtherHosts: followsRedirectsToOtherHosts))
        request.headers.append(HTTPHeader("Accept", format.contentTypes?.joined(separator: ", ") ?? "*/*"))
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.append(HTTPHeader(name, value)) }
        if let etag = validators.etag { request.headers.append(HTTPHeader("If-None-Match", etag)) }
        if let lastModified = validators.lastModified {
            request.headers.append(HTTPHeader("If-Modified-Since", lastModified))
        }
        let (transport, format, prepared) = (self.transport, self.format, request)
        let result = await HTTPCancellation.runBlocking("HTTPServerValuesSource.fetch") { cancellation in
            Self.transfer(prepared, validators: validators, format: format, transport: transport, cancellation)
        }
        let (head, body) = try result.get()
        let received = ServerValuesValidators(etag: head.header("ETag"), lastModified: head.header("Last-Modified"))
        if head.status == 304 { return .notModified(validators: received.filling(from: validators)) }
        do {
            return .values(try format.decode(body), validators: received)
        } catch let error as ServerSyncError {
            throw error
        } catch {
            throw ServerSyncError(kind: .invalidResponse, reason: "\(error)")
        }
    }

    /// One exchange, on the calling thread: a 200 in the format's content type with its whole body, or a 304 to a
    /// conditional request; anything else is refused as soon as its head arrives, before any body is kept.
    private static func transfer(
        _ request: HTTPRequest, validators: ServerValuesValidators, format: ServerValuesFormat,
        transport: any HTTPTransport, _ cancellation: HTTPCancellation
    ) -> Result<(HTTPResponseHead, Data), ServerSyncError> {
        var refusal: ServerSyncError?
        var body = Data()
        let receiver = HTTPReceiver(
            head: { head in
                switch head.status {
                case 200:
                    if let reason = format.refusal(ofContentType: head.header("Content-Type")) {
                        refusal = ServerSyncError(kind: .invalidResponse, reason: reason)
                    } else if let length = head.header("Content-Length").flatMap(Int.init) {
                        // The transport refused a length over the limit; reserve no more than 16 MiB anyway.
                        body.reserveCapacity(min(length, 16 << 20))
                    }
                case 304 where validators.isEmpty:
                    refusal = ServerSyncError(
                        kind: .invalidResponse,
                        reason: "HTTP 304 (not modified) to a request that named no version (no If-None-Match, no "
                            + "If-Modified-Since); nothing was stored")
                case 304:
                    break
                default:
                    refusal = ServerSyncError(
                        kind: .httpStatus, reason: head.statusDescription, statusCode: head.status)
                }
                return refusal == nil
            },
            body: { bytes in
                body.append(contentsOf: bytes)
                return true
            })
        do {
            let head = try transport.send(request, cancellation: cancellation, receiver: receiver)
            return .success((head, body))
        } catch {
            if let refusal { return .failure(refusal) }
            return .failure(syncError(error))
        }
    }

    /// A transport failure as a sync failure.
    static func syncError(_ error: HTTPTransportError) -> ServerSyncError {
        switch error.kind {
        case .unreachable, .insecure: ServerSyncError(kind: .unreachable, reason: error.reason)
        case .timedOut, .silent: ServerSyncError(kind: .timedOut, reason: error.reason)
        case .tooLarge:
            ServerSyncError(
                kind: .tooLarge,
                reason: "the response is larger than the \(ByteCount.describe(error.limit ?? 0)) limit"
                    + (error.announcedSize.map { " (\(HTTPTransportError.describe(announced: $0)) announced)" } ?? "")
                    + "; refused")
        case .invalidResponse: ServerSyncError(kind: .invalidResponse, reason: error.reason)
        case .redirectRefused: ServerSyncError(kind: .httpStatus, reason: error.reason, statusCode: error.status)
        case .invalidRequest: ServerSyncError(kind: .notConfigured, reason: error.reason)
        case .cancelled: .stopped
        }
    }
}
