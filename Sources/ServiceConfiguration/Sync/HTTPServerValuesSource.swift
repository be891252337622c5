public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server values from an HTTP(S) endpoint, fetched with Foundation's `URLSession` and conditional requests.
///
/// ```swift
/// let source = HTTPServerValuesSource(url: URL(string: "https://config.example.com/values.json")!)
/// let sync = ServerValuesSync(source: source, service: service, interval: .seconds(300))
/// sync.start()
/// ```
///
/// Each fetch sends `If-None-Match` (the last `ETag`) and `If-Modified-Since` (the last `Last-Modified`) when it
/// has them; a 304 keeps the values. A 200 must carry the whole set of values in the ``format`` (by default a JSON
/// object of strings) and is refused whole, with the reason, when anything is wrong: another status, the wrong
/// content type, a body over ``maximumBodySize`` (not kept in memory: the transfer is cancelled), a truncated
/// body, or a body the format cannot decode. A fetch that does not complete within ``timeout`` fails.
public final class HTTPServerValuesSource: ServerValuesSource {
    /// The endpoint.
    public let url: URL
    /// How the body is read.
    public let format: ServerValuesFormat
    /// The longest a fetch may take, from the request to the last byte.
    public let timeout: Duration
    /// The largest body accepted, in bytes.
    public let maximumBodySize: Int
    /// Extra request headers, for example `Authorization`.
    public let headers: [String: String]
    private let session: URLSession
    private let delegate = HTTPFetchDelegate()

    /// The default body limit: 10 MiB.
    public static let defaultMaximumBodySize = 10 << 20

    /// Creates a source for `url`. Nothing is fetched until a sync asks.
    public init(
        url: URL,
        format: ServerValuesFormat = .json,
        timeout: Duration = .seconds(30),
        maximumBodySize: Int = HTTPServerValuesSource.defaultMaximumBodySize,
        headers: [String: String] = [:]
    ) {
        self.url = url
        self.format = format
        self.timeout = timeout
        self.maximumBodySize = maximumBodySize
        self.headers = headers
        // At most a million seconds: a longer wait is no limit, and would overflow the dispatch clock.
        let seconds = min(
            1e6, max(0.001, Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        // The fetch's own deadline (``HTTPFetchDelegate``) names the limit; URLSession's are a second line.
        configuration.timeoutIntervalForRequest = seconds + 1
        configuration.timeoutIntervalForResource = seconds + 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The URL without user name or password.
    public var location: String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.user != nil || components.password != nil
        else { return url.absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// Fetches once, conditionally on `validators`.
    public func fetch(ifChangedSince validators: ServerValuesValidators) async throws(ServerSyncError)
        -> ServerValuesFetch
    {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        request.setValue(format.contentTypes?.joined(separator: ", ") ?? "*/*", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let etag = validators.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = validators.lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        let result = await delegate.fetch(
            request, in: session, limit: maximumBodySize, format: format, timeout: timeout)
        switch result {
        case .failure(let error):
            throw error
        case .response(let status, let etag, let lastModified, let body):
            let received = ServerValuesValidators(etag: etag, lastModified: lastModified)
            if status == 304 { return .notModified(validators: received.filling(from: validators)) }
            do {
                return .values(try format.decode(body), validators: received)
            } catch let error as ServerSyncError {
                throw error
            } catch {
                throw ServerSyncError(kind: .invalidResponse, reason: "\(error)")
            }
        }
    }
}
