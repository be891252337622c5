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
    /// The running server; closing its standard input makes it exit.
    private let child: ChildProcess

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
    /// The server is a ``ChildProcess``: every signal unblocked, and pipes that no other child inherits, so SIGTERM
    /// or closing its standard input ends it.
    public init(script: URL, arguments extra: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The system's Python directly when there is one (a version manager's shim on PATH can cost 100 ms a
        // start); -I -S: no user site, no site packages (the script needs only the standard library).
        let system = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        let arguments =
            (system ? ["/usr/bin/python3"] : ["/usr/bin/env", "python3"]) + ["-I", "-S", script.path, folder.path]
            + extra
        child = try ChildProcess(arguments[0], Array(arguments.dropFirst()), standardError: .discard)
        guard let reported = child.line(startingWith: "PORT ", within: 10), let port = Int(reported) else {
            child.stop(signal: SIGTERM)
            throw FixtureError("the fixture server did not report its port within 10 s")
        }
        self.port = port
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the server (its input closed, SIGTERM) and waits (at most 5 s, then SIGKILL) for it to exit.
    public func stop() {
        child.stop(signal: SIGTERM)
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
}

/// A fixture that could not be set up.
public struct FixtureError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
