import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `config-demo` started with launch overrides (`-configOverride`, `CONFIG_OVERRIDES_JSON`,
/// `CONFIG_SCENARIO`), as a UI test starts an app, and `config-menu` looking at it through its program report.
@Suite("config-demo with launch overrides, and config-menu showing them", .serialized)
struct LaunchOverrideCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-launch-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    let like = "function.album.like.enabled"
    let sharing = "function.album.sharing.enabled"
    let photos = "function.album.max_photos"

    func menu(_ arguments: String...) throws -> ToolRun {
        try configMenu(arguments + ["--store", store.path])
    }

    /// `get KEY --json` as an object.
    func getJSON(_ key: String) throws -> [String: Any]? {
        let run = try menu("get", key, "--json")
        guard run.status == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    }

    /// The `launchOverrides` of `get KEY --json`: the running programs launched with a value of the key.
    func launchOverrides(_ key: String) throws -> [[String: Any]] {
        try getJSON(key)?["launchOverrides"] as? [[String: Any]] ?? []
    }

    /// The `launchOverrides` of `get KEY --json` once the running program's report names one (it publishes its report
    /// within about a second of its first read).
    func awaitLaunchOverrides(_ key: String) async throws -> [[String: Any]] {
        var launched: [[String: Any]] = []
        #expect(
            try await poll(within: 60) {
                launched = try launchOverrides(key)
                return !launched.isEmpty
            })
        return launched
    }

    @Test(
        "-configOverride: the demo runs with the launch value, a config-menu set does not change it, the store never holds it, and get shows it as LAUNCH in that program"
    )
    func arguments() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try menu("set", sharing, "N").status == 0)
        let storedBefore = try Data(contentsOf: store)
        let demo = try DemoProcess(
            store: store, arguments: ["-configOverride", "\(like)=Y", "-configOverride", "\(sharing)=Y"])
        defer { _ = demo.child.stop(signal: SIGTERM) }
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))
        #expect(
            demo.printed.contains("launch override \(like) = \"Y\" (-configOverride): this run only, over the store"))
        #expect(demo.printed.contains("launch override \(sharing) = \"Y\" (-configOverride)"))
        // The server sends "y" for the like button, which is rejected: without the launch value it would be hidden.
        #expect(demo.printed.contains("album like button: shown"))

        // The program report tells config-menu which program runs with which launch value.
        let launched = try await awaitLaunchOverrides(like)
        #expect(launched.count == 1)
        #expect(launched.first?["program"] as? String == "config-demo")
        #expect(launched.first?["pid"] as? Int == Int(demo.pid))
        #expect(launched.first?["status"] as? String == "running")
        #expect(launched.first?["value"] as? String == "Y")
        #expect(try launchOverrides(photos).isEmpty)
        let details = try menu("get", like)
        #expect(details.status == 0)
        #expect(
            details.output.contains(
                "  launch    \"Y\"  LAUNCH in config-demo (pid \(demo.pid), running) until it ends: it was started with this value, so changes made here reach it only after it ends"
            ))
        let list = try menu("list")
        let row = list.output.split(separator: "\n").first { $0.contains(like) }
        #expect(row?.hasSuffix("»") == true, "\(list.output)")

        // The store was neither created anew nor changed: launch values are never written.
        #expect(try Data(contentsOf: store) == storedBefore)
        #expect(!String(decoding: try Data(contentsOf: store), as: UTF8.self).contains(like))

        // A stored override of a key the launch holds does not reach this run; one of another key does.
        #expect(try menu("set", like, "N").status == 0)
        #expect(try menu("set", photos, "1500").status == 0)
        #expect(try await demo.wait(for: "\(photos): 2000 (SERVER) -> 1500 (OVERRIDDEN)"))
        #expect(!demo.printed.contains("\(like): "), "\(demo.printed)")
        #expect(!demo.printed.contains("album like button: hidden"))
        let get = try getJSON(like)
        #expect(get?["value"] as? String == "N")
        #expect(get?["source"] as? String == "overridden")
        #expect((get?["launchOverrides"] as? [[String: Any]])?.first?["value"] as? String == "Y")

        // Once the demo ends, nobody runs with the launch value: get no longer names it.
        #expect(try await demo.stop(with: SIGTERM))
        #expect(try launchOverrides(like).isEmpty)
    }

    @Test(
        "CONFIG_OVERRIDES_JSON: the demo applies the valid values, and names an unknown key (with the nearest name) and a refused value on stderr"
    )
    func json() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let overrides = #"{"\#(like)": "Y", "function.album.like.enabld": "Y", "\#(photos)": "lots"}"#
        let demo = try DemoProcess(
            arguments: ["--store", store.path], environment: ["CONFIG_OVERRIDES_JSON": overrides], errors: true)
        defer { _ = demo.child.stop(signal: SIGTERM) }
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))
        #expect(demo.printed.contains("launch override \(like) = \"Y\" (CONFIG_OVERRIDES_JSON): this run only"))
        #expect(!demo.printed.contains("launch override \(photos) = \"lots\" (CONFIG_OVERRIDES_JSON): this run only"))
        #expect(
            demo.printed.contains(
                "launch override function.album.like.enabld = \"Y\" (CONFIG_OVERRIDES_JSON) not applied: unknown key \"function.album.like.enabld\"; did you mean \(like)"
            ), "\(demo.printed)")
        #expect(
            demo.printed.contains(
                "launch override \(photos) = \"lots\" (CONFIG_OVERRIDES_JSON) not applied: \(photos) "))
        #expect(demo.printed.contains("album like button: shown"))
        #expect(try await awaitLaunchOverrides(like).first?["value"] as? String == "Y")
        #expect(try launchOverrides(photos).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test(
        "a malformed -configOverride or CONFIG_OVERRIDES_JSON, or a missing CONFIG_SCENARIO, stops the demo naming it")
    func malformed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let noEquals = try runTool(
            "config-demo", ["--store", store.path, "-configOverride", like], timeout: 60)
        #expect(noEquals.status == 2)
        #expect(noEquals.error.hasPrefix("config-demo: -configOverride \(like): expected KEY=VALUE, found no \"=\""))
        let notStrings = try runTool(
            "config-demo", ["--store", store.path],
            environment: .changing(["CONFIG_OVERRIDES_JSON": #"{"\#(like)": true}"#]), timeout: 60)
        #expect(notStrings.status == 2)
        #expect(
            notStrings.error.hasPrefix(
                "config-demo: CONFIG_OVERRIDES_JSON: the value of \"\(like)\" must be a string"))
        let scenario = try runTool(
            "config-demo", ["--store", store.path], environment: .changing(["CONFIG_SCENARIO": "nope"]), timeout: 60)
        #expect(scenario.status == 2)
        #expect(scenario.error.hasPrefix("config-demo: CONFIG_SCENARIO=nope: no scenario \"nope\" in "))
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }
}
