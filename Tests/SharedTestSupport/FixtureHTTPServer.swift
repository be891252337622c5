public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sync tests' HTTP server: `Tests/ServiceConfigurationTests/Fixtures/SyncServer/sync_server.py` (Python's
/// standard library) on a loopback port the OS picks, serving the values a test writes and misbehaving on request
/// (see the script for the modes). It stops when this object goes away, or when the test process dies (it exits
/// when its standard input closes).
public final class FixtureHTTPServer {
    /// One request the server received.
    public struct Request: Equatable, Sendable {
        /// The path, with any query.
        public var path: String
        /// The `If-None-Match` header sent, if any.
        public var ifNoneMatch: String?
        /// The `If-Modified-Since` header sent, if any.
        public var ifModifiedSince: String?
        /// The `Host` header sent.
        public var host: String?
        /// The `Authorization` header sent, if any.
        public var authorization: String?
        /// The `Cookie` header sent, if any.
        public var cookie: String?
    }

    /// The server's folder: `values.json`, `mode`, `requests.log`.
    public let folder: URL
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let pid: pid_t
    /// The write end of the server's standard input; closing it makes the server exit.
    private var input: Int32

    /// The Python script.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ServiceConfigurationTests/Fixtures/SyncServer/sync_server.py").standardizedFileURL

    /// Starts a server serving `values` (as a JSON object) at `/values.json`.
    public convenience init(values: [String: String] = [:]) throws {
        try self.init(script: Self.script)
        try setValues(values)
    }

    /// Starts another fixture server: the Python script `script`, run with a new folder and then `arguments`,
    /// which prints `PORT <n>` once it listens and exits when its standard input closes.
    ///
    /// The server is spawned with `posix_spawn` (not Foundation's `Process`): with every signal unblocked (the
    /// test runner's threads block some, and a child inherits the mask), and with pipes that no other child
    /// inherits (close-on-exec), so SIGTERM or closing its standard input ends it.
    public init(script: URL, arguments extra: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var stdinPipe: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else {
            throw FixtureError("cannot create pipes: errno \(errno)")
        }
        for descriptor in stdinPipe + stdoutPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // The system's Python directly when there is one (a version manager's shim on PATH can cost 100 ms a
        // start); -I -S: no user site, no site packages (the script needs only the standard library).
        let system = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        let arguments =
            (system ? ["/usr/bin/python3"] : ["/usr/bin/env", "python3"]) + ["-I", "-S", script.path, folder.path]
            + extra
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        close(stdinPipe[0])
        close(stdoutPipe[1])
        guard spawned == 0 else {
            close(stdinPipe[1])
            close(stdoutPipe[0])
            throw FixtureError("cannot start python3: errno \(spawned)")
        }
        pid = child
        input = stdinPipe[1]
        defer { close(stdoutPipe[0]) }
        do {
            port = try Self.readPort(stdoutPipe[0], timeout: 10)
        } catch {
            Self.end(child, input: input)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the server and waits (at most a few seconds) for it to exit.
    public func stop() {
        guard input >= 0 else { return }
        Self.end(pid, input: input)
        input = -1
    }

    /// Closes the server's input, asks it to stop, and reaps it (killing it if it takes more than 5 s).
    private static func end(_ pid: pid_t, input: Int32) {
        close(input)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<500 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// A URL on this server: `/values.json` by default.
    public func url(_ path: String = "/values.json") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Serves `values` from now on; `modified` sets the file's time (its `Last-Modified`).
    public func setValues(_ values: [String: String], modified: Date? = nil) throws {
        let data = try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys])
        try setBody(data, modified: modified)
    }

    /// Serves these exact bytes as the values from now on.
    public func setBody(_ data: Data, modified: Date? = nil) throws {
        let url = folder.appendingPathComponent("values.json")
        try data.write(to: url, options: .atomic)
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
        }
    }

    /// Makes `/values.json` misbehave (`"500"`, `"slow"`, `"garbage"`, ...), or behave again with `nil`.
    public func setMode(_ mode: String?) throws {
        try Data((mode ?? "").utf8).write(to: folder.appendingPathComponent("mode"), options: .atomic)
    }

    /// Every request received so far, in order.
    public func requests() -> [Request] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String
            else { return nil }
            return Request(
                path: path, ifNoneMatch: object["ifNoneMatch"] as? String,
                ifModifiedSince: object["ifModifiedSince"] as? String, host: object["host"] as? String,
                authorization: object["authorization"] as? String, cookie: object["cookie"] as? String)
        }
    }

    /// A loopback port nothing listens on (bound, then closed): a connection to it is refused.
    public static func closedPort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads "PORT <n>" from the server's output, waiting at most `timeout` seconds.
    private static func readPort(_ descriptor: Int32, timeout: Double) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        var line: [UInt8] = []
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { break }
            if byte == 0x0A {
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) { return port }
                line = []
            } else {
                line.append(byte)
            }
        }
        throw FixtureError("the fixture server did not report its port within \(timeout) s")
    }
}

/// A fixture that could not be set up.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
