import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu coverage --store etcd://...` against a real `config-demo` on a real etcd: the demo publishes its
/// report into etcd on a lease, the tool reads it from there.
@Suite(
    "config-menu coverage on an etcd store: what a program on etcd read",
    .serialized,
    .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed (scripts/setup-debian installs it)"))
struct EtcdCoverageCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-etcd-cov-\(UUID().uuidString)")
    let prefix = "/coverage/\(UUID().uuidString.prefix(8))"

    var environment: [String: String?] {
        ["XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_STORE": nil, "CONFIG_OVERRIDES_FILE": nil]
    }

    func run(_ arguments: [String], etcd: EtcdTestServer) throws -> ToolRun {
        try configMenu(
            arguments + ["--store", etcd.url(prefix: prefix).absoluteString], environment: .changing(environment))
    }

    /// `coverage --json` as an object (`nil` when the command failed or printed no JSON).
    func coverageJSON(_ etcd: EtcdTestServer) throws -> [String: Any]? {
        let run = try run(["coverage", "--json"], etcd: etcd)
        guard run.status == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    }

    func names(_ object: [String: Any]?, _ field: String) -> [String] { object?[field] as? [String] ?? [] }

    func program(_ object: [String: Any]?) -> [String: Any] { object?["program"] as? [String: Any] ?? [:] }

    func demo(_ etcd: EtcdTestServer, lifetime: Int = 30) throws -> DemoProcess {
        try DemoProcess(
            arguments: ["--store", etcd.url(prefix: prefix).absoluteString, "--report-lifetime", String(lifetime)],
            environment: environment)
    }

    @Test("coverage lists what a demo on etcd read; the report is no override; a clean stop shows it ended")
    func runningDemo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let hint = "function.profile.display_name_hint"
        #expect(try run(["set", hint, "QA"], etcd: etcd).status == 0)
        let none = try run(["coverage"], etcd: etcd)
        #expect(none.status == 1)
        #expect(
            none.error.contains(
                "no program has published a report for the store etcd://127.0.0.1:\(etcd.port)\(prefix)"))
        #expect(none.error.contains("(looked in etcd://127.0.0.1:\(etcd.port)\(prefix).programs/)"))

        let demo = try demo(etcd)
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))
        var report: [String: Any]?
        #expect(
            try await poll(within: 60) {
                report = try coverageJSON(etcd)
                return !names(report, "unregistered").isEmpty
            })
        #expect(program(report)["name"] as? String == "config-demo")
        #expect(program(report)["pid"] as? Int == Int(demo.pid))
        #expect(program(report)["status"] as? String == "running")
        #expect(program(report)["host"] as? String != nil)
        #expect(
            (program(report)["file"] as? String)?.hasPrefix(
                "etcd://127.0.0.1:\(etcd.port)\(prefix).programs/config-demo-\(demo.pid)-") == true)
        #expect(report?["store"] as? String == etcd.url(prefix: prefix).absoluteString)
        #expect(names(report, "read").contains("function.album.like.enabled"))
        #expect(names(report, "overriddenUnread") == [hint])
        #expect(names(report, "unregistered") == ["function.lab.welcome_banner.enabled"])

        let text = try run(["coverage"], etcd: etcd)
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("running program:\n  config-demo (pid \(demo.pid) on "))
        #expect(text.output.contains("report: etcd://127.0.0.1:\(etcd.port)\(prefix).programs/config-demo-"))

        // The report is not an override: list shows only the one set, and no orphan or problem.
        let list = try run(["list", "--overridden"], etcd: etcd)
        #expect(list.status == 0)
        #expect(!list.output.contains("programs"))
        #expect(!list.error.contains("programs"))

        demo.pressEnter()
        #expect(try await demo.wait(for: "profile accent colour"))
        #expect(
            try await poll(within: 60) {
                names(try coverageJSON(etcd), "read").contains("function.profile.theme_color")
            })

        #expect(try await demo.stop(with: SIGTERM))
        let ended = try coverageJSON(etcd)
        #expect(program(ended)["status"] as? String == "ended")
        #expect(ended?["running"] as? Bool == false)
        #expect(
            try run(["coverage"], etcd: etcd).output.hasPrefix(
                "last program (none runs now):\n  config-demo (pid \(demo.pid) on "))
    }

    @Test("kill -9: the report is stale at once on this machine, and gone from etcd once its lease expires")
    func killedDemo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        // 8 s (× timingSlack under ThreadSanitizer, where the command itself takes seconds to start): long enough
        // that the report is still there (stale) when the command runs just after the kill on a loaded machine,
        // short enough to see it expire.
        let lifetime = Int(8 * timingSlack)
        let demo = try demo(etcd, lifetime: lifetime)
        #expect(
            try await poll(within: 60) {
                let report = try coverageJSON(etcd)
                return program(report)["status"] as? String == "running" && !names(report, "unregistered").isEmpty
            })
        // Kept alive past its lifetime while the demo runs.
        try await Task.sleep(for: .seconds(lifetime + 1))
        #expect(program(try coverageJSON(etcd))["status"] as? String == "running")

        #expect(try await demo.stop(with: SIGKILL))
        let report = try coverageJSON(etcd)
        #expect(program(report)["status"] as? String == "stale")
        #expect(names(report, "read").contains("function.album.like.enabled"))
        #expect(
            try run(["coverage"], etcd: etcd).output.contains("stale: the process is gone without ending its report"))
        // Nothing keeps the lease alive now: etcd deletes the report.
        #expect(try await poll(within: 30 * timingSlack) { try run(["coverage"], etcd: etcd).status == 1 })
        let keys = try etcd.etcdctl(["get", "--prefix", prefix + ".programs/", "--keys-only"])
        #expect(keys.status == 0)
        #expect(keys.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test("coverage --runs on etcd: an ended run is kept at PREFIX.runs/, a killed one swept in while its report lasts")
    func runHistory() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let like = "function.album.like.enabled"
        /// The values the report shows `like` read with.
        func likeValues(_ report: [String: Any]?) -> [String] {
            (report?["reads"] as? [[String: Any]])?.first { $0["name"] as? String == like }?["values"] as? [String]
                ?? []
        }
        // Each run is stopped once its report shows `like` read with `value` (a report published before the demo
        // read it would not: seen once under ThreadSanitizer, where the demo is slow).
        func runDemo(_ version: String, reading value: String, stop signal: Int32) async throws {
            let demo = try DemoProcess(
                arguments: [
                    "--store", etcd.url(prefix: prefix).absoluteString, "--program-version", version,
                    "--report-lifetime", String(Int(30 * timingSlack)),
                ], environment: environment)
            #expect(
                try await poll(within: 60) {
                    let report = try coverageJSON(etcd)
                    return program(report)["pid"] as? Int == Int(demo.pid) && !names(report, "unregistered").isEmpty
                        && likeValues(report).contains(value)
                })
            #expect(try await demo.stop(with: signal))
        }
        try await runDemo("9.1", reading: "N", stop: SIGTERM)
        #expect(try run(["set", like, "Y"], etcd: etcd).status == 0)
        try await runDemo("9.2", reading: "Y", stop: SIGKILL)

        // The killed demo's report is stale at once on this machine: this command sweeps it in.
        let runs = try run(["coverage", "--runs", "--json"], etcd: etcd)
        #expect(runs.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(runs.output.utf8)) as? [String: Any])
        #expect(object["history"] as? String == "etcd://127.0.0.1:\(etcd.port)\(prefix).runs/")
        let list = try #require(object["runs"] as? [[String: Any]])
        #expect(list.map { $0["version"] as? String } == ["9.2", "9.1"])
        #expect(list.map { $0["outcome"] as? String } == ["killed", "ended"])
        #expect(list.allSatisfy { $0["host"] as? String != nil })
        let keys = try etcd.etcdctl(["get", "--prefix", prefix + ".runs/", "--keys-only"])
        #expect(keys.output.split(separator: "\n").filter { !$0.isEmpty }.count == 2)

        #expect(try run(["coverage", "--runs", "--require-both", like], etcd: etcd).status == 0)
        let since = try run(["coverage", "--runs", "--since", "9.2", "--require-both", like], etcd: etcd)
        #expect(since.status == 3)
        #expect(since.error.contains("\(like) (bool) read only as \"Y\", never as \"N\""))
    }
}
