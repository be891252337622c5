import Foundation

/// HTTP for the sync, etcd and anything else of the package that talks to a server: one seam, two implementations.
///
/// - On Linux, ``CurlHTTPTransport``: libcurl directly. FoundationNetworking's URLSession ends the process on an
///   answer with chunked trailers (which etcd's gateway and some CDNs send) and traps on a `Content-Length` of
///   2^63−1, and neither can be caught.
/// - On Apple platforms, ``URLSessionHTTPTransport``, where those crashes do not exist.
///
/// An implementation makes one exchange and follows no redirect itself; ``send(_:cancellation:receiver:)`` follows
/// them as the request's ``HTTPRedirectPolicy`` allows, and ``fetch(_:cancellation:)`` collects a whole body.
/// Exchanges block the calling thread (``HTTPCancellation/runBlocking(_:_:)`` runs them for async code) and end
/// promptly when cancelled from another thread.
package protocol HTTPTransport: Sendable {
    /// Sends `request` once (no redirect followed) and hands the answer to `receiver` on the calling thread: the
    /// head once, then the body piece by piece (decompressed) as it arrives. Enforces the request's body limit, its
    /// whole deadline (`deadline`, which a chain of redirects shares) or silence limit, and `cancellation`.
    ///
    /// - Returns: the head, once the whole body was received.
    /// - Throws: ``HTTPTransportError``; ``HTTPTransportError/Kind/cancelled`` when the receiver returned false.
    func exchange(
        _ request: HTTPRequest, deadline: ContinuousClock.Instant?, cancellation: HTTPCancellation?,
        receiver: HTTPReceiver
    ) throws(HTTPTransportError) -> HTTPResponseHead
}

/// What an ``HTTPTransport`` hands an answer to, on the thread that runs the exchange. Either closure returns false
/// to stop the transfer (the exchange then throws ``HTTPTransportError/Kind/cancelled``).
package struct HTTPReceiver {
    /// The status line and headers of the final answer (1xx answers are read past).
    package var head: (HTTPResponseHead) -> Bool
    /// A piece of the body, decompressed.
    package var body: (UnsafeRawBufferPointer) -> Bool

    package init(
        head: @escaping (HTTPResponseHead) -> Bool, body: @escaping (UnsafeRawBufferPointer) -> Bool
    ) {
        self.head = head
        self.body = body
    }
}

/// The transport of this platform.
package enum HTTPTransports {
    /// libcurl on Linux, URLSession on Apple platforms.
    package static func system() -> any HTTPTransport {
        #if canImport(CCurl)
            CurlHTTPTransport()
        #elseif canImport(Darwin)
            URLSessionHTTPTransport()
        #else
            UnavailableHTTPTransport()
        #endif
    }

    /// Which transport ``system()`` returns, for messages and documentation: `libcurl 7.88.1` or `URLSession`.
    package static var systemName: String {
        #if canImport(CCurl)
            CurlHTTPTransport.versionDescription
        #elseif canImport(Darwin)
            "URLSession"
        #else
            "none"
        #endif
    }
}

/// A platform with neither libcurl nor URLSession: every exchange fails, saying so.
struct UnavailableHTTPTransport: HTTPTransport {
    func exchange(
        _ request: HTTPRequest, deadline: ContinuousClock.Instant?, cancellation: HTTPCancellation?,
        receiver: HTTPReceiver
    ) throws(HTTPTransportError) -> HTTPResponseHead {
        throw HTTPTransportError(.invalidRequest, "no HTTP transport on this platform")
    }
}

extension HTTPTransport {
    /// Sends `request`, following redirects as its policy allows (each hop within the one deadline), and hands the
    /// final answer to `receiver`.
    package func send(
        _ request: HTTPRequest, cancellation: HTTPCancellation?, receiver: HTTPReceiver
    ) throws(HTTPTransportError) -> HTTPResponseHead {
        let deadline = request.timeout.map { ContinuousClock.now.advanced(by: $0) }
        var current = request
        var hops = 0
        while true {
            var redirect: HTTPResponseHead?
            let policy = request.redirects
            let hop = HTTPReceiver(
                head: { head in
                    if policy.maximum > 0, HTTPRedirect.statuses.contains(head.status) {
                        redirect = head
                        return false
                    }
                    return receiver.head(head)
                },
                body: receiver.body)
            do {
                return try exchange(current, deadline: deadline, cancellation: cancellation, receiver: hop)
            } catch  where error.kind == .cancelled && redirect != nil && cancellation?.isCancelled != true {
                hops += 1
                current = try HTTPRedirect.follow(redirect!, from: current, original: request, hops: hops)
            }
        }
    }

    /// Sends `request` (following redirects as it allows) and returns the whole answer, its body within the
    /// request's limit.
    package func fetch(
        _ request: HTTPRequest, cancellation: HTTPCancellation?
    ) throws(HTTPTransportError) -> HTTPResponse {
        var body = Data()
        let head = try send(
            request, cancellation: cancellation,
            receiver: HTTPReceiver(
                head: { head in
                    // A body of known size is kept in one allocation (up to 16 MiB); Data grows in place otherwise.
                    if let length = head.header("Content-Length").flatMap(Int.init),
                        length <= (request.maximumBodySize ?? 0)
                    {
                        body.reserveCapacity(min(length, 16 << 20))
                    }
                    return true
                },
                body: { bytes in
                    body.append(contentsOf: bytes)
                    return true
                }))
        return HTTPResponse(head: head, body: body)
    }
}

/// Following a redirect within an ``HTTPRedirectPolicy``.
enum HTTPRedirect {
    /// The statuses that redirect.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The request to make for the redirect `head` answered to `request`; throws when the policy refuses it.
    static func follow(
        _ head: HTTPResponseHead, from request: HTTPRequest, original: HTTPRequest, hops: Int
    ) throws(HTTPTransportError) -> HTTPRequest {
        let policy = original.redirects
        guard let location = head.header("Location"), !location.isEmpty,
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), let host = target.host, !host.isEmpty
        else {
            throw HTTPTransportError(
                .invalidResponse, "\(head.statusDescription) without a usable Location", status: head.status)
        }
        let shown = visible(target)
        guard hops <= policy.maximum else {
            throw HTTPTransportError(
                .redirectRefused, "more than \(policy.maximum) redirects (the last to \(shown))", status: head.status)
        }
        let from = Origin(request.url)
        let to = Origin(target)
        guard scheme == "http" || scheme == "https" else {
            throw HTTPTransportError(
                .redirectRefused, "redirected to \(shown), which is not HTTP; not followed", status: head.status)
        }
        if from != to {
            guard policy.allowsOtherHosts else {
                throw HTTPTransportError(
                    .redirectRefused,
                    "\(head.statusDescription) to \(shown), another \(from.scheme == to.scheme ? "host" : "scheme"); "
                        + "redirects are followed only to \(from.scheme)://\(from.authority)",
                    status: head.status)
            }
            guard !(from.scheme == "https" && to.scheme == "http") else {
                throw HTTPTransportError(
                    .redirectRefused, "redirected from https to \(shown) (plain http); not followed",
                    status: head.status)
            }
        }
        var next = request
        next.url = target
        if from == to, let user = request.url.user,
            var components = URLComponents(url: target, resolvingAgainstBaseURL: false)
        {
            // The same origin: the same credentials.
            components.user = user
            components.password = request.url.password
            next.url = components.url ?? target
        } else if from != to {
            next.headers.removeAll { HTTPHeader.credentialNames.contains($0.name.lowercased()) }
        }
        if head.status == 303 || ((head.status == 301 || head.status == 302) && request.method == "POST") {
            next.method = "GET"
            next.body = []
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        return next
    }

    /// A URL without user name or password, for messages.
    static func visible(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.user != nil || components.password != nil
        else { return url.absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// Scheme, host and port, the port made explicit.
    struct Origin: Equatable {
        var scheme: String
        var host: String
        var port: Int

        init(_ url: URL) {
            scheme = url.scheme?.lowercased() ?? ""
            host = url.host?.lowercased() ?? ""
            port = url.port ?? (scheme == "https" ? 443 : 80)
        }

        var authority: String { "\(host):\(port)" }
    }
}
