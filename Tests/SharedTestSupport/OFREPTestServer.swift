public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real OFREP server for the tests: `fast-feature` (PyPI), which `scripts/setup-debian` installs into the
/// repository's git-ignored virtual environment `.venv/ofrep`. Each test starts its own on a free loopback port, with
/// its admin API on (flags are kept in memory and seeded through `/admin/api/flags`), through a small shell that kills
/// it when the test process's end of its standard input closes (so none outlives the tests). Its access log (one line
/// per request, with the status it answered) is kept in ``log``.
///
/// ```swift
/// let server = try OFREPTestServer.start()
/// try server.setFlag("checkout.new-flow", variants: ["on": true, "off": false], defaultVariant: "off",
///                    targeting: ["if": [["==": [["var": "country"], "JP"]], "on", NSNull()]])
/// server.url          // ofrep://127.0.0.1:PORT
/// server.evaluationStatuses()   // [200, 304]: what the server answered each bulk evaluation
/// server.kill()       // mid-session
/// ```
public final class OFREPTestServer: Sendable {
    /// The port (127.0.0.1).
    public let port: Int
    /// The shell that runs fast-feature; closing its standard input ends it.
    private let shell: ChildProcess

    /// The virtual environment `scripts/setup-debian` creates: `.venv/ofrep` in the repository.
    public static let environment = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.venv/ofrep").standardizedFileURL

    /// The `fast-feature` program in ``environment``.
    public static var binary: String { environment.appendingPathComponent("bin/fast-feature").path }

    /// Why the OFREP tests cannot run here, or `nil` when they can.
    public static var unavailableReason: String? {
        FileManager.default.isExecutableFile(atPath: binary)
            ? nil
            : "the OFREP test server is not installed: \(binary) is missing; run scripts/setup-debian (it creates the "
                + "virtual environment .venv/ofrep with fast-feature from PyPI)"
    }

    private init(port: Int, shell: ChildProcess) {
        self.port = port
        self.shell = shell
    }

    /// Starts fast-feature on a free port and waits (at most 30 s) until it says it runs there; tries three ports.
    public static func start() throws -> OFREPTestServer {
        if let unavailableReason { throw FixtureError(unavailableReason) }
        var lastError: (any Error)?
        for _ in 0..<3 {
            let port = FixtureHTTPServer.closedPort()
            let script = """
                trap '' INT TERM HUP
                "$0" serve --host 127.0.0.1 --port "$OFREP_TEST_PORT" 2>&1 &
                echo "PID $!"
                cat >/dev/null
                kill -9 $! 2>/dev/null
                wait
                """
            let shell = try ChildProcess(
                "/bin/sh", ["-c", script, binary],
                environment: .changing([
                    "OFREP_TEST_PORT": String(port), "FAST_FEATURE_ADMIN": "true", "FAST_FEATURE_BACKEND": "inmemory",
                    "PYTHONDONTWRITEBYTECODE": "1",
                ]),
                standardOutput: .lines, standardError: .discard)
            let deadline = Date().addingTimeInterval(30)
            var running = false
            while Date() < deadline, !shell.hasExited {
                if shell.lines.contains(where: { $0.contains("Uvicorn running on http://127.0.0.1:\(port)") }) {
                    running = true
                    break
                }
                if shell.lines.contains(where: { $0.contains("error while attempting to bind") }) { break }
                usleep(20_000)
            }
            if running { return OFREPTestServer(port: port, shell: shell) }
            lastError = FixtureError(
                "fast-feature did not start on port \(port): \(shell.lines.suffix(10).joined(separator: "\n"))")
            shell.stop()
        }
        throw lastError ?? FixtureError("fast-feature did not start")
    }

    deinit {
        shell.stop()
    }

    /// `ofrep://127.0.0.1:PORT`, with the context as the query when given.
    public func url(query: String? = nil) -> URL {
        URL(string: "ofrep://127.0.0.1:\(port)" + (query.map { "?" + $0 } ?? ""))!
    }

    /// `http://127.0.0.1:PORT`, the base URL.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Kills fast-feature (SIGKILL) mid-session: connections are refused from now on.
    public func kill() {
        shell.stop()
    }

    /// Every line fast-feature printed (uvicorn's log; one access line per request).
    public var log: [String] { shell.lines }

    /// The status fast-feature answered each bulk evaluation with, in order (from its access log).
    public func evaluationStatuses() -> [Int] {
        log.compactMap { line in
            guard let range = line.range(of: "\"POST /ofrep/v1/evaluate/flags HTTP/1.1\" ") else { return nil }
            return Int(line[range.upperBound...].prefix(3))
        }
    }

    /// Creates the flag `key` or replaces it: its variants (JSON values), the default variant, and a JsonLogic
    /// targeting rule that returns a variant's name (or null for the default).
    public func setFlag(
        _ key: String, variants: [String: Any], defaultVariant: String, targeting: [String: Any]? = nil,
        enabled: Bool = true
    ) throws {
        var body: [String: Any] = [
            "variants": variants, "default_variant": defaultVariant, "state": enabled ? "ENABLED" : "DISABLED",
        ]
        if let targeting { body["targeting"] = targeting }
        let (status, _) = try admin("PUT", "/admin/api/flags/\(key)", body)
        if status == 404 {
            body["key"] = key
            let (created, answer) = try admin("POST", "/admin/api/flags", body)
            guard created == 201 else { throw FixtureError("fast-feature refused the flag \(key): \(answer)") }
        } else if status != 200 {
            throw FixtureError("fast-feature refused the flag \(key): HTTP \(status)")
        }
    }

    /// Serves exactly `values` from now on: one flag per key, whose single variant `value` is the string.
    public func setStringFlags(_ values: [String: String]) throws {
        for key in try flagKeys() where values[key] == nil { try deleteFlag(key) }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            try setFlag(key, variants: ["value": value], defaultVariant: "value")
        }
    }

    /// Removes the flag `key`.
    public func deleteFlag(_ key: String) throws {
        let (status, answer) = try admin("DELETE", "/admin/api/flags/\(key)", nil)
        guard status == 204 else { throw FixtureError("fast-feature did not delete \(key): \(answer)") }
    }

    /// The keys of the flags it holds.
    public func flagKeys() throws -> [String] {
        let (status, answer) = try admin("GET", "/admin/api/flags", nil)
        guard status == 200, let list = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[String: Any]]
        else { throw FixtureError("fast-feature did not list its flags: \(answer)") }
        return list.compactMap { $0["key"] as? String }
    }

    /// One request to the admin API over a plain socket (HTTP/1.0, so the server closes when done).
    private func admin(_ method: String, _ path: String, _ body: [String: Any]?) throws -> (Int, String) {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) } ?? Data()
        let request =
            "\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(payload.count)\r\n\r\n" + String(decoding: payload, as: UTF8.self)
        guard let answer = EtcdTestServer.exchange(port: port, request: request, timeout: 10),
            let statusText = answer.split(separator: " ", maxSplits: 2).dropFirst().first, let status = Int(statusText)
        else { throw FixtureError("fast-feature at port \(port) did not answer \(method) \(path)") }
        let content = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return (status, content)
    }
}
