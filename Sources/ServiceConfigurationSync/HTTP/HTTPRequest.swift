package import Foundation
import ServiceConfigurationCore

/// One HTTP request for an ``HTTPTransport``, with the bounds the transport enforces while it runs.
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "http://127.0.0.1:8000/values.json")!)
/// request.headers.append(HTTPHeader("Accept", "application/json"))
/// request.timeout = .seconds(30)              // the whole exchange: connect, redirects, body, decompression
/// request.maximumBodySize = 10 << 20          // counted on decompressed bytes, as they arrive
/// ```
package struct HTTPRequest: Sendable {
    /// `GET` or `POST`.
    package var method: String
    /// An `http` or `https` URL, with user name and password if Basic authentication is wanted.
    package var url: URL
    /// Request headers, sent in order; none may hold a line break or another control character.
    package var headers: [HTTPHeader]
    /// The body of a `POST`.
    package var body: [UInt8]
    /// The longest the whole exchange may take, from the first connection to the last byte of the last answer
    /// (redirects and decompression included); `nil` for a stream, which ``silenceLimit`` bounds instead.
    package var timeout: Duration?
    /// For a stream: the longest the server may send nothing (no header, no byte of body).
    package var silenceLimit: Duration?
    /// The largest body accepted, in bytes after decompression; a larger one ends the transfer as it arrives.
    /// `nil` for no limit (a stream, whose receiver bounds what it keeps).
    package var maximumBodySize: Int?
    /// Whether to ask for a compressed answer (`Accept-Encoding`); it is decompressed as it arrives.
    package var acceptsCompression: Bool
    /// Which redirects are followed.
    package var redirects: HTTPRedirectPolicy
    /// A file of PEM certificates to trust for `https` instead of the system's authorities.
    package var certificateAuthorityFile: String?

    package init(
        method: String = "GET", url: URL, headers: [HTTPHeader] = [], body: [UInt8] = [],
        timeout: Duration? = .seconds(30), silenceLimit: Duration? = nil, maximumBodySize: Int? = nil,
        acceptsCompression: Bool = false, redirects: HTTPRedirectPolicy = .none, certificateAuthorityFile: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.silenceLimit = silenceLimit
        self.maximumBodySize = maximumBodySize
        self.acceptsCompression = acceptsCompression
        self.redirects = redirects
        self.certificateAuthorityFile = certificateAuthorityFile
    }

    /// Throws when the request cannot be sent as it is: a scheme other than `http` or `https`, a header name or value
    /// with a line break or another control character (it could end the header early and add others).
    func validate() throws(HTTPTransportError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPTransportError(.invalidRequest, "\(HTTPRedirect.visible(url)) is not an http or https URL")
        }
        func printable(_ text: String) -> Bool {
            text.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
        }
        for header in headers {
            guard !header.name.isEmpty, !header.name.contains(":"), printable(header.name), printable(header.value)
            else {
                throw HTTPTransportError(
                    .invalidRequest,
                    "the request header \(VisibleText.escaped(header.name)) holds a line break or another control "
                        + "character; not sent")
            }
        }
    }

    /// The first value of the header `name` (any case), if any.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// One header line of a request or an answer.
package struct HTTPHeader: Sendable, Hashable {
    /// The name, as written (compare without case).
    package var name: String
    /// The value, without the spaces around it.
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Headers that carry credentials: never sent to another origin than the request's.
    static let credentialNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}

/// Which redirects an ``HTTPTransport`` follows. Credentials (the URL's user name and password, `Authorization`,
/// `Cookie`) are only ever sent to the origin (scheme, host and port) of the request as it was made: a redirect to
/// another origin, when allowed, goes without them.
package struct HTTPRedirectPolicy: Sendable, Hashable {
    /// The most redirects followed in one exchange.
    package var maximum: Int
    /// Whether a redirect may lead to another host or port (never from `https` to `http`).
    package var allowsOtherHosts: Bool

    package init(maximum: Int, allowsOtherHosts: Bool) {
        self.maximum = maximum
        self.allowsOtherHosts = allowsOtherHosts
    }

    /// No redirect is followed: a 3xx is the answer.
    package static let none = HTTPRedirectPolicy(maximum: 0, allowsOtherHosts: false)
    /// Up to 5 redirects to the same scheme, host and port.
    package static let sameOrigin = HTTPRedirectPolicy(maximum: 5, allowsOtherHosts: false)
}
