public import Foundation

/// A proxy in front of an ``EtcdTestServer`` that can leave changes unanswered
/// (`Tests/ServiceConfigurationTests/Fixtures/EtcdProxy/etcd_proxy.py`): reads always pass; a change is passed on
/// and answered, passed on and made but never answered (``Mode/hold``), or never passed on (``Mode/drop``). Its
/// clients then time out with the outcome of their change unknown, made or not as the test decides.
///
/// ```swift
/// let proxy = try EtcdTestProxy(etcd)
/// try proxy.setMode(.hold)                  // the next change is made, and its answer withheld
/// let url = proxy.url(prefix: "/test/overrides")
/// ```
public final class EtcdTestProxy {
    /// What happens to the requests that change etcd.
    public enum Mode: String, Sendable {
        /// Passed on to etcd and answered.
        case pass = ""
        /// Passed on to etcd, which makes the change; the answer is never passed back.
        case hold
        /// Never passed on: nothing changes, and no answer comes.
        case drop
    }

    private let server: FixtureHTTPServer

    /// The proxy script.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../ServiceConfigurationTests/Fixtures/EtcdProxy/etcd_proxy.py").standardizedFileURL

    /// Starts a proxy to `etcd`, passing everything.
    public init(_ etcd: EtcdTestServer) throws {
        server = try FixtureHTTPServer(script: Self.script, arguments: [String(etcd.port)])
    }

    /// `etcd://127.0.0.1:PROXY-PORT/PREFIX`.
    public func url(prefix: String) -> URL { URL(string: "etcd://127.0.0.1:\(server.port)\(prefix)")! }

    /// What happens to changes from now on.
    public func setMode(_ mode: Mode) throws { try server.setMode(mode.rawValue) }

    /// The changes held or dropped so far: `hold /v3/kv/txn`, `drop /v3/kv/deleterange`.
    public var withheld: [String] {
        let log = server.folder.appendingPathComponent("requests.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
