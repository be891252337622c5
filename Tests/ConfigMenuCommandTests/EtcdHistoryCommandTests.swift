import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu history`, `undo` and `redo` on a shared etcd store (a real etcd) and on a file.
@Suite("config-menu history, undo and redo on etcd and on a file", .serialized)
struct EtcdHistoryCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-redo-\(UUID().uuidString)")
    let key = "function.album.max_photos"

    func run(_ arguments: [String], store: String) throws -> ToolRun {
        try configMenu(
            arguments + ["--store", store],
            environment: .changing([
                "XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_STORE": nil, "CONFIG_OVERRIDES_FILE": nil,
            ]))
    }

    /// The records of `history --json`, newest first.
    func records(_ store: String) throws -> [[String: Any]] {
        let history = try run(["history", "--json"], store: store)
        #expect(history.status == 0, "\(history.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [String: Any])
        return object["records"] as? [[String: Any]] ?? []
    }

    /// Two sets, two undos, two redos, then a new change after an undo: redo has nothing left.
    func walk(_ store: String) throws {
        for value in ["7", "9"] { #expect(try run(["set", key, value], store: store).status == 0) }
        let nothing = try run(["redo", "--yes"], store: store)
        #expect(
            nothing.status == 0 && nothing.output.hasPrefix("nothing to redo: nothing was undone"), "\(nothing.output)")
        let undo = try run(["undo", "--yes"], store: store)
        #expect(undo.output.contains("undone: set \(key) = \"9\" (was \"7\")"), "\(undo.output) \(undo.error)")
        #expect(try run(["undo", "--yes"], store: store).output.contains("undone: set \(key) = \"7\""))
        let redo = try run(["redo", "--yes"], store: store)
        #expect(redo.status == 0, "\(redo.error)")
        #expect(redo.output.contains("the last undo: "), "\(redo.output)")
        #expect(redo.output.contains("redoing it puts back what it undid:\n  \(key) = \"7\""), "\(redo.output)")
        #expect(redo.output.contains("redone: undo \(key) (was \"7\")"), "\(redo.output)")
        let json = try run(["redo", "--yes", "--json"], store: store)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((object["redone"] as? [String: Any])?["action"] as? String == "undo")
        #expect(try run(["get", key], store: store).output.hasPrefix("\(key) = 9"))
        let done = try run(["redo", "--yes"], store: store)
        #expect(done.output.hasPrefix("nothing to redo: no undo to redo since the last change"), "\(done.output)")
        // Without --yes and without a terminal, redo asks nothing and changes nothing (exit 2).
        #expect(try run(["undo", "--yes"], store: store).status == 0)
        let refused = try run(["redo"], store: store)
        #expect(refused.status == 2 && refused.error.contains("pass --yes"), "\(refused.error)")
        #expect(try run(["set", key, "3"], store: store).status == 0)
        #expect(try run(["redo", "--yes"], store: store).output.hasPrefix("nothing to redo"))
        let actions = try records(store).map { $0["action"] as? String ?? "?" }
        #expect(actions == ["set", "undo", "redo", "redo", "undo", "undo", "set", "set"])
    }

    @Test(
        "on etcd: history names the machine and process of each change; undo and redo walk the shared history",
        .enabled(
            if: EtcdTestServer.unavailableReason == nil, "etcd is not installed (scripts/setup-debian installs it)"))
    func etcdStore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let store = etcd.url(prefix: "/cli-history/\(UUID().uuidString.prefix(8))").absoluteString
        try walk(store)
        let host = try #require(OverrideChangeOrigin.currentHost)
        let history = try run(["history", "--limit", "1"], store: store)
        #expect(history.output.contains("cli (pid "), "\(history.output)")
        #expect(history.output.contains(" on \(host))"), "\(history.output)")
        let origin = try #require(try records(store).first?["origin"] as? [String: Any])
        #expect(origin["kind"] as? String == "cli" && origin["host"] as? String == host)
        #expect((origin["pid"] as? Int).map { $0 > 0 } == true)
        // Nothing to undo on a new prefix says where the history is kept.
        let empty = etcd.url(prefix: "/cli-history/\(UUID().uuidString.prefix(8))").absoluteString
        let none = try run(["undo", "--yes"], store: empty)
        #expect(none.output == "nothing to undo: no change is recorded (the history is kept in \(empty))\n")
    }

    @Test("on a file: redo walks forward again and a new change ends it")
    func fileStore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        try walk(folder.appendingPathComponent("overrides.json").path)
    }

    @Test("redo is in the help and in the shell completions")
    func help() throws {
        let overview = try configMenu(["--help"])
        #expect(overview.output.contains("redo [--yes] [--json]"))
        let help = try configMenu(["redo", "--help"])
        #expect(help.status == 0 && help.output.hasPrefix("usage: config-menu redo [--yes] [--json]"))
        let bash = try configMenu(["completion", "bash"])
        #expect(bash.output.contains("redo"))
    }
}
