import Foundation

/// Reads one HTTP/1.1 answer from an ``EtcdSocketConnection``: the status line and headers, then the body (by
/// `Content-Length`, chunked, or up to the end of the connection), handed over piece by piece as it arrives. The
/// trailers of a chunked answer are read and ignored.
struct EtcdHTTPReader {
    let connection: EtcdSocketConnection
    private var buffer: [UInt8] = []
    private var position = 0
    private var closed = false
    private var chunked = false
    private var length: Int?

    /// The longest status or header line accepted.
    static let lineLimit = 16 << 10

    init(connection: EtcdSocketConnection) {
        self.connection = connection
    }

    /// Reads the status line and the headers; returns the status (informational answers are skipped).
    mutating func readHead(deadline: Deadline) throws(EtcdError) -> Int {
        while true {
            let line = try readLine(deadline)
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]),
                (100...599).contains(status)
            else {
                throw EtcdError(
                    .invalidResponse, "not an HTTP answer: \"\(line.prefix(60))\" (is this etcd's client port?)")
            }
            chunked = false
            length = nil
            var count = 0
            while true {
                let header = try readLine(deadline)
                if header.isEmpty { break }
                count += 1
                guard count <= 200, let colon = header.firstIndex(of: ":") else {
                    throw EtcdError(.invalidResponse, "etcd's answer has a malformed header")
                }
                let name = header[..<colon].lowercased()
                let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "transfer-encoding" { chunked = value.lowercased().contains("chunked") }
                if name == "content-length" {
                    guard let number = Int(value), number >= 0 else {
                        throw EtcdError(.invalidResponse, "etcd's answer has a bad Content-Length")
                    }
                    length = number
                }
            }
            if status >= 200 { return status }
        }
    }

    /// Reads the body, giving each piece to `deliver` as it arrives, all before `limit`; with `renewing`, `limit`'s
    /// allowance starts again before each wait (a stream may last, but not stay silent, longer than it).
    mutating func readBody(
        within limit: Deadline, renewing: Bool = false, _ deliver: ([UInt8]) throws(EtcdError) -> Void
    ) throws(EtcdError) {
        let deadline = { renewing ? Deadline(seconds: limit.seconds, silence: limit.silence) : limit }
        if chunked {
            while true {
                let line = try readLine(deadline())
                let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                    throw EtcdError(.invalidResponse, "etcd's answer has a bad chunk size")
                }
                if size == 0 {
                    while try !readLine(deadline()).isEmpty {}  // trailers
                    return
                }
                try take(size, deadline: deadline, deliver)
                guard try readLine(deadline()).isEmpty else {
                    throw EtcdError(.invalidResponse, "etcd's answer has a chunk longer than it said")
                }
            }
        } else if let length {
            try take(length, deadline: deadline, deliver)
        } else {
            while true {
                if position == buffer.count {
                    try fill(deadline())
                    if closed { return }
                }
                let piece = Array(buffer[position...])
                position = buffer.count
                try deliver(piece)
            }
        }
    }

    /// Hands over exactly `count` bytes.
    private mutating func take(
        _ count: Int, deadline: () -> Deadline, _ deliver: ([UInt8]) throws(EtcdError) -> Void
    ) throws(EtcdError) {
        var remaining = count
        while remaining > 0 {
            if position == buffer.count {
                try fill(deadline())
                if closed { throw Self.cutShort }
            }
            let end = min(buffer.count, position + remaining)
            let piece = Array(buffer[position..<end])
            position = end
            remaining -= piece.count
            try deliver(piece)
        }
    }

    /// One line, without its CRLF (or LF).
    private mutating func readLine(_ deadline: Deadline) throws(EtcdError) -> String {
        var searched = 0  // bytes after `position` known to hold no newline
        while true {
            if let newline = buffer[(position + searched)...].firstIndex(of: 0x0A) {
                var end = newline
                if end > position, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[position..<end], as: UTF8.self)
                position = newline + 1
                return line
            }
            searched = buffer.count - position
            guard searched <= Self.lineLimit else {
                throw EtcdError(.invalidResponse, "etcd's answer has a line longer than \(Self.lineLimit) bytes")
            }
            try fill(deadline)
            if closed { throw Self.cutShort }
        }
    }

    /// Reads more from the connection (dropping what was consumed); sets `closed` when etcd closed it.
    private mutating func fill(_ deadline: Deadline) throws(EtcdError) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        let bytes = try connection.read(deadline: deadline)
        if bytes.isEmpty { closed = true }
        buffer += bytes
    }

    private static let cutShort = EtcdError(.unreachable, "etcd closed the connection in the middle of an answer")
}
