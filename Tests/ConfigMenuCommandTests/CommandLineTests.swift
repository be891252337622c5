import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

@Suite("config-menu subcommands (no terminal needed)", .serialized)
struct CommandLineTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-cli-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    var storeOption: [String] { ["--store", store.path] }

    func run(_ arguments: String...) throws -> ToolRun { try configMenu(arguments + storeOption) }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test("set validates through the key's decoding, names the key, and exits 3; nothing is written")
    func setInvalid() throws {
        let result = try run("set", "function.album.like.enabled", "yes")
        #expect(result.status == 3)
        #expect(result.error == "config-menu: function.album.like.enabled expects Y or N, got \"yes\"\n")
        #expect(result.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test("an unknown key suggests the nearest names")
    func unknownKey() throws {
        let result = try run("set", "function.album.like.enable", "Y")
        #expect(result.status == 3)
        #expect(
            result.error.contains(
                "unknown key \"function.album.like.enable\"; did you mean function.album.like.enabled?"))
        let get = try run("get", "function.chat.typing_intervall")
        #expect(get.status == 3)
        #expect(get.error.contains("did you mean function.chat.typing_interval_ms?"))
    }

    @Test("set, get and list agree, in text and in the documented JSON shape")
    func setGetList() throws {
        let set = try run("set", "function.album.like.enabled", "Y", "--note", "QA 12")
        #expect(set.status == 0)
        #expect(set.output == "function.album.like.enabled = Y (overridden; was N from DEFAULT)\n")
        let get = try run("get", "function.album.like.enabled", "--json")
        #expect(get.status == 0)
        let object = try #require(try json(get.output) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "name", "scope", "title", "type", "control", "value", "source", "default", "server", "override",
                "rejections", "rejectedByPrograms", "launchOverrides", "stale", "orphan", "storeProblems", "expiresAt",
                "expiry",
                "expired",
                "expiredBecause", "redundant", "owner", "ticket", "removeBy",
            ]
        )
        #expect(object["owner"] as? String == "album-team")
        #expect(object["ticket"] as? String == "ALB-1024")
        #expect(object["removeBy"] as? [String: String] == ["date": "2026-10-31"])
        #expect(object["value"] as? String == "Y")
        #expect(object["source"] as? String == "overridden")
        #expect(object["server"] as? String == "y")
        let override = try #require(object["override"] as? [String: Any])
        #expect(override["note"] as? String == "QA 12")
        #expect(override["serverValueWhenSet"] as? String == "y")
        let list = try run("list", "album", "--json")
        let rows = try #require(try json(list.output) as? [[String: Any]])
        #expect(
            rows.map { $0["name"] as? String } == [
                "function.album.like.enabled", "ab.album.like_button", "function.album.max_photos",
                "function.album.sort_order", "function.album.sharing.enabled",
            ])
        let text = try run("list", "--overridden")
        #expect(text.output.contains("function.album.like.enabled"))
        #expect(text.output.contains("OVERRIDDEN"))
        let problems = try run("list", "--problems", "--json")
        let names = try #require(try json(problems.output) as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(
            names == ["function.album.like.enabled", "function.payments.daily_limit"],
            "the like flag's server value is still rejected, though its override wins: a problem QA must still see")
        #expect(try run("list", "nowhere").status == 3)
    }

    @Test("reset one key, a scope, or everything")
    func reset() throws {
        try FileOverrideStore(url: store).modify { entries in
            entries["function.album.like.enabled"] = OverrideEntry(value: "Y")
            entries["function.album.max_photos"] = OverrideEntry(value: "5")
            entries["function.chat.reactions.enabled"] = OverrideEntry(value: "N")
            entries["gone.key"] = OverrideEntry(value: "x")
        }
        #expect(
            try run("reset", "function.album.max_photos").output == "removed 1 override: function.album.max_photos\n")
        #expect(try run("reset", "function.album.max_photos").output == "function.album.max_photos has no override\n")
        #expect(try run("reset", "--scope", "Album").output == "removed 1 override: function.album.like.enabled\n")
        #expect(try run("reset", "--all").output == "removed 2 overrides: function.chat.reactions.enabled, gone.key\n")
        #expect(try run("reset").status == 2)
        #expect(try run("reset", "k", "--all").status == 2)
        let check = FileOverrideStore(url: store)
        check.reload()
        #expect(check.entries.isEmpty)
    }

    @Test("export and import: problems are reported before anything is written")
    func profiles() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try run("set", "function.album.max_photos", "7").status == 0)
        let exported = try run("export")
        #expect(exported.output.contains(#""function.album.max_photos": {"#))
        let scenario = folder.appendingPathComponent("scenario.json")
        try Data(
            #"{"function.album.like.enabled": "N", "nope.key": "Y", "function.chat.typing_interval_ms": "fast"}"#.utf8
        ).write(to: scenario)
        let refused = try run("import", scenario.path)
        #expect(refused.status == 3)
        #expect(refused.output.contains("1 unknown key: nope.key"))
        #expect(
            refused.output.contains(
                "function.chat.typing_interval_ms: stored override not applied: expected an integer, got \"fast\""))
        #expect(refused.error.contains("nothing was imported"))
        #expect(try run("get", "function.album.like.enabled", "--json").output.contains(#""source": "default""#))
        let dryRun = try run("import", scenario.path, "--dry-run", "--json")
        let plan = try #require(try json(dryRun.output) as? [String: Any])
        #expect(plan["unknownKeys"] as? [String] == ["nope.key"])
        #expect(dryRun.status == 3, "the dry run fails as the import does")
        #expect(dryRun.error.contains("nothing was imported"))
        let textDryRun = try run("import", scenario.path, "--dry-run")
        #expect(textDryRun.status == 3 && textDryRun.output == refused.output)
        let diff = try run("diff", scenario.path)
        #expect(diff.status == 0 && diff.output == refused.output, "diff shows what import does")
        #expect(diff.error.contains("note: import refuses this profile (exit 3)"))
        let forced = try run("import", scenario.path, "--force")
        #expect(forced.status == 0)
        let list = try run("list", "--overridden", "--json")
        let names = try #require(try json(list.output) as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(
            Set(names) == [
                "function.album.like.enabled", "function.album.max_photos", "function.chat.typing_interval_ms",
                "nope.key",
            ])
        let profile = folder.appendingPathComponent("profile.json")
        try Data(exported.output.utf8).write(to: profile)
        #expect(try run("import", profile.path, "--replace").status == 0)
        let after = try run("list", "--overridden", "--json")
        #expect(
            try #require(try json(after.output) as? [[String: Any]]).compactMap { $0["name"] as? String } == [
                "function.album.max_photos"
            ])
    }

    @Test("a manifest opens another program's catalog: same keys, validated from the control descriptions")
    func manifest() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = try run("catalog")
        #expect(catalog.status == 0)
        let manifest = folder.appendingPathComponent("app.manifest.json")
        try Data(catalog.output.utf8).write(to: manifest)
        let server = folder.appendingPathComponent("server.json")
        try Data(#"{"function.album.like.enabled": "Y"}"#.utf8).write(to: server)
        let options = ["--manifest", manifest.path, "--server-values", server.path]
        let viaManifest = try configMenu(["list", "--json"] + options + storeOption)
        let names = try #require(try json(viaManifest.output) as? [[String: Any]]).compactMap { $0["name"] as? String }
        let demo = try #require(try json(try run("list", "--json").output) as? [[String: Any]]).compactMap {
            $0["name"] as? String
        }
        #expect(names == demo)
        let bad = try configMenu(["set", "ab.album.like_button", "maybe"] + options + storeOption)
        #expect(bad.status == 3)
        #expect(bad.error == "config-menu: ab.album.like_button expects one of: none, off, on, got \"maybe\"\n")
        #expect(try configMenu(["set", "function.album.max_photos", "1e3"] + options + storeOption).status == 3)
        #expect(try configMenu(["set", "function.chat.reaction_set", "[1,"] + options + storeOption).status == 3)
        #expect(try configMenu(["set", "function.chat.reaction_set", #"["x"]"#] + options + storeOption).status == 0)
        let get = try configMenu(["get", "function.album.like.enabled", "--json"] + options + storeOption)
        #expect(get.output.contains(#""source": "server""#))
    }

    @Test("malformed manifests and server-value files: the file and the problem, exit 4")
    func malformedFiles() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("broken.manifest.json")
        try Data(
            #"{"format": "service-configuration-manifest", "version": 1, "scopes": [{"name": "A", "keys": [{"name": "k", "control": {"kind": "slider"}}]}]}"#
                .utf8
        ).write(to: manifest)
        let result = try configMenu(["list", "--manifest", manifest.path] + storeOption)
        #expect(result.status == 4)
        #expect(
            result.error
                == "config-menu: \(manifest.path): scopes[0].keys[0].control.kind must be toggle, picker, number, text or json, found \"slider\"\n"
        )
        let values = folder.appendingPathComponent("values.json")
        try Data("[1, 2]".utf8).write(to: values)
        let server = try configMenu(["list", "--server-values", values.path] + storeOption)
        #expect(server.status == 4)
        #expect(server.error.contains("\(values.path): expected a JSON object of key names to strings, found an array"))
        let missing = try configMenu(["list", "--manifest", folder.appendingPathComponent("nope.json").path])
        #expect(missing.status == 4)
        #expect(missing.error.contains("nope.json: cannot read the file"))
    }

    @Test("get, set and list SCOPE read only their keys of a manifest; a name it lacks reads it whole")
    func manifestSelection() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = folder.appendingPathComponent("app.manifest.json")
        let good = #"{"control":{"kind":"number","number":"integer"},"default":"3","name":"a.count","title":"Count"}"#
        let broken = #"{"control":{"kind":"number","number":"integer"},"default":"x","name":"b.count"}"#
        try Data(
            (#"{"format":"service-configuration-manifest","scopes":[{"keys":[\#(good)],"name":"Alpha"},"#
                + #"{"keys":[\#(broken)],"name":"Beta"}],"version":1}"#).utf8
        ).write(to: manifest)
        let options = ["--manifest", manifest.path] + storeOption
        // The key read is fine, so the command works; the whole read (the menu, `list`) refuses the manifest.
        let set = try configMenu(["set", "a.count", "7"] + options)
        #expect(set.status == 0)
        #expect(set.output == "a.count = 7 (overridden; was 3 from DEFAULT)\n")
        let get = try configMenu(["get", "a.count", "--json"] + options)
        #expect(get.status == 0)
        #expect(get.output.contains(#""value": "7""#))
        let scope = try configMenu(["list", "alpha"] + options)
        #expect(scope.status == 0)
        #expect(scope.output.contains("a.count") && !scope.output.contains("b.count"))
        let resetScope = try configMenu(["reset", "--scope", "ALPHA"] + options)
        #expect(resetScope.output == "removed 1 override: a.count\n", "\(resetScope.error)")
        #expect(try configMenu(["set", "a.count", "8"] + options).status == 0)
        let reset = try configMenu(["reset", "a.count"] + options)
        #expect(reset.output == "removed 1 override: a.count\n", "\(reset.error)")
        let history = try configMenu(["history", "a.count"] + options)
        #expect(history.status == 0, "\(history.error)")
        #expect(history.output.contains("a.count") && history.output.contains("\"8\""), "\(history.output)")
        let whole = try configMenu(["list"] + options)
        #expect(whole.status == 4)
        #expect(whole.error.contains("\(manifest.path): scopes[1].keys[0]"))
        // The broken key, a typo and an unknown scope read the whole manifest, which says what is wrong.
        for arguments in [
            ["get", "b.count"], ["get", "a.cont"], ["set", "b.count", "1"], ["list", "Gamma"],
            ["reset", "a.count", "b.count"], ["reset", "--scope", "Beta"],
        ] {
            let result = try configMenu(arguments + options)
            #expect(result.status == 4, "\(arguments)")
            #expect(result.error.contains("scopes[1].keys[0]"), "\(arguments): \(result.error)")
        }
        // A valid manifest: a typo gets the nearest name, found by reading it whole.
        let fixed = folder.appendingPathComponent("fixed.manifest.json")
        try Data(
            try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: #""x""#, with: #""1""#).utf8
        )
        .write(to: fixed)
        let typo = try configMenu(["get", "a.cont", "--manifest", fixed.path] + storeOption)
        #expect(typo.status == 3)
        #expect(typo.error.contains("did you mean a.count, b.count?"))
        let unknownScope = try configMenu(["list", "Gamma", "--manifest", fixed.path] + storeOption)
        #expect(unknownScope.error.contains("unknown scope \"Gamma\"; scopes: Alpha, Beta"))
    }

    @Test(
        "every command has --help; usage errors exit 2 and point at the help",
        arguments: ["list", "get", "set", "reset", "export", "import", "catalog"])
    func help(command: String) throws {
        let help = try configMenu([command, "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: config-menu \(command)"))
        #expect(help.output.contains("exit codes:"))
        let wrong = try configMenu([command, "--frobnicate"])
        #expect(wrong.status == 2)
        #expect(
            wrong.error == "config-menu: \(command) does not take --frobnicate (see config-menu \(command) --help)\n")
    }

    @Test("the overview help, and an unknown command")
    func overview() throws {
        let help = try configMenu(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("exit codes: 0 success, 1 failure"))
        let unknown = try configMenu(["lsit"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown command \"lsit\"; did you mean list?"))
    }
}

@Suite("config-demo: a running program picks up changes live", .serialized)
struct LiveDemoTests {
    @Test("a change made with config-menu set shows up in the running demo, without a restart")
    func liveChange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("overrides.json")
        let demo = try DemoProcess(store: store)
        func wait(for text: String, within seconds: Double) async throws -> Bool {
            try await demo.wait(for: text, within: seconds)
        }
        // Starting a debug binary on a loaded machine can take many seconds. How fast a change arrives is measured by
        // `config-benchmarks store` (live reload); here: it arrives in the running program, with no restart.
        #expect(try await wait(for: "typing indicator refresh: every 2500 ms", within: 60))
        let set = try configMenu(["set", "function.chat.typing_interval_ms", "1234", "--store", store.path])
        #expect(set.status == 0)
        #expect(try await wait(for: "function.chat.typing_interval_ms: 2500 (SERVER) -> 1234 (OVERRIDDEN)", within: 30))
        #expect(try await wait(for: "typing indicator refresh: every 1234 ms", within: 30))
    }
}
