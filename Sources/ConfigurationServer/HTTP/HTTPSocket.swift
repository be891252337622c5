import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket on an IPv4 address, and the connections it accepts: the few system calls
/// `config-menu serve` needs, each failure named.
package struct HTTPSocket: Sendable {
    /// The file descriptor.
    package let descriptor: Int32

    /// Why a socket could not be opened or used.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// An IPv4 address and port, parsed from `ADDRESS:PORT` (`localhost` is 127.0.0.1).
    package struct Address: Sendable, Equatable, CustomStringConvertible {
        package var host: String
        package var port: UInt16

        /// Parses `ADDRESS:PORT`; throws, naming the problem, when it is not one.
        package init(parsing text: String) throws(Failure) {
            guard let colon = text.lastIndex(of: ":") else {
                throw Failure(description: "\"\(text)\" is not ADDRESS:PORT (for example 127.0.0.1:8016)")
            }
            var host = String(text[..<colon])
            let portText = text[text.index(after: colon)...]
            guard let port = UInt16(portText) else {
                throw Failure(description: "the port of \"\(text)\" is not a number from 0 to 65535")
            }
            if host == "localhost" { host = "127.0.0.1" }
            var address = in_addr()
            guard inet_pton(AF_INET, host, &address) == 1 else {
                throw Failure(
                    description: "\"\(host)\" is not an IPv4 address (IPv6 and host names other than localhost are "
                        + "not supported; 0.0.0.0 listens on every interface)")
            }
            self.host = host
            self.port = port
        }

        /// Whether the address is a loopback one (127.0.0.0/8).
        package var isLoopback: Bool { host.hasPrefix("127.") }

        package var description: String { "\(host):\(port)" }
    }

    /// Opens a socket listening on `address`; port 0 takes a free one (``boundAddress()`` says which).
    package static func listen(on address: Address, backlog: Int32 = 64) throws(Failure) -> HTTPSocket {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "cannot open a socket: \(Self.errorText())") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        _ = inet_pton(AF_INET, address.host, &socketAddress.sin_addr)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let reason = Self.errorText()
            _ = systemClose(fd)
            throw Failure(description: "cannot listen on \(address): \(reason)")
        }
        guard systemListen(fd, backlog) == 0 else {
            let reason = Self.errorText()
            _ = systemClose(fd)
            throw Failure(description: "cannot listen on \(address): \(reason)")
        }
        return HTTPSocket(descriptor: fd)
    }

    /// The address the socket is bound to (with the port the system chose for port 0).
    package func boundAddress() -> Address? {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &socketAddress.sin_addr, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return try? Address(parsing: "\(host):\(UInt16(bigEndian: socketAddress.sin_port))")
    }

    /// Waits for the next connection; returns it with the peer's IPv4 address, or `nil` when the socket was closed.
    package func accept() -> (HTTPSocket, String)? {
        while true {
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
            }
            if fd >= 0 {
                #if canImport(Darwin)
                    var yes: Int32 = 1
                    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
                #endif
                var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                _ = inet_ntop(AF_INET, &peer.sin_addr, &buffer, socklen_t(buffer.count))
                return (
                    HTTPSocket(descriptor: fd),
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                )
            }
            switch errno {
            case EINTR, ECONNABORTED, EMFILE, ENFILE, ENOBUFS, ENOMEM:
                if errno != EINTR && errno != ECONNABORTED { usleep(50_000) }  // out of descriptors: wait, go on
                continue
            default:
                return nil
            }
        }
    }

    /// Reads what is there (at most `limit` bytes), waiting until `deadline`: empty at the end of the stream,
    /// `nil` when the deadline passed or the connection failed.
    package func read(limit: Int, until deadline: ContinuousClock.Instant) -> [UInt8]? {
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { return nil }
            var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 60_000))
            let ready = poll(&descriptorPoll, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { if ready == 0 { continue } else { return nil } }
            var buffer = [UInt8](repeating: 0, count: limit)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            return Array(buffer.prefix(count))
        }
    }

    /// Writes every byte, waiting at most until `deadline` for a slow reader; `false` when it could not.
    @discardableResult
    package func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let remaining = deadline - .now
            guard remaining > .zero else { return false }
            var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptorPoll, 1, Int32(min(remaining.components.seconds * 1000 + 1, 60_000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { if ready == 0 { continue } else { return false } }
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, flags) }
            if sent < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Whether the peer closed its side (or the connection failed), without reading data it sent.
    package var peerHasGone: Bool {
        var descriptorPoll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptorPoll, 1, 0) > 0 else { return false }
        if descriptorPoll.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// Closes a connection after its answer without losing the answer: stops sending (the peer reads the answer to
    /// its end), then reads and drops what the peer still sends, up to `limit` bytes or `wait`, before closing.
    ///
    /// Closing at once while a refused request's body is still arriving (a change over the size limit, answered
    /// 413 before it was read) makes the system reset the connection, and a reset discards the answer the peer has
    /// not read yet: the client would see "connection reset" instead of the 413.
    package func closeLingering(wait: Duration = .seconds(2), limit: Int = 32 << 20) {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + wait
        var dropped = 0
        while dropped < limit, let more = read(limit: 65_536, until: deadline), !more.isEmpty {
            dropped += more.count
        }
        close()
    }

    /// Closes the socket; a blocked ``accept()`` on a listening socket returns `nil`.
    package func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        _ = systemClose(descriptor)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

// The system calls the methods above are named after, reachable from inside them.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemAccept(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
) -> Int32 { accept(descriptor, address, length) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
