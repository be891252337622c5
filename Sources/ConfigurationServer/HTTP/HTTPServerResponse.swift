/// An answer of `config-menu serve`: a status, header fields and a body. Every answer closes its connection (one
/// request per connection), except a change stream, which stays open.
package struct HTTPServerResponse: Sendable, Equatable {
    /// 200, 304, 400, ...
    package var status: Int
    /// Header fields in order (`Content-Length` and `Connection` are added when written).
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static func == (lhs: HTTPServerResponse, rhs: HTTPServerResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// A JSON answer.
    package static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = [])
        -> HTTPServerResponse
    {
        HTTPServerResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    /// The bytes on the wire: status line, fields, `Content-Length` (none for 1xx, 204 and 304), `Connection: close`
    /// and the body.
    package var encoded: [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.phrase(status))\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        if !headers.contains(where: { $0.name == "Access-Control-Allow-Origin" }) {
            text += "Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ETag\r\n"
        }
        if status != 304 && status != 204 { text += "Content-Length: \(body.count)\r\n" }
        text += "Connection: close\r\n\r\n"
        return Array(text.utf8) + (status == 304 ? [] : body)
    }

    /// The head of a change stream: no length, the connection stays open.
    package static let eventStreamHead = Array(
        ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
            + "Access-Control-Allow-Origin: *\r\n"
            + "X-Accel-Buffering: no\r\nConnection: keep-alive\r\n\r\n").utf8)

    /// The reason phrase of the statuses the server answers with.
    static func phrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
