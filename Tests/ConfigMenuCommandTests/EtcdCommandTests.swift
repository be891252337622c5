import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu` and `config-demo` with `--store etcd://...` and `--server-url etcd://...`, against a real etcd.
@Suite(
    "config-menu and config-demo on etcd: the store and the server values",
    .serialized,
    .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed (scripts/setup-debian installs it)"))
struct EtcdCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-etcd-\(UUID().uuidString)")
    let prefix = "/cli/\(UUID().uuidString.prefix(8))"

    /// The tool with its state folder (where the server snapshot goes with an etcd store) inside `folder`.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
        var variables: [String: String?] = [
            "XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_STORE": nil, "CONFIG_OVERRIDES_FILE": nil,
        ]
        for (name, value) in environment { variables[name] = value }
        return try configMenu(arguments, environment: .changing(variables))
    }

    @Test("set, get, list, export, import and reset work on --store etcd://, and on $CONFIG_OVERRIDES_STORE")
    func commands() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let url = etcd.url(prefix: prefix).absoluteString
        let store = ["--store", url]
        let set = try run(["set", "function.album.like.enabled", "Y", "--note", "team QA"] + store)
        #expect(set.status == 0, "\(set.error)")
        #expect(set.output == "function.album.like.enabled = Y (overridden; was N from DEFAULT)\n")
        let get = try run(["get", "function.album.like.enabled", "--json"] + store)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(get.output.utf8)) as? [String: Any])
        let override = try #require(object["override"] as? [String: Any])
        #expect(override["value"] as? String == "Y" && override["note"] as? String == "team QA")

        // Another program's view, through the environment variable.
        let listed = try run(["list", "--overridden"], environment: ["CONFIG_OVERRIDES_STORE": url])
        #expect(listed.status == 0 && listed.output.contains("function.album.like.enabled  Y"))
        let exported = try run(["export"] + store)
        #expect(exported.output.contains(#""function.album.like.enabled": {"note": "team QA", "#))

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let profile = folder.appendingPathComponent("scenario.json")
        try Data(#"{"function.chat.typing_interval_ms": "250"}"#.utf8).write(to: profile)
        let imported = try run(["import", profile.path, "--replace"] + store)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(
            imported.error.contains("imported \(profile.path) into \(url): 1 added, 0 changed, 0 unchanged, 1 removed"),
            "\(imported.error)")
        let after = try run(["list", "--overridden", "--json"] + store)
        let names = (try JSONSerialization.jsonObject(with: Data(after.output.utf8)) as? [[String: Any]])?.compactMap {
            $0["name"] as? String
        }
        #expect(names == ["function.chat.typing_interval_ms"])
        #expect(try run(["reset", "--all"] + store).output == "removed 1 override: function.chat.typing_interval_ms\n")
        #expect(try run(["list", "--overridden"] + store).output.contains("function.") == false)
    }

    @Test("an entry that is not valid is reported escaped; etcd out of reach exits 4; a URL without prefix exits 2")
    func problems() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let put = try etcd.etcdctl(
            ["put", "\(prefix)/function.album.like.enabled"], input: Data("\u{1B}]0;x\u{07}".utf8))
        #expect(put.status == 0)
        let listed = try run(["list", "--problems"] + ["--store", etcd.url(prefix: prefix).absoluteString])
        #expect(listed.status == 0)
        #expect(
            listed.error.contains(
                "1 override is not applied (kept in \(etcd.url(prefix: prefix).absoluteString) as found"))
        #expect(!listed.error.contains("\u{1B}") && !listed.output.contains("\u{1B}"))

        let port = FixtureHTTPServer.closedPort()
        let unreachable = try run(["list", "--store", "etcd://127.0.0.1:\(port)/x"])
        #expect(unreachable.status == 4)
        #expect(
            unreachable.error
                == "config-menu: etcd://127.0.0.1:\(port)/x: cannot read the overrides from etcd: connection refused; "
                + "no override from etcd applies until it can be read\n")
        let bare = try run(["list", "--store", "etcd://127.0.0.1:2379"])
        #expect(bare.status == 2 && bare.error.contains("names no prefix"))
        try etcd.etcdctl(["del", "--prefix", prefix + "/"])
    }

    @Test(
        "an etcd that hangs (SIGSTOP): config-menu set fails with the endpoint and the timeout, exit 4, no hang",
        .timeLimit(.minutes(1)))
    func hungEtcd() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.start()
        let store = etcd.url(prefix: prefix).absoluteString
        #expect(try run(["set", "function.album.like.enabled", "Y", "--store", store]).status == 0)
        let pid = etcd.processID
        #expect(pid > 0 && kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        let started = Date()
        let set = try run(["set", "function.chat.typing_interval_ms", "6000", "--store", store])
        let elapsed = Date().timeIntervalSince(started)
        #expect(set.status == 4, "\(set.error)")
        #expect(set.error.hasPrefix("config-menu: \(store): cannot read the overrides from etcd: "), "\(set.error)")
        #expect(set.error.contains("etcd did not answer within 5 s"), "\(set.error)")
        // Two reads of 5 s at most (the service reads the store twice as it starts); a hang would never end.
        #expect(elapsed < 14, "took \(elapsed) s")
        #expect(kill(pid, SIGCONT) == 0)
        let after = try run(["list", "--overridden", "--store", store])
        #expect(after.status == 0 && after.output.contains("function.album.like.enabled  Y"), "\(after.error)")
        #expect(!after.output.contains("typing_interval_ms"), "the change that failed was not made")
    }

    @Test(
        "etcds:// in config-menu and config-demo: --etcd-ca-file or CONFIG_ETCD_CA_FILE trusts the CA; without, exit 4")
    func tls() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pair = try TestCertificates.selfSigned(in: folder)
        let etcd = try EtcdTestServer.start(tls: pair)
        let store = etcd.url(prefix: "\(prefix)/overrides").absoluteString
        let trusted = ["--store", store, "--etcd-ca-file", pair.certificate.path]
        let set = try run(["set", "function.album.like.enabled", "Y"] + trusted)
        #expect(set.status == 0, "\(set.error)")
        let listed = try run(
            ["list", "--overridden", "--store", store], environment: ["CONFIG_ETCD_CA_FILE": pair.certificate.path])
        #expect(listed.status == 0 && listed.output.contains("function.album.like.enabled  Y"), "\(listed.error)")
        let untrusted = try run(["list", "--store", store])
        #expect(untrusted.status == 4)
        #expect(
            untrusted.error.contains("TLS: the server's certificate is not signed by an authority this client trusts"),
            "\(untrusted.error)")
        let missing = try run(["list", "--store", store, "--etcd-ca-file", folder.appendingPathComponent("no").path])
        #expect(missing.status == 2 && missing.error.contains("--etcd-ca-file needs a readable PEM file"))

        try etcd.etcdctl(["put", "\(prefix)/values/function.chat.typing_interval_ms", "3000"])
        let values = etcd.url(prefix: "\(prefix)/values").absoluteString
        let synced = try run(
            [
                "sync", "--server-url", values, "--etcd-ca-file", pair.certificate.path, "--store",
                folder.appendingPathComponent("overrides.json").path,
            ])
        #expect(synced.status == 0 && synced.output.contains("(none) -> \"3000\""), "\(synced.error)")

        let demo = try DemoProcess(
            arguments: trusted + ["--server-url", values], environment: ["XDG_STATE_HOME": folder.path], errors: true)
        for text in [
            "config-demo: watching \(store)", "album like button: shown", "typing indicator refresh: every 3000 ms",
        ] {
            #expect(try await demo.wait(for: text, within: 30), "no \"\(text)\" in:\n\(demo.printed)")
        }
        #expect(!demo.printed.contains("TLS"), "\(demo.printed)")
    }

    @Test("set, reset and import whose change etcd does not answer: the outcome is unknown, said so, exit 4")
    func unansweredChanges() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let proxy = try EtcdTestProxy(etcd)
        let store = ["--store", proxy.url(prefix: prefix).absoluteString]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let profile = folder.appendingPathComponent("scenario.json")
        try Data(#"{"function.chat.typing_interval_ms": "250"}"#.utf8).write(to: profile)
        #expect(try run(["set", "function.album.max_photos", "9"] + store).status == 0)
        // Made by etcd, its answer withheld; then never received: the tool cannot tell either apart, and says so.
        // (Each waits out the tool's 5 s timeout.)
        for (mode, arguments) in [
            (EtcdTestProxy.Mode.hold, ["set", "function.album.like.enabled", "Y"]),
            (.hold, ["reset", "function.album.max_photos"]), (.hold, ["import", profile.path, "--yes"]),
            (.drop, ["set", "function.album.sort_order", "oldest_first"]),
        ] {
            try proxy.setMode(mode)
            let result = try run(arguments + store)
            #expect(result.status == 4, "\(arguments): \(result.error)")
            #expect(result.error.contains("cannot tell whether the change was saved"), "\(result.error)")
            #expect(result.error.contains("it may still arrive"), "\(result.error)")
            #expect(!result.error.contains("nothing was saved"), "\(result.error)")
            #expect(!result.output.contains("(overridden") && !result.output.contains("removed 1"), "\(result.output)")
            #expect(!result.error.contains("imported"), "\(result.error)")
        }
        try proxy.setMode(.pass)
        let listed = try run(["list", "--overridden"] + store)
        #expect(listed.output.contains("function.album.like.enabled"), "the held set was made: \(listed.output)")
        #expect(!listed.output.contains("function.album.max_photos"), "so was the held reset")
        #expect(listed.output.contains("function.chat.typing_interval_ms"), "and the held import")
        #expect(!listed.output.contains("function.album.sort_order"), "the dropped set was not")
        #expect(proxy.withheld.count == 4)
    }

    @Test("config-menu sync --server-url etcd:// prints what changed")
    func sync() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        try etcd.etcdctl(["put", "\(prefix)/values/function.chat.typing_interval_ms", "3000"])
        let source = etcd.url(prefix: "\(prefix)/values").absoluteString
        let file = ["--store", folder.appendingPathComponent("overrides.json").path]
        let first = try run(["sync", "--server-url", source] + file)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("synced from \(source): 1 key changed\n"))
        #expect(first.output.contains("function.chat.typing_interval_ms: (none) -> \"3000\""))
        #expect(try run(["sync"] + file).output.contains("not modified"), "the snapshot names the source")
        try etcd.etcdctl(["put", "\(prefix)/values/function.chat.typing_interval_ms", "4000"])
        #expect(try run(["sync"] + file).output.contains("\"3000\" -> \"4000\""))
        // get and list with --server-url etcd:// show that source's last-known values (the snapshot), as the menu.
        let get = try run(["get", "function.chat.typing_interval_ms", "--server-url", source] + file)
        #expect(get.output.hasPrefix("function.chat.typing_interval_ms = 4000 (SERVER)\n"), "\(get.output)")
        let other = etcd.url(prefix: "\(prefix)/other").absoluteString
        let none = try run(["list", "Chat", "--server-url", other] + file)
        #expect(none.output.contains("function.chat.typing_interval_ms            3000"), "\(none.output)")
        #expect(none.error.contains("note: no server values fetched from \(other) yet"), "\(none.error)")
        try etcd.etcdctl(["del", "--prefix", prefix + "/"])
    }

    @Test("config-demo on etcd: a set from config-menu and a server value put with etcdctl both arrive live")
    func demo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        try etcd.etcdctl(["put", "\(prefix)/values/function.chat.typing_interval_ms", "3500"])
        let store = etcd.url(prefix: "\(prefix)/overrides").absoluteString
        let demo = try DemoProcess(
            arguments: ["--store", store, "--server-url", etcd.url(prefix: "\(prefix)/values").absoluteString],
            environment: ["XDG_STATE_HOME": folder.path], errors: true)
        // `poll` looks once more after the deadline: a test process starved of threads by its neighbours may wake
        // only after the output arrived and the deadline passed.
        func wait(for text: String, within seconds: Double = 30) async throws -> Bool {
            if try await demo.wait(for: text, within: seconds) { return true }
            Issue.record("no \"\(text)\" in:\n\(demo.printed)")
            return false
        }
        #expect(try await wait(for: "config-demo: watching \(store)"))
        #expect(try await wait(for: "typing indicator refresh: every 3500 ms"))
        #expect(try run(["set", "function.album.like.enabled", "Y", "--store", store]).status == 0)
        #expect(try await wait(for: "function.album.like.enabled: N (DEFAULT) -> Y (OVERRIDDEN)"))
        try etcd.etcdctl(["put", "\(prefix)/values/function.chat.typing_interval_ms", "4500"])
        #expect(try await wait(for: "function.chat.typing_interval_ms: 3500 (SERVER) -> 4500 (SERVER)"))
        try etcd.etcdctl(["del", "--prefix", prefix + "/"])
    }
}
