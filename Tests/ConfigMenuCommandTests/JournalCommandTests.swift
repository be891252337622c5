import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu history` and `undo` when the journal's files were removed, linked or are too large to hold a change.
@Suite("config-menu history and undo with a damaged journal", .serialized)
struct JournalCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "config-menu-journal-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
    }

    func run(_ arguments: String...) throws -> ToolRun { try configMenu(arguments + ["--store", store.path]) }

    @Test("a hand edit, then the base removed: three undos undo the hand edit and the two changes, each once")
    func undoWithoutBase() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.album.like.enabled", "N").status == 0)
        #expect(try run("set", "function.chat.typing_interval_ms", "999").status == 0)
        // By hand: the interval removed, the flag turned on; then the journal's base deleted.
        var text = try String(contentsOf: store, encoding: .utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var overrides = try #require(document["overrides"] as? [String: Any])
        overrides.removeValue(forKey: "function.chat.typing_interval_ms")
        var flag = try #require(overrides["function.album.like.enabled"] as? [String: Any])
        flag["value"] = "Y"
        overrides["function.album.like.enabled"] = flag
        text = String(
            decoding: try JSONSerialization.data(withJSONObject: [
                "format": document["format"]!, "version": 1, "overrides": overrides,
            ]),
            as: UTF8.self)
        try Data(text.utf8).write(to: store)
        #expect(unlink(store.path + ".journaled") == 0)

        let history = try run("history")
        #expect(history.output.hasPrefix("not yet recorded: "), "\(history.output)")
        #expect(history.output.contains("function.chat.typing_interval_ms: \"999\" -> none"))
        var undone: [String] = []
        for _ in 0..<3 {
            let undo = try run("undo", "--yes")
            #expect(undo.status == 0, "\(undo.error)")
            undone += undo.output.split(separator: "\n").filter { $0.hasPrefix("undone: ") }.map(String.init)
        }
        #expect(
            undone == [
                "undone: outside 2 overrides: function.album.like.enabled, function.chat.typing_interval_ms",
                "undone: set function.chat.typing_interval_ms = \"999\"",
                "undone: set function.album.like.enabled = \"N\"",
            ])
        let after = try JSONSerialization.jsonObject(with: Data(contentsOf: store)) as? [String: Any]
        #expect((after?["overrides"] as? [String: Any])?.isEmpty == true, "every override is undone")
        let last = try run("undo", "--yes")
        #expect(last.status == 0)
        #expect(last.output.hasPrefix("nothing to undo: every recorded change is undone"))
    }

    @Test("history refuses a journal that is a symbolic link, as appends do: exit 4, the target not read")
    func linkedJournal() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", "function.album.like.enabled", "N").status == 0)
        let journal = store.path + ".journal"
        let planted = folder.appendingPathComponent("planted.journal")
        #expect(rename(journal, planted.path) == 0)
        #expect(symlink(planted.path, journal) == 0)
        let history = try run("history")
        #expect(history.status == 4, "\(history.output)\(history.error)")
        #expect(!history.output.contains("set function.album.like.enabled"), "nothing is read through the link")
        #expect(history.error.contains("\(journal) is a symbolic link"), "\(history.error)")
        let set = try run("set", "function.album.like.enabled", "Y")
        #expect(set.status == 0)
        #expect(set.error.contains("warning: history: cannot open the journal"))
    }

    @Test("history of changes too large to record says the values were left out, never none -> none")
    func tooLarge() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = String(repeating: "x", count: 300 << 10)
        func importProfile(_ name: String, _ json: String) throws {
            let profile = folder.appendingPathComponent(name)
            try Data(json.utf8).write(to: profile)
            let imported = try run("import", profile.path, "--force", "--yes")
            #expect(imported.status == 0, "\(imported.error)")
        }
        // Three keys of which two are huge: the record keeps the keys without their values.
        try importProfile(
            "many.json",
            "{\"function.chat.greeting\": \"\(big)\", \"function.chat.typing_interval_ms\": \"7\", "
                + "\"z.unknown\": \"\(big)\"}")
        // One key, changed from a huge value to another: even its old and new value do not fit.
        try importProfile("one.json", "{\"function.chat.greeting\": \"\(big)!\"}")
        let history = try run("history")
        #expect(history.status == 0, "\(history.error)")
        #expect(!history.output.contains("none -> none"), "\(history.output.prefix(2000))")
        #expect(!history.output.contains("(was none)"))
        #expect(history.output.contains("import one.json function.chat.greeting (values too large to record)"))
        #expect(history.output.contains("    function.chat.typing_interval_ms (values too large to record)"))
        #expect(history.output.contains("(too large to record the values: it cannot be undone)"))
    }
}
