import Foundation
import SharedTestSupport
import Testing

/// Runs `script` in `shell` (`bash`, `zsh` or `fish`) with `arguments`, the folder of the built `config-menu` first
/// on `PATH`; returns its standard output's lines (empty lines dropped).
private func shell(
    _ shell: String, _ script: String, _ arguments: [String] = [], environment extra: [String: String] = [:]
) throws -> [String] {
    let executable = try #require(path(of: shell), "\(shell) is not installed")
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("completion-home").path
    let tools = BuiltTools.folder.path
    var environment: [String: String?] = [
        "PATH": tools + ":" + (extra["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
    ]
    environment.merge(extra.filter { $0.key != "PATH" }.mapValues { Optional($0) }) { $1 }
    let run = try ChildProcess.run(
        executable, ["-c", script] + (shell == "fish" ? arguments : ["_"] + arguments),
        environment: .changing(environment))
    #expect(run.status == 0, "\(shell) exited with \(run.status)")
    return run.output.split(separator: "\n").map(String.init)
}

/// Where `name` is on this process's `PATH`.
private func path(of name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private func hasShell(_ name: String) -> Bool { path(of: name) != nil }

/// The catalog's key names (from the tool's own `catalog` output), and a key's picker choices.
private func catalogKeys(_ options: [String] = []) throws -> [String: [String]] {
    let manifest = try configMenu(["catalog"] + options)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(manifest.output.utf8)) as? [String: Any])
    var keys: [String: [String]] = [:]
    for scope in document["scopes"] as? [[String: Any]] ?? [] {
        for key in scope["keys"] as? [[String: Any]] ?? [] {
            let control = key["control"] as? [String: Any]
            let choices = (control?["choices"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            keys[key["name"] as! String] = choices
        }
    }
    return keys
}

/// The commands `config-menu --help` lists (the first word of each entry under "commands:").
private func listedCommands() throws -> [String] {
    var commands: [String] = []
    var inSection = false
    for line in try configMenu(["--help"]).output.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "commands:" {
            inSection = true
        } else if inSection {
            if line.isEmpty { break }
            if line.hasPrefix("  "), !line.hasPrefix("   "), let first = line.split(separator: " ").first {
                commands.append(String(first))
            }
        }
    }
    return commands.sorted()
}

@Suite("Shell completion: the scripts run in real shells")
struct CompletionTests {
    /// Completes the command line `words` (the last one is being typed) with bash's `_config_menu`.
    func bash(_ words: [String], environment: [String: String] = [:]) throws -> [String] {
        try shell(
            "bash",
            #"""
            source <(config-menu completion bash) || exit 1
            COMP_WORDS=("$@")
            COMP_CWORD=$(( $# - 1 ))
            _config_menu
            printf '%s\n' "${COMPREPLY[@]}"
            """#, words, environment: environment)
    }

    @Test("bash: `config-menu set function.al<Tab>` offers the catalog's keys with that prefix, and only those")
    func bashKeys() throws {
        let expected = try catalogKeys().keys.filter { $0.hasPrefix("function.al") }.sorted()
        #expect(!expected.isEmpty)
        #expect(try bash(["config-menu", "set", "function.al"]) == expected)
        #expect(try bash(["config-menu", "--store", "/tmp/x.json", "get", "function.al"]) == expected)
        #expect(try bash(["config-menu", "reset", "function.nothing_starts_so"]) == [])
    }

    @Test("bash: keys come from the catalog the command line names (--synthetic-keys, --manifest=FILE)")
    func bashCatalogOptions() throws {
        let synthetic = try catalogKeys(["--synthetic-keys", "3"]).keys.sorted()
        #expect(synthetic.count == 3)
        #expect(try bash(["config-menu", "--synthetic-keys", "3", "get", "function."]) == synthetic)

        let manifest = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: manifest) }
        try Data(try configMenu(["catalog", "--synthetic-keys", "2"]).output.utf8).write(to: manifest)
        let fromManifest = try catalogKeys(["--manifest", manifest.path]).keys.sorted()
        #expect(fromManifest.count == 2)
        // bash splits --manifest=FILE at "=".
        #expect(try bash(["config-menu", "--manifest", "=", manifest.path, "set", ""]) == fromManifest)
    }

    @Test("bash: a hostile manifest's key names are quoted for the shell, and names with escapes are never offered")
    func bashHostileKeys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("ran")
        var manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try configMenu(["catalog", "--synthetic-keys", "2"]).output.utf8)) as? [String: Any])
        var scopes = try #require(manifest["scopes"] as? [[String: Any]])
        var keys = try #require(scopes[0]["keys"] as? [[String: Any]])
        keys[0]["name"] = "function.a $(touch \(marker.path)) b"
        keys[1]["name"] = "function.b\u{1B}]0;title\u{7}"
        scopes[0]["keys"] = keys
        manifest["scopes"] = scopes
        let file = folder.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: manifest).write(to: file)

        let offered = try bash(["config-menu", "--manifest", file.path, "set", "function."])
        #expect(offered == ["function.a\\ \\$\\(touch\\ \(marker.path)\\)\\ b"])
        // What the shell reads back from the quoted word is the key's name, and nothing ran.
        let words = try shell("bash", "eval \"printf '%s\\n' $1\"", [offered.first ?? ""])
        #expect(words == ["function.a $(touch \(marker.path)) b"])
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test("bash: commands (every one the help lists), options per command, values, choices, files")
    func bashStructure() throws {
        let commands = try listedCommands()
        #expect(commands.contains("simulators") && commands.contains("completion"))
        #expect(try bash(["config-menu", ""]) == commands)
        #expect(try bash(["config-menu", "se"]) == commands.filter { $0.hasPrefix("se") })
        #expect(try bash(["config-menu", "help", "s"]) == commands.filter { $0.hasPrefix("s") })

        let listOptions = try bash(["config-menu", "list", "--"])
        for option in ["--json", "--overridden", "--problems", "--store", "--manifest", "--simulator", "--device"] {
            #expect(listOptions.contains(option), "list --<Tab> lacks \(option)")
        }
        #expect(!listOptions.contains("--note"))
        #expect(try bash(["config-menu", "--no"]) == ["--no-mouse"])
        #expect(try bash(["config-menu", "set", "--n"]) == ["--note"])

        let sortOrder = try #require(try catalogKeys()["function.album.sort_order"])
        #expect(sortOrder.count == 3)
        #expect(try bash(["config-menu", "set", "function.album.sort_order", ""]) == sortOrder.sorted())
        #expect(try bash(["config-menu", "set", "function.album.like.enabled", ""]) == ["N", "Y"])
        #expect(try bash(["config-menu", "set", "function.chat.typing_interval_ms", ""]) == [])
        #expect(try bash(["config-menu", "completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try bash(["config-menu", "list", "--scope", "Al"]) == ["Album"])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["scenario-a.json", "scenario-b.json", "other.txt"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let prefix = folder.appendingPathComponent("scen").path
        let expected = ["scenario-a.json", "scenario-b.json"].map { folder.appendingPathComponent($0).path }
        #expect(try bash(["config-menu", "import", prefix]).sorted() == expected)
        #expect(try bash(["config-menu", "--store", prefix]).sorted() == expected)
        #expect(try bash(["config-menu", "--store", "=", prefix]).sorted() == expected)
        // A value that is free text offers nothing (not file names).
        #expect(try bash(["config-menu", "set", "--note", prefix]) == [])
    }

    @Test("bash: --simulator offers the booted simulators' apps, --device their UDIDs (from a fake xcrun)")
    func bashSimulator() throws {
        let simulators = try FakeSimulators()
        try simulators.addDevice(
            "iPhone 16 Pro", udid: "5A1B2C3D-0000-4000-8000-000000000001",
            apps: [("com.example.shop", "Shop"), ("com.example.notes", "Notes")])
        try simulators.addDevice("iPad Air", udid: "5A1B2C3D-0000-4000-8000-000000000002", state: "Shutdown")
        let environment = try simulators.environment()
        #expect(
            try bash(["config-menu", "--simulator", "com.example."], environment: environment) == [
                "com.example.notes", "com.example.shop",
            ])
        #expect(
            try bash(["config-menu", "list", "--device", ""], environment: environment) == [
                "5A1B2C3D-0000-4000-8000-000000000001"
            ])
        // Without xcrun, nothing (and no error in the middle of the command line).
        #expect(
            try bash(["config-menu", "--simulator", ""], environment: try simulators.environment(xcrun: false)) == [])
    }

    @Test("completion: an unknown shell is a usage error")
    func unknownShell() throws {
        let result = try configMenu(["completion", "tcsh"])
        #expect(result.status == 2)
        #expect(result.error.contains("no completion for \"tcsh\"; shells: bash, fish, zsh"))
        #expect(try configMenu(["completion"]).status == 2)
    }

    @Test("zsh: the script parses, and its function offers keys, commands and values", .enabled(if: hasShell("zsh")))
    func zsh() throws {
        #expect(
            try shell(
                "zsh", "config-menu completion zsh > $0.zsh && zsh -n $0.zsh && echo ok; rm -f $0.zsh",
                []) == ["ok"])
        // Outside a completion widget, compadd, compset and _files are stood in for: the function's own logic runs.
        let run = { (words: [String]) in
            try shell(
                "zsh",
                #"""
                compdef() { :; }
                compadd() { while [[ "$1" == -* ]]; do [[ "$1" == -- ]] && { shift; break; }; shift; done; print -rl -- "$@"; }
                compset() { return 1; }
                _files() { print -r -- FILES; }
                source <(config-menu completion zsh) || exit 1
                words=("$@")
                CURRENT=$#
                _config_menu | grep -- "^${words[CURRENT]}" || true
                """#, words)
        }
        let expected = try catalogKeys().keys.filter { $0.hasPrefix("function.al") }.sorted()
        #expect(try run(["config-menu", "set", "function.al"]).sorted() == expected)
        #expect(try run(["config-menu", "se"]) == ["serve", "set"])
        #expect(try run(["config-menu", "set", "function.album.like.enabled", ""]).sorted() == ["N", "Y"])
        #expect(try run(["config-menu", "--synthetic-keys", "3", "get", ""]).count == 3)
        #expect(try run(["config-menu", "import", ""]) == ["FILES"])
    }

    @Test("fish: the script parses, and `complete -C` offers keys, commands and values", .enabled(if: hasShell("fish")))
    func fish() throws {
        let complete = { (line: String) in
            try shell("fish", "config-menu completion fish | source; and complete -C $argv[1]", [line])
                .map { String($0.split(separator: "\t").first ?? "") }
        }
        let expected = try catalogKeys().keys.filter { $0.hasPrefix("function.al") }.sorted()
        #expect(try complete("config-menu set function.al").sorted() == expected)
        #expect(try complete("config-menu se") == ["serve", "set"])
        #expect(try complete("config-menu set function.album.like.enabled ").sorted() == ["N", "Y"])
        #expect(try complete("config-menu --synthetic-keys 3 get function.").count == 3)
        #expect(try complete("config-menu completion ").sorted() == ["bash", "fish", "zsh"])
        #expect(try complete("config-menu list --scope=Al") == ["--scope=Album"])
        #expect(
            try shell(
                "fish", "set f (mktemp); config-menu completion fish > $f; and fish -n $f; and echo ok; rm -f $f") == [
                    "ok"
                ])
    }
}
