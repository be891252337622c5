import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import SharedTestSupport
import Testing

/// A store (or server) location that looks like a URL but is not one the tools accept is a usage error naming the
/// accepted forms, in config-menu, config-demo and `CONFIG_OVERRIDES_STORE` alike: never a file or folder quietly
/// made in the current directory while the user believes the override is shared.
@Suite("URL typos in store and server locations: exit 2, nothing written")
struct StoreLocationTypoTests {
    static let typos = [
        "etcd:/app/ov", "etcd:app", "etcd//127.0.0.1:2379/app", "etc://127.0.0.1:2379/app", "ETCD:/x",
        "etcds//h/p", "http://127.0.0.1:8000/overrides.json", "file:///tmp/overrides.json",
    ]

    /// Runs `tool` (`config-menu` or `config-demo`) in `directory` with `environment` added, its state folder inside
    /// `directory`; config-demo runs until stopped, so it must have exited on the usage error within 30 s.
    static func run(
        _ tool: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> ToolRun {
        var variables: [String: String?] = [
            "XDG_STATE_HOME": directory.appendingPathComponent("state").path, "CONFIG_OVERRIDES_STORE": nil,
            "CONFIG_OVERRIDES_FILE": nil,
        ]
        for (name, value) in environment { variables[name] = value }
        return try runTool(tool, arguments, environment: .changing(variables), directory: directory, timeout: 30)
    }

    /// A new empty folder for one test's working directory.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-typo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The entries of `directory` but the state folder the tools were pointed at.
    static func created(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0 != "state" }.sorted()
    }

    @Test("config-menu --store TYPO and CONFIG_OVERRIDES_STORE=TYPO: exit 2 naming the accepted forms, no file made")
    func configMenu() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for typo in Self.typos {
            let given = try Self.run(
                "config-menu", ["set", "function.album.like.enabled", "Y", "--store", typo], in: folder)
            #expect(given.status == 2, "\(typo): \(given.error)")
            #expect(given.error.contains("looks like a URL but is not one a store can be"), "\(given.error)")
            #expect(given.error.contains("etcd://HOST[:PORT]/PREFIX"), "\(given.error)")
            let variable = try Self.run(
                "config-menu", ["list", "--overridden"], in: folder, environment: ["CONFIG_OVERRIDES_STORE": typo])
            #expect(variable.status == 2, "\(typo): \(variable.error)")
            #expect(variable.error.contains("CONFIG_OVERRIDES_STORE=\(typo) looks like a URL"), "\(variable.error)")
            #expect(Self.created(in: folder).isEmpty, "\(typo) made \(Self.created(in: folder))")
        }
        let hint = try Self.run("config-menu", ["list", "--store", "etcd:/app/ov"], in: folder)
        #expect(hint.error.contains("an etcd URL is written etcd://HOST:PORT/PREFIX"), "\(hint.error)")
        // A file whose name holds a colon is still a file, written with its folder.
        let file = try Self.run(
            "config-menu", ["set", "function.album.like.enabled", "Y", "--store", "./notes:1.json"], in: folder)
        #expect(file.status == 0, "\(file.error)")
        #expect(Self.created(in: folder).contains("notes:1.json"))
    }

    @Test("config-demo --store TYPO and CONFIG_OVERRIDES_STORE=TYPO exit 2 at once, no file made")
    func configDemo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for typo in ["etcd:/demo/x", "etc://127.0.0.1:2379/demo", "etcd//127.0.0.1:2379/demo"] {
            let given = try Self.run("config-demo", ["--store", typo], in: folder)
            #expect(given.status == 2, "\(typo): \(given.error)")
            #expect(given.error.contains("looks like a URL but is not one a store can be"), "\(given.error)")
            let variable = try Self.run(
                "config-demo", [], in: folder, environment: ["CONFIG_OVERRIDES_STORE": typo])
            #expect(variable.status == 2, "\(typo): \(variable.error)")
            #expect(variable.error.contains("looks like a URL but is not one a store can be"), "\(variable.error)")
            #expect(Self.created(in: folder).isEmpty, "\(typo) made \(Self.created(in: folder))")
        }
    }

    @Test("a program's CONFIG_OVERRIDES_STORE typo is an error from defaultStore, not a file")
    func programs() throws {
        for typo in Self.typos {
            let error = #expect(throws: OverrideStoreError.self) {
                try OverrideStores.defaultStore(appName: "shop", environment: ["CONFIG_OVERRIDES_STORE": typo])
            }
            #expect(error?.problem.contains("give a file path, etcd://HOST[:PORT]/PREFIX") == true, "\(typo)")
        }
        #expect(OverrideStores.problem(withLocation: "./notes:1.json") == nil)
        #expect(OverrideStores.problem(withLocation: "etcd/overrides.json") == nil, "a folder named etcd is a path")
        #expect(OverrideStores.problem(withLocation: "etcd://127.0.0.1:2379/app") == nil)
    }

    @Test("--server-url typos are usage errors too (exit 2), in config-menu and config-demo")
    func serverURL() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for typo in ["etcd:/demo/values", "etc://127.0.0.1:2379/demo", "etcd//127.0.0.1:2379/demo", "htp://h/v"] {
            let menu = try Self.run(
                "config-menu", ["sync", "--server-url", typo, "--store", "./overrides.json"], in: folder)
            #expect(menu.status == 2, "\(typo): \(menu.error)")
            let demo = try Self.run(
                "config-demo", ["--server-url", typo, "--store", "./overrides.json"], in: folder)
            #expect(demo.status == 2, "\(typo): \(demo.error)")
        }
    }
}
