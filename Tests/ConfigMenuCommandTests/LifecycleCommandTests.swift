import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("config-menu set --for, get/list expiry fields, prune, history, undo, diff, import with a diff", .serialized)
struct LifecycleCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-life-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    var storeOption: [String] { ["--store", store.path] }

    func run(_ arguments: String...) throws -> ToolRun { try configMenu(arguments + storeOption) }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("set --for stores the time it expires; get and list report the rule; bad durations are usage errors")
    func setFor() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Date()
        let set = try run("set", "function.album.like.enabled", "Y", "--for", "1h30m")
        #expect(set.status == 0, "\(set.error)")
        #expect(set.output.contains("expires at "), "\(set.output)")
        #expect(set.output.contains("(in 1 h 30 min)"), "\(set.output)")
        let get = try object(try run("get", "function.album.like.enabled", "--json").output)
        let expiresAt = try #require(get["expiresAt"] as? String)
        let date = try #require(Timestamp.parse(expiresAt))
        #expect(abs(date.timeIntervalSince(before) - 5400) < 60)
        let expiry = try #require(get["expiry"] as? [String: Any])
        #expect(expiry["expiresAt"] as? String == expiresAt)
        #expect(expiry["untilServerChanges"] as? Bool == false)
        #expect(get["expired"] as? Bool == false)
        #expect(get["expiredBecause"] is NSNull)
        let list = try run("list", "Album")
        let line = try #require(list.output.split(separator: "\n").first { $0.contains("function.album.like.enabled") })
        // The demo's server value "y" is rejected (!); the override will expire (◷).
        #expect(line.hasSuffix("OVERRIDDEN  !◷"), "\(line)")
        #expect(list.output.contains("◷ it will expire"))
        for bad in ["90", "2x", "h", "-1h", "", "99999999999d"] {
            let refused = try run("set", "function.album.like.enabled", "N", "--for", bad)
            #expect(refused.status == 2, "--for \(bad)")
        }
        #expect(try run("set", "function.album.like.enabled", "N", "--until-version", "14.2-beta").status == 2)
    }

    @Test("an expired override: ⊘ in list, expired in get, not applied; prune removes it as one undoable change")
    func expiredAndPrune() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileOverrideStore(url: store).modify { entries in
            entries["function.album.like.enabled"] = OverrideEntry(
                value: "Y", expiry: OverrideExpiry(expiresAt: Date().addingTimeInterval(-60)))
            entries["function.album.max_photos"] = OverrideEntry(
                value: "7", expiry: OverrideExpiry(untilVersion: ProgramVersion("14.2")))
        }
        let list = try run("list", "Album")
        let line = try #require(list.output.split(separator: "\n").first { $0.contains("function.album.like.enabled") })
        #expect(line.contains("⊘"))
        #expect(line.contains("N"), "the value the key has without it")
        let get = try object(try run("get", "function.album.like.enabled", "--json").output)
        #expect(get["expired"] as? Bool == true)
        #expect(get["expiredBecause"] as? String == "time")
        #expect(get["source"] as? String != "overridden")
        // The version rule counts only when the tool is told the program's version.
        let photos = try object(try run("get", "function.album.max_photos", "--json").output)
        #expect(photos["expired"] as? Bool == false)
        let atVersion = try object(
            try run("get", "function.album.max_photos", "--json", "--program-version", "14.10").output)
        #expect(atVersion["expiredBecause"] as? String == "version")
        let dry = try run("prune", "--dry-run")
        #expect(dry.output.contains("would remove 1 expired override"))
        let pruned = try run("prune")
        #expect(pruned.status == 0)
        #expect(pruned.output.contains("removed 1 expired override:"))
        #expect(pruned.output.contains("function.album.like.enabled = \"Y\" (expired at"))
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entries.keys.sorted() == ["function.album.max_photos"])
        #expect(reader.history().records.last?.reason.action == .prune)
        #expect(reader.history().records.last?.origin.kind == .cli)
    }

    @Test("a journal that cannot be used: set warns that the change is not in the history; undo fails, exit 4")
    func unusableJournal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.media.upload_concurrency", "5").status == 0)
        let journal = store.path + ".journal"
        #expect(chmod(journal, 0o666) == 0)
        let set = try run("set", "function.media.upload_concurrency", "6")
        #expect(set.status == 0)
        #expect(set.error.contains("warning: history: "))
        #expect(set.error.contains("not recorded in the history"))
        // The change is still undoable (the store differs from what the history last saw) ...
        #expect(try run("undo", "--yes").output.contains("puts back"))
        // ... but with the store back where the history saw it, an unreadable history is not "nothing to undo".
        let undo = try run("undo", "--yes")
        #expect(undo.status == 4)
        #expect(undo.error.contains("nothing was undone"))
        #expect(!undo.output.contains("nothing to undo"))
    }

    @Test("an override equal to the server value is redundant: = in list, redundant in get with what to do")
    func redundant() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = try run("set", "function.chat.typing_interval_ms", "2500")
        #expect(set.status == 0)
        #expect(set.error.contains("note: this override equals the server value"), "set says so at once")
        let get = try object(try run("get", "function.chat.typing_interval_ms", "--json").output)
        #expect(get["redundant"] as? Bool == true)
        let text = try run("get", "function.chat.typing_interval_ms").output
        #expect(text.contains("redundant: the override equals the server value"))
        #expect(text.contains("--until-server-changes"))
        let following = try run("set", "function.chat.typing_interval_ms", "2500", "--until-server-changes")
        #expect(following.status == 0)
        #expect(following.error.isEmpty)
        let followingGet = try object(try run("get", "function.chat.typing_interval_ms", "--json").output)
        #expect(followingGet["redundant"] as? Bool == false)
    }

    @Test(
        "history lists every change newest first (text and JSON), one key's with KEY; undo needs --yes off a terminal")
    func historyAndUndo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.album.like.enabled", "Y").status == 0)
        #expect(try run("set", "function.album.max_photos", "7", "--note", "QA").status == 0)
        #expect(try run("reset", "function.album.like.enabled").status == 0)
        let text = try run("history").output.split(separator: "\n")
        #expect(text.count == 3)
        #expect(text[0].contains("cli (pid ") && text[0].contains("reset function.album.like.enabled (was \"Y\")"))
        #expect(text[2].contains("set function.album.like.enabled = \"Y\""))
        let one = try run("history", "function.album.max_photos").output.split(separator: "\n")
        #expect(one.count == 1)
        let json = try object(try run("history", "--json", "--limit", "2").output)
        let records = try #require(json["records"] as? [[String: Any]])
        #expect(records.count == 2)
        #expect(records[0]["action"] as? String == "reset")
        let changes = try #require(records[1]["changes"] as? [[String: Any]])
        #expect((changes[0]["new"] as? [String: Any])?["note"] as? String == "QA")
        #expect((records[0]["origin"] as? [String: Any])?["kind"] as? String == "cli")
        let refused = try run("undo")
        #expect(refused.status == 2)
        #expect(refused.error.contains("pass --yes"))
        let undone = try run("undo", "--yes")
        #expect(undone.status == 0, "\(undone.error)")
        #expect(undone.output.contains("the last change: "))
        #expect(undone.output.contains("undone: reset function.album.like.enabled"))
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.like.enabled")?.value == "Y")
        // The next undo walks back to the change before.
        #expect(try run("undo", "--yes").output.contains("set function.album.max_photos = \"7\""))
    }

    @Test("diff PROFILE shows what import PROFILE does (merge; --replace: replace); diff A B compares two files")
    func diff() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.album.like.enabled", "Y").status == 0)
        #expect(try run("set", "function.album.max_photos", "7").status == 0)
        #expect(try run("set", "function.chat.typing_interval_ms", "500").status == 0)
        let profile = folder.appendingPathComponent("p.json")
        try Data(
            #"{"function.album.max_photos": "9", "function.chat.reactions.enabled": "N", "function.chat.typing_interval_ms": "500"}"#
                .utf8
        ).write(to: profile)
        let text = try run("diff", profile.path)
        #expect(text.status == 0)
        let merge = "merge from \(profile.path): 1 added, 1 changed, 1 unchanged; 1 other override kept\n"
        #expect(text.output.hasPrefix(merge), "\(text.output)")
        #expect(text.output.contains("  + function.chat.reactions.enabled = \"N\""))
        #expect(text.output.contains("  ~ function.album.max_photos: \"7\" -> \"9\""))
        #expect(!text.output.contains("like.enabled"), "a merge removes nothing")
        let dryRun = try run("import", profile.path, "--dry-run")
        #expect(dryRun.output == text.output, "the dry run prints what diff printed")
        let mergeJSON = try object(try run("diff", profile.path, "--json").output)
        #expect(mergeJSON["mode"] as? String == "merge" && mergeJSON["kept"] as? Int == 1)
        #expect((mergeJSON["removed"] as? [Any])?.isEmpty == true && mergeJSON["unchanged"] as? Int == 1)

        let replace = try run("diff", profile.path, "--replace")
        #expect(replace.output.hasPrefix("replace from \(profile.path): 1 added, 1 changed, 1 unchanged, 1 removed\n"))
        #expect(replace.output.contains("  - function.album.like.enabled = \"Y\""))
        #expect(replace.output == (try run("import", profile.path, "--replace", "--dry-run")).output)
        let replaceJSON = try object(try run("diff", profile.path, "--replace", "--json").output)
        #expect((replaceJSON["removed"] as? [[String: Any]])?.first?["key"] as? String == "function.album.like.enabled")

        let imported = try run("import", profile.path)
        #expect(imported.status == 0)
        #expect(
            imported.error.contains(
                "imported \(profile.path) into \(store.path): 1 added, 1 changed, 1 unchanged; 1 other override kept"),
            "\(imported.error)")
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entries.count == 4, "merged: the other override is kept")
        #expect(
            try run("diff", profile.path).output.hasPrefix(
                "merge from \(profile.path): 0 added, 0 changed, 3 unchanged"))

        let other = folder.appendingPathComponent("q.json")
        try Data(#"{"function.album.max_photos": "9"}"#.utf8).write(to: other)
        let json = try object(try run("diff", profile.path, other.path, "--json").output)
        #expect(
            (json["removed"] as? [[String: Any]])?.map { $0["key"] as? String } == [
                "function.chat.reactions.enabled", "function.chat.typing_interval_ms",
            ])
        #expect(json["unchanged"] as? Int == 1)
        #expect(try run("diff", profile.path, other.path, "--replace").status == 2)
        #expect(try run("diff", folder.appendingPathComponent("missing.json").path).status == 4)
    }

    @Test("a dry run refuses a merge past the store's size limit as the import does (exit 3), writing nothing")
    func dryRunLimit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let big = String(repeating: "v", count: 1_000_000)
        func document(_ names: [String]) -> Data {
            let lines = names.map { "    \"\($0)\": {\"value\": \"\(big)\"}" }.joined(separator: ",\n")
            return Data(
                "{\n  \"format\": \"service-configuration-overrides\",\n  \"version\": 1,\n  \"overrides\": {\n\(lines)\n  }\n}\n"
                    .utf8)
        }
        try document((1...5).map { "big.stored.\($0)" }).write(to: store)
        chmod(store.path, 0o600)
        let profile = folder.appendingPathComponent("big.json")
        try document((1...4).map { "big.incoming.\($0)" }).write(to: profile)
        let dry = try run("import", profile.path, "--force", "--dry-run")
        #expect(dry.status == 3, "\(dry.error)")
        #expect(dry.error.contains("the limit is 8 MiB; nothing was saved"), "\(dry.error)")
        let real = try run("import", profile.path, "--force")
        #expect(real.status == 3 && real.error.hasSuffix(dry.error.components(separatedBy: "config-menu: ").last!))
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entries.count == 5, "nothing was written")
    }

    @Test("import prints the diff with values; without a terminal it does not ask; --dry-run writes nothing")
    func importDiff() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.album.max_photos", "7").status == 0)
        let profile = folder.appendingPathComponent("p.json")
        try Data(#"{"function.album.max_photos": "9"}"#.utf8).write(to: profile)
        let dry = try run("import", profile.path, "--dry-run")
        #expect(dry.output.contains("~ function.album.max_photos: \"7\" -> \"9\""))
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "7")
        let json = try run("import", profile.path, "--json")
        #expect(json.status == 0)
        #expect(try object(json.output)["changed"] as? [String] == ["function.album.max_photos"])
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "9")
        #expect(reader.history().records.last?.reason.detail == "p.json")
    }
}

/// The questions `import` and `undo` ask in a terminal, answered in tmux.
@Suite(
    "config-menu import and undo ask in a terminal", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct LifecycleQuestionTests {
    @Test("import shows the diff and asks: n imports nothing (exit 1), y imports; undo asks the same way")
    func questions() async throws {
        let session = try TmuxSession()
        let store = session.home.appendingPathComponent("state/overrides.json")
        let profile = session.home.appendingPathComponent("p.json")
        try Data(#"{"function.album.max_photos": "9"}"#.utf8).write(to: profile)
        let command = "\(TmuxSession.binary) import \(profile.path) --store \(store.path); echo exit=$?"
        try session.run(command)
        try await session.waitFor("+ function.album.max_photos = \"9\"")
        try await session.waitFor("Import into \(store.path)? [y/N]")
        try session.press("n", "Enter")
        try await session.waitFor("nothing was imported")
        try await session.waitFor("exit=1")
        #expect(!FileManager.default.fileExists(atPath: store.path))
        try session.run("clear; echo second-round; " + command)
        try await session.waitFor("second-round")
        try await session.waitFor("[y/N]")
        try session.press("y", "Enter")
        try await session.waitFor("exit=0")
        let reader = FileOverrideStore(url: store)
        reader.reload()
        #expect(reader.entry(forKey: "function.album.max_photos")?.value == "9")
        try session.run("clear; echo third-round; \(TmuxSession.binary) undo --store \(store.path); echo exit=$?")
        try await session.waitFor("third-round")
        try await session.waitFor("Undo it? [y/N]")
        #expect(try session.screen().contains("by cli (pid"))
        try session.press("y", "Enter")
        try await session.waitFor("exit=0")
        reader.reload()
        #expect(reader.entries.isEmpty)
    }
}
