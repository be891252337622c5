public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real etcd (Debian's `etcd-server`) for the tests: on free loopback ports, with a temporary data directory,
/// started (a ``ChildProcess``) through a small shell that kills it when the test process's end of its standard
/// input closes (so no etcd outlives the tests, even when they crash). Nothing relies on a system service.
///
/// ```swift
/// let etcd = try EtcdTestServer.start()
/// let url = etcd.url(prefix: "/test/overrides")     // etcd://127.0.0.1:PORT/test/overrides
/// etcd.kill()                                         // SIGKILL, mid-session
/// try etcd.restart()                                  // same ports, same data
/// let secure = try EtcdTestServer.start(tls: try TestCertificates.selfSigned(in: folder))   // etcds://
/// ```
public final class EtcdTestServer: Sendable {
    /// The client port (127.0.0.1).
    public let port: Int
    /// The peer port (127.0.0.1).
    public let peerPort: Int
    /// The data directory (and the log, `etcd.log`, beside it).
    public let folder: URL
    /// The certificate and key etcd serves HTTPS with, or `nil` for plain HTTP.
    public let tls: TestCertificates.Pair?
    /// The pid of etcd itself, 0 when it is not running.
    private let pid = Atomic<Int32>(0)
    /// The shell that runs it; closing its standard input ends etcd.
    private let shell = Mutex<ChildProcess?>(nil)

    /// The etcd binary, if installed (`scripts/setup-debian` installs `etcd-server`).
    public static let binary: String? = ["/usr/bin/etcd", "/usr/local/bin/etcd"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The etcdctl binary, if installed (`etcd-client`).
    public static let etcdctlBinary: String? = ["/usr/bin/etcdctl", "/usr/local/bin/etcdctl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Why etcd tests cannot run here, or `nil` when they can.
    public static var unavailableReason: String? {
        binary == nil || etcdctlBinary == nil
            ? "etcd is not installed (Debian: etcd-server and etcd-client; scripts/setup-debian installs them)" : nil
    }

    /// One etcd for every test that only reads and writes its own prefix (started on first use, ended with the test
    /// process). Tests that stop or break etcd start their own.
    public static let shared: Result<EtcdTestServer, FixtureError> = {
        do {
            return .success(try EtcdTestServer.start())
        } catch let error as FixtureError {
            return .failure(error)
        } catch {
            return .failure(FixtureError("\(error)"))
        }
    }()

    private init(port: Int, peerPort: Int, folder: URL, tls: TestCertificates.Pair?) {
        self.port = port
        self.peerPort = peerPort
        self.folder = folder
        self.tls = tls
    }

    /// Starts an etcd and waits (at most 20 s) until it answers `/health` (with `tls`: until it says it serves
    /// HTTPS, which this plain-socket check cannot ask).
    public static func start(tls: TestCertificates.Pair? = nil) throws -> EtcdTestServer {
        guard unavailableReason == nil else { throw FixtureError(unavailableReason!) }
        var lastError: (any Error)?
        for _ in 0..<3 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("etcd-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let server = EtcdTestServer(
                port: FixtureHTTPServer.closedPort(), peerPort: FixtureHTTPServer.closedPort(), folder: folder, tls: tls
            )
            do {
                try server.launch()
                return server
            } catch {
                server.stop()
                try? FileManager.default.removeItem(at: folder)
                lastError = error  // most likely a port taken meanwhile: try others
            }
        }
        throw lastError ?? FixtureError("etcd did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// `etcd://127.0.0.1:PORT/PREFIX` (`etcds://` with TLS; with `user:password@` when given; another `host` name
    /// for the same address, such as `localhost`, when given).
    public func url(prefix: String, user: String? = nil, host: String = "127.0.0.1") -> URL {
        URL(string: "etcd\(tls == nil ? "" : "s")://\(user.map { $0 + "@" } ?? "")\(host):\(port)\(prefix)")!
    }

    /// The gateway's address, `http://127.0.0.1:PORT` (`https://` with TLS).
    public var endpoint: String { "http\(tls == nil ? "" : "s")://127.0.0.1:\(port)" }

    /// etcd's own process id, for a test that signals it.
    public var processID: Int32 { pid.load(ordering: .sequentiallyConsistent) }

    /// Kills etcd with SIGKILL and waits until it is gone. ``restart()`` starts it again on the same ports and data.
    public func kill() {
        let etcd = pid.exchange(0, ordering: .sequentiallyConsistent)
        guard etcd > 0 else { return }
        _ = sendSignal(etcd, SIGKILL)
        // etcd is the shell's child: wait until it is gone or a zombie (the shell reaps it) rather than reap it here.
        for _ in 0..<500 {
            if sendSignal(etcd, 0) != 0 || Self.isZombie(etcd) { break }
            usleep(10_000)
        }
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("keep").path, contents: nil)
        endShell()
    }

    /// After ``kill()``: removes etcd's data, so ``restart()`` starts a new, empty cluster on the same ports (its
    /// revisions start again from 1).
    public func wipeData() throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent("data"))
    }

    /// Starts etcd again after ``kill()``, on the same ports with the same data.
    public func restart() throws {
        try launch()
    }

    /// Stops etcd (SIGKILL through its shell) and waits for it.
    public func stop() {
        pid.store(0, ordering: .sequentiallyConsistent)
        endShell()
    }

    /// Runs etcdctl against this server with `arguments`, `input` on its standard input; returns its exit status
    /// and output.
    @discardableResult
    public func etcdctl(_ arguments: [String], input: Data? = nil) throws -> (
        status: Int32, output: String, error: String
    ) {
        guard let binary = Self.etcdctlBinary else { throw FixtureError(Self.unavailableReason!) }
        let run = try ChildProcess.run(
            binary,
            ["--endpoints", endpoint, "--dial-timeout", "5s", "--command-timeout", "10s"]
                + (tls.map { ["--cacert", $0.certificate.path] } ?? []) + arguments,
            environment: .changing(["ETCDCTL_API": "3"]), input: input ?? Data())
        return (run.status, run.output, run.error)
    }

    /// Turns authentication on with a `root` user (password `rootpw`) and a user `user` (password `password`) who
    /// may read and write keys under `prefix`.
    public func enableAuthentication(user: String, password: String, prefix: String) throws {
        let steps: [[String]] = [
            ["user", "add", "root:rootpw"], ["role", "add", "root"], ["user", "grant-role", "root", "root"],
            ["user", "add", "\(user):\(password)"], ["role", "add", "config"],
            ["role", "grant-permission", "config", "--prefix=true", "readwrite", prefix],
            ["user", "grant-role", user, "config"], ["auth", "enable"],
        ]
        for step in steps {
            let result = try etcdctl(step)
            guard result.status == 0 else {
                throw FixtureError("etcdctl \(step.joined(separator: " ")) failed: \(result.error)")
            }
        }
    }

    // MARK: The process

    private func launch() throws {
        guard pid.load(ordering: .sequentiallyConsistent) == 0 else { return }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("keep"))
        let client = endpoint
        let peer = "http://127.0.0.1:\(peerPort)"
        let arguments =
            [
                "--name", "default", "--data-dir", folder.appendingPathComponent("data").path,
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "default=\(peer)",
            ] + (tls.map { ["--cert-file", $0.certificate.path, "--key-file", $0.key.path] } ?? [])
        let logURL = folder.appendingPathComponent("etcd.log")
        let logStart = (try? FileManager.default.attributesOfItem(atPath: logURL.path)[.size] as? Int) ?? 0
        // The shell starts etcd in the background (its standard input is then /dev/null), reports its pid, and
        // kills it when its own standard input closes: when this object stops it, or the test process ends however
        // it ends (an interrupt reaches the shell's whole group: the shell ignores it and waits for that moment).
        // Then it removes the folder, unless ``kill()`` asked to keep the data for a restart.
        let script = """
            trap '' INT TERM HUP
            "$0" "$@" >>"$ETCD_TEST_FOLDER/etcd.log" 2>&1 &
            echo "PID $!"
            cat >/dev/null
            kill -9 $! 2>/dev/null
            wait
            [ -e "$ETCD_TEST_FOLDER/keep" ] || rm -rf "$ETCD_TEST_FOLDER"
            """
        var environment: [String: String?] = ["ETCD_TEST_FOLDER": folder.path]
        for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("ETCD_") && name != "ETCD_TEST_FOLDER"
        {
            environment[name] = .some(nil)  // the machine's settings must not reach the test's etcd
        }
        // Nothing else of the test process: etcd lives as long as the tests, and must not hold another test's pipe.
        let child = try ChildProcess(
            "/bin/sh", ["-c", script, Self.binary!] + arguments, environment: .changing(environment),
            standardOutput: .lines, standardError: .discard)
        shell.withLock { $0 = child }
        guard let etcd = child.line(startingWith: "PID ", within: 10).flatMap({ Int32($0) }) else {
            endShell()
            throw FixtureError("etcd's shell did not report a pid")
        }
        pid.store(etcd, ordering: .sequentiallyConsistent)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            // Its own log must say it serves on the port: another test's etcd may answer there when both were
            // handed the same free port (then this one fails to bind, and the test would talk to the other).
            if Self.serves(log: logURL, after: logStart, port: port), tls != nil || Self.healthy(port: port) {
                return
            }
            if sendSignal(etcd, 0) != 0 || Self.isZombie(etcd) { break }
            usleep(20_000)
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("etcd.log"), encoding: .utf8)) ?? ""
        stop()
        throw FixtureError("etcd did not become healthy on port \(port): \(log.suffix(600))")
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") == true
    }

    /// Closes the shell's input (it then kills etcd) and reaps the shell, killing it after 5 s.
    private func endShell() {
        shell.withLock { shell in
            defer { shell = nil }
            return shell
        }?.stop()
    }

    /// Whether the log written since `offset` says this etcd serves clients on `port` (`serving client requests
    /// on 127.0.0.1:PORT` with TLS, `serving insecure client requests on …` without).
    private static func serves(log: URL, after offset: Int, port: Int) -> Bool {
        guard let data = FileManager.default.contents(atPath: log.path), data.count > offset else { return false }
        return String(decoding: data[offset...], as: UTF8.self).contains("client requests on 127.0.0.1:\(port)")
    }

    /// Whether etcd answers `GET /health` with `"health":"true"`.
    private static func healthy(port: Int) -> Bool {
        exchange(port: port, request: "GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?
            .contains("\"health\":\"true\"") == true
    }

    /// POSTs `body` to etcd's JSON gateway at `path` (`/v3/kv/put`) over a plain socket; returns the answer's body.
    public func gateway(_ path: String, body: String, token: String? = nil) throws -> String {
        let bytes = Array(body.utf8)
        let request =
            "POST \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + (token.map { "Authorization: \($0)\r\n" } ?? "") + "Content-Length: \(bytes.count)\r\n\r\n" + body
        guard let answer = Self.exchange(port: port, request: request, timeout: 10) else {
            throw FixtureError("etcd at port \(port) did not answer \(path)")
        }
        guard let split = answer.range(of: "\r\n\r\n") else { return answer }
        return String(answer[split.upperBound...])
    }

    /// Asks etcd for a token for `user` (`/v3/auth/authenticate`).
    public func authenticate(user: String, password: String) throws -> String {
        let answer = try gateway("/v3/auth/authenticate", body: #"{"name": "\#(user)", "password": "\#(password)"}"#)
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any],
            let token = object["token"] as? String
        else { throw FixtureError("etcd issued no token: \(answer.prefix(200))") }
        return token
    }

    /// Sends `request` to 127.0.0.1:`port` and reads the whole answer (HTTP/1.0: until the server closes), within
    /// `timeout` seconds. A plain socket: no threads, nothing shared.
    static func exchange(port: Int, request: String, timeout: Double = 1) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var bytes = Array(request.utf8)
        while !bytes.isEmpty {
            let count = write(descriptor, bytes, bytes.count)
            guard count > 0 else { return nil }
            bytes.removeFirst(count)
        }
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return String(decoding: answer, as: UTF8.self) }
            answer += buffer[0..<count]
        }
        return nil
    }
}

/// `kill(2)`, named apart from ``EtcdTestServer/kill()``.
private func sendSignal(_ pid: Int32, _ number: Int32) -> Int32 { kill(pid, number) }
