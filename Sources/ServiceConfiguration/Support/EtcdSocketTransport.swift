import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// HTTP/1.1 to etcd's JSON gateway over a plain TCP socket (`etcd://`): one connection per call (`Connection:
/// close`), every wait bounded and cancellable, chunked answers decoded (their trailers read and ignored).
///
/// Why not URLSession here: on Linux, FoundationNetworking (libcurl) stops the whole process with "Transfer
/// completed, but there's no response" when an answer ends with HTTP trailers, and etcd 3.4's gateway sends
/// trailers with every error answer (permission denied, an expired token, no leader, a compacted revision...).
/// Checked with Swift 6.3.1 and etcd 3.4.23: a range without a user on an etcd with authentication on is enough.
struct EtcdSocketTransport: EtcdTransport {
    /// The host, without brackets around an IPv6 address.
    let host: String
    let port: Int

    init(host: String, port: Int) {
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
    }

    func post(
        _ path: String, body: [UInt8], token: String?, timeout: Double, limit: Int, cancellation: EtcdCancellation?
    ) throws(EtcdError) -> (status: Int, body: [UInt8]) {
        let deadline = Deadline(seconds: timeout)
        let connection = try EtcdSocketConnection.open(
            host: host, port: port, deadline: deadline, cancellation: cancellation)
        defer { connection.close() }
        try connection.write(request(path, body: body, token: token), deadline: deadline)
        var reader = EtcdHTTPReader(connection: connection)
        let status = try reader.readHead(deadline: deadline)
        var answer: [UInt8] = []
        try reader.readBody(within: deadline) { bytes throws(EtcdError) in
            guard answer.count + bytes.count <= limit else {
                throw EtcdError(
                    .tooLarge, "etcd's answer is larger than the \(ByteCount.describe(limit)) limit; refused")
            }
            answer += bytes
        }
        return (status, answer)
    }

    func stream(
        _ path: String, body: [UInt8], token: String?, limit: Int, silenceLimit: Double,
        cancellation: EtcdCancellation, onLine: @escaping @Sendable ([UInt8]) -> Void,
        onEnd: @escaping @Sendable (EtcdTransferOutcome) -> Void
    ) {
        let request = self.request(path, body: body, token: token)
        let (host, port) = (self.host, self.port)
        let thread = Thread {
            do throws(EtcdError) {
                let connection = try EtcdSocketConnection.open(
                    host: host, port: port, deadline: Deadline(seconds: 10), cancellation: cancellation)
                defer { connection.close() }
                try connection.write(request, deadline: Deadline(seconds: 10))
                var reader = EtcdHTTPReader(connection: connection)
                let status = try reader.readHead(deadline: Deadline(seconds: silenceLimit))
                var pending: [UInt8] = []
                try reader.readBody(within: Deadline(seconds: silenceLimit, silence: true), renewing: true) {
                    bytes throws(EtcdError) in
                    pending += bytes
                    guard status == 200 else {
                        guard pending.count <= limit else { throw EtcdError(.tooLarge, "etcd's answer is too large") }
                        return
                    }
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = Array(pending[..<newline])
                        pending.removeSubrange(...newline)
                        if !line.isEmpty { onLine(line) }
                    }
                    guard pending.count <= limit else {
                        throw EtcdError(
                            .tooLarge, "a message of etcd's is larger than the \(ByteCount.describe(limit)) limit")
                    }
                }
                onEnd(.answer(status: status, body: pending))
            } catch {
                onEnd(.failure(error))
            }
        }
        thread.name = "etcd watch"
        thread.start()
    }

    /// The request's bytes. A token that could end the header line early is left out (etcd then refuses the call).
    private func request(_ path: String, body: [UInt8], token: String?) -> [UInt8] {
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head =
            "POST \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\n"
            + "Accept: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        if let token, token.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            head += "Authorization: \(token)\r\n"
        }
        return Array((head + "\r\n").utf8) + body
    }
}

/// A moment on the monotonic clock by which a wait must end.
struct Deadline {
    let nanoseconds: UInt64
    /// The allowance, for messages.
    let seconds: Double
    /// Whether running out means "etcd went silent" rather than "etcd did not answer in time".
    let silence: Bool

    init(seconds: Double, silence: Bool = false) {
        let clamped = min(max(seconds, 0.001), 1e6)
        nanoseconds = DispatchTime.now().uptimeNanoseconds + UInt64(clamped * 1e9)
        self.seconds = clamped
        self.silence = silence
    }

    /// Milliseconds left, for poll(2); throws once none are left.
    func remainingMilliseconds() throws(EtcdError) -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < nanoseconds else {
            let shown = seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
            throw EtcdError(
                .timedOut, silence ? "etcd sent nothing for \(shown)" : "etcd did not answer within \(shown)")
        }
        return Int32(min(Double(nanoseconds - now) / 1e6 + 1, 1_000_000))
    }
}

/// One TCP connection to etcd, used by one thread; an ``EtcdCancellation`` wakes its waits from another thread
/// through a pipe.
final class EtcdSocketConnection {
    private let socket: Int32
    private let wake: (read: Int32, write: Int32)
    private let cancellation: EtcdCancellation?
    private let cancellationID: UInt64?

    private init(socket: Int32, wake: (read: Int32, write: Int32), cancellation: EtcdCancellation?) throws(EtcdError) {
        self.socket = socket
        self.wake = wake
        self.cancellation = cancellation
        let writeEnd = wake.write
        if let cancellation {
            guard let id = cancellation.attach({ _ = Self.writeByte(writeEnd) }) else {
                Self.closeAll(socket, wake)
                throw .cancelled
            }
            cancellationID = id
        } else {
            cancellationID = nil
        }
    }

    /// Connects to `host`:`port` (each address it resolves to in turn) before `deadline`.
    static func open(
        host: String, port: Int, deadline: Deadline, cancellation: EtcdCancellation?
    ) throws(EtcdError) -> EtcdSocketConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw EtcdError(.unreachable, "unknown host \(host) (\(String(cString: gai_strerror(resolved))))")
        }
        defer { freeaddrinfo(list) }
        var failure = EtcdError(.unreachable, "no address for \(host)")
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            address = current.pointee.ai_next
            let descriptor = systemSocket(current.pointee.ai_family, Self.streamType, current.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            var pipeEnds: [Int32] = [-1, -1]
            guard pipe(&pipeEnds) == 0 else {
                _ = systemClose(descriptor)
                throw EtcdError(.unreachable, "cannot create a pipe: \(String(cString: strerror(errno)))")
            }
            for end in [descriptor] + pipeEnds {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
            #if canImport(Darwin)
                var one: Int32 = 1
                setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let connection = try EtcdSocketConnection(
                socket: descriptor, wake: (pipeEnds[0], pipeEnds[1]), cancellation: cancellation)
            do throws(EtcdError) {
                try connection.connect(current.pointee.ai_addr, length: current.pointee.ai_addrlen, deadline: deadline)
                return connection
            } catch {
                connection.close()
                if error.kind != .unreachable { throw error }
                failure = error
            }
        }
        throw failure
    }

    private func connect(_ address: UnsafeMutablePointer<sockaddr>?, length: socklen_t, deadline: Deadline)
        throws(EtcdError)
    {
        if systemConnect(socket, address, length) == 0 { return }
        guard errno == EINPROGRESS || errno == EINTR else { throw Self.failure(errno) }
        try wait(for: Int16(POLLOUT), deadline: deadline)
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size)
        if error != 0 { throw Self.failure(error) }
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8], deadline: Deadline) throws(EtcdError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Self.send(socket, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), deadline: deadline)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                throw Self.failure(errno)
            }
        }
    }

    /// Reads what is there (waiting for something until `deadline`); an empty result means etcd closed.
    func read(deadline: Deadline) throws(EtcdError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(socket, $0.baseAddress, $0.count) }
            if count >= 0 { return Array(buffer[0..<count]) }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), deadline: deadline)
            } else if errno != EINTR {
                throw Self.failure(errno)
            }
        }
    }

    /// Waits until the socket is ready for `events`; throws when cancelled or past `deadline`.
    private func wait(for events: Int16, deadline: Deadline) throws(EtcdError) {
        while true {
            var descriptors = [
                pollfd(fd: socket, events: events, revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let result = poll(&descriptors, 2, try deadline.remainingMilliseconds())
            if result < 0, errno != EINTR { throw Self.failure(errno) }
            if descriptors[1].revents != 0 { throw .cancelled }
            if descriptors[0].revents != 0 { return }
        }
    }

    /// Closes the connection; a cancellation after this does nothing.
    func close() {
        cancellation?.detach(cancellationID)
        Self.closeAll(socket, wake)
    }

    private static func closeAll(_ socket: Int32, _ wake: (read: Int32, write: Int32)) {
        for descriptor in [socket, wake.read, wake.write] { _ = systemClose(descriptor) }
    }

    private static func writeByte(_ descriptor: Int32) -> Int {
        var byte: UInt8 = 1
        return systemWrite(descriptor, &byte, 1)
    }

    /// A socket error as a reason.
    private static func failure(_ code: Int32) -> EtcdError {
        switch code {
        case ECONNREFUSED: EtcdError(.unreachable, "connection refused")
        case ECONNRESET, EPIPE: EtcdError(.unreachable, "connection reset by etcd")
        case ETIMEDOUT: EtcdError(.timedOut, "the connection timed out")
        case EHOSTUNREACH, ENETUNREACH: EtcdError(.unreachable, "no route to etcd")
        default: EtcdError(.unreachable, "network error: \(String(cString: strerror(code)))")
        }
    }

    #if canImport(Glibc) || canImport(Musl)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        private static func send(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
            systemSend(socket, bytes, count, Int32(MSG_NOSIGNAL))
        }
    #else
        private static let streamType = SOCK_STREAM
        private static func send(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
            systemSend(socket, bytes, count, 0)
        }
    #endif
}

// The C functions, named apart from the methods of the same names.
private func systemSocket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { socket(domain, type, proto) }
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(socket, address, length)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(socket, bytes, count, flags)
}
