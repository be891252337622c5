package import Foundation

/// The status line and headers of an answer.
package struct HTTPResponseHead: Sendable, Hashable {
    /// The status code (200, 304, ...); never an informational 1xx, which the transport reads past.
    package var status: Int
    /// The headers, in the order received.
    package var headers: [HTTPHeader]
    /// The URL that answered (after any redirect followed).
    package var url: URL

    package init(status: Int, headers: [HTTPHeader], url: URL) {
        self.status = status
        self.headers = headers
        self.url = url
    }

    /// The value of the header `name` (any case); repeated headers are joined with `, `.
    package func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The status with its reason phrase in words: `HTTP 503 (service unavailable)`.
    package var statusDescription: String {
        let phrase = Self.phrases[status].map { " (\($0))" } ?? ""
        return "HTTP \(status)\(phrase)"
    }

    private static let phrases: [Int: String] = [
        200: "ok", 204: "no content", 301: "moved permanently", 302: "found", 303: "see other",
        304: "not modified", 307: "temporary redirect", 308: "permanent redirect", 400: "bad request",
        401: "unauthorized", 403: "forbidden", 404: "not found", 405: "method not allowed", 408: "request timeout",
        409: "conflict", 410: "gone", 413: "payload too large", 429: "too many requests",
        500: "internal server error", 501: "not implemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timeout",
    ]
}

/// A whole answer: the head and the body (decompressed).
package struct HTTPResponse: Sendable, Hashable {
    /// The status line and headers.
    package var head: HTTPResponseHead
    /// The whole body, decompressed.
    package var body: Data

    package init(head: HTTPResponseHead, body: Data) {
        self.head = head
        self.body = body
    }
}
