import Foundation
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu at TIME`: the overrides replayed from the history, the server values from the history a sync keeps,
/// expiry judged at the time, what cannot be known, and export then import.
@Suite("config-menu at TIME (overrides and server values as they were)", .serialized)
struct AtCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-at-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }
    var serverHistory: URL { folder.appendingPathComponent("server-snapshot.json.history") }
    let like = "function.album.like.enabled"
    let typing = "function.chat.typing_interval_ms"

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
    }

    func run(_ arguments: String..., store: URL? = nil, environment: ChildProcess.Environment = .current) throws
        -> ToolRun
    {
        try configMenu(arguments + ["--store", (store ?? self.store).path], environment: environment)
    }

    func object(_ run: ToolRun) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
            "\(run.output)\(run.error)")
    }

    /// `get KEY --json` at `time`: the whole answer and its key.
    func key(_ name: String, at time: String) throws -> (answer: [String: Any], key: [String: Any]) {
        let answer = try object(try run("at", time, "get", name, "--json"))
        return (answer, try #require(answer["key"] as? [String: Any]))
    }

    /// ISO 8601 with milliseconds, as the tool writes times (a new formatter each time: it is not `Sendable`).
    static var formatter: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    func date(_ text: Any?) throws -> Date { try #require((text as? String).flatMap(Self.formatter.date(from:))) }
    func text(_ date: Date) -> String { Self.formatter.string(from: date) }
    func between(_ a: Date, _ b: Date) -> String { text(a.addingTimeInterval(b.timeIntervalSince(a) / 2)) }

    /// The times of the recorded changes, oldest first.
    func changeTimes() throws -> [Date] {
        let history = try object(try run("history", "--json"))
        return try (try #require(history["records"] as? [[String: Any]])).reversed().map { try date($0["time"]) }
    }

    @Test("overrides before, between and after changes are replayed from the history; before it they are unknown")
    func overridesReplayed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", like, "N").status == 0)
        #expect(try run("set", typing, "999").status == 0)
        #expect(try run("set", like, "Y").status == 0)
        #expect(try run("reset", typing).status == 0)
        let times = try changeTimes()
        try #require(times.count == 4)

        let first = try key(like, at: between(times[0], times[1]))
        #expect(first.key["value"] as? String == "N" && first.key["source"] as? String == "overridden")
        #expect(first.answer["overridesKnown"] as? Bool == true)
        #expect(first.answer["undoneChanges"] as? Int == 3)
        #expect(first.answer["journalStartsAt"] as? String == text(times[0]))
        #expect(try key(typing, at: between(times[0], times[1])).key["source"] as? String != "overridden")

        let list = try object(try run("at", between(times[1], times[2]), "list", "Album", "--json"))
        let rows = try #require(list["keys"] as? [[String: Any]])
        #expect(rows.first { $0["name"] as? String == like }?["value"] as? String == "N")
        #expect(try key(typing, at: between(times[1], times[2])).key["value"] as? String == "999")
        #expect(try key(like, at: between(times[2], times[3])).key["value"] as? String == "Y")
        #expect(try key(typing, at: between(times[2], times[3])).key["value"] as? String == "999")
        let now = try key(typing, at: text(Date()))
        #expect(now.key["source"] as? String != "overridden" && now.answer["undoneChanges"] as? Int == 0)

        // Before the oldest change kept: unknown, said plainly, and no value shown as an override's.
        let before = text(times[0].addingTimeInterval(-1))
        let unknown = try key(like, at: before)
        #expect(unknown.answer["overridesKnown"] as? Bool == false)
        #expect(unknown.answer["journalStartsAt"] as? String == text(times[0]))
        #expect(unknown.answer["undoneChanges"] is NSNull)
        #expect(unknown.key["value"] is NSNull && unknown.key["source"] as? String == "unknown")
        #expect(unknown.key["override"] is NSNull)
        #expect(unknown.answer["serverValuesKnown"] as? Bool == false)
        #expect(unknown.answer["serverValuesShown"] as? String == "current")
        let shown = try run("at", before, "get", like)
        #expect(shown.status == 0, "\(shown.error)")
        #expect(
            shown.output.hasPrefix(
                "at \(before)\noverrides: UNKNOWN at this time: the history kept starts at \(text(times[0])), after "
                    + "this time"), "\(shown.output)")
        #expect(shown.output.contains("\n  override  unknown at this time (see above)\n"), "\(shown.output)")
        #expect(
            shown.output.contains(
                "\nserver values: UNKNOWN at this time: no history of server values (\(serverHistory.path) does not "
                    + "exist: no sync recorded one); shown: the catalog's built-in server values (no snapshot)\n"),
            "\(shown.output)")
        let refused = try run("at", before, "export", folder.appendingPathComponent("then.json").path)
        #expect(refused.status == 1)
        #expect(refused.error.contains("the overrides then are unknown (the history kept starts at"))
        #expect(refused.error.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("then.json").path))
    }

    @Test("an override whose expiry time had passed at TIME did not apply then, and is not exported")
    func expiryAtTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run("set", like, "N", "--for", "1s").status == 0)
        let set = try #require(try changeTimes().first)
        while Date() < set.addingTimeInterval(1.3) { usleep(50_000) }
        let applied = try key(like, at: text(set.addingTimeInterval(0.5)))
        #expect(applied.key["value"] as? String == "N" && applied.key["source"] as? String == "overridden")
        #expect(applied.key["expired"] as? Bool == false)
        let expired = try key(like, at: text(set.addingTimeInterval(1.2)))
        #expect(expired.key["source"] as? String != "overridden")
        #expect(expired.key["expired"] as? Bool == true && expired.key["expiredBecause"] as? String == "time")

        let file = folder.appendingPathComponent("expired.json")
        #expect(try run("at", text(set.addingTimeInterval(1.2)), "export", file.path).status == 0)
        let profile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect((profile["overrides"] as? [String: Any])?.isEmpty == true, "\(profile)")
        let live = folder.appendingPathComponent("live.json")
        let export = try run("at", text(set.addingTimeInterval(0.5)), "export", live.path)
        #expect(export.status == 0)
        #expect(export.error.contains("wrote 1 override in effect at \(text(set.addingTimeInterval(0.5)))"))
        let entry = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: live)) as? [String: Any])?["overrides"]
                as? [String: [String: Any]])[like]
        #expect(entry?["value"] as? String == "N")
        #expect(entry?["expiresAt"] == nil, "exported without its expiry, so it applies when imported: \(entry ?? [:])")
    }

    @Test("server values come from the history syncs keep; an override set until the server changes expires with it")
    func serverHistoryAndExport() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FixtureHTTPServer(values: [typing: "3100", like: "Y"])
        let url = server.url().absoluteString
        #expect(try run("set", "function.album.max_photos", "10").status == 0, "a change before the first sync")
        #expect(try run("sync", "--server-url", url).status == 0)
        #expect(try run("set", typing, "999", "--until-server-changes").status == 0)
        try server.setValues([typing: "3200", like: "Y"])
        #expect(try run("sync").status == 0)
        #expect(try run("sync").status == 0, "the same values again: no new entry")
        let history = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: serverHistory)) as? [String: Any])
        let snapshots = try #require(history["snapshots"] as? [[String: Any]])
        try #require(snapshots.count == 2, "\(snapshots)")
        let synced = try snapshots.map { try date($0["at"]) }
        let set = try #require(try changeTimes().last)
        #expect(synced[0] < set && set < synced[1])

        let first = try key(typing, at: between(synced[0], set))
        #expect(first.key["value"] as? String == "3100" && first.key["source"] as? String == "server")
        #expect(first.answer["serverValuesKnown"] as? Bool == true)
        #expect(first.answer["serverValuesShown"] as? String == "history")
        #expect(first.answer["serverValuesSyncedAt"] as? String == text(synced[0]))
        #expect(first.answer["serverValuesSource"] as? String == url)
        #expect(first.answer["serverHistoryStartsAt"] as? String == text(synced[0]))
        let overridden = try key(typing, at: between(set, synced[1]))
        #expect(overridden.key["value"] as? String == "999" && overridden.key["server"] as? String == "3100")
        let after = try key(typing, at: text(Date()))
        #expect(after.key["value"] as? String == "3200" && after.key["source"] as? String == "server")
        #expect(after.key["expired"] as? Bool == true && after.key["expiredBecause"] as? String == "serverChanged")
        let shown = try run("at", between(set, synced[1]), "get", typing)
        #expect(
            shown.output.contains("\nserver values: as synced at \(text(synced[0])) from \(url)\n"),
            "\(shown.output)")
        let early = try run("at", text(synced[0].addingTimeInterval(-1)), "get", typing)
        #expect(
            early.output.contains(
                "server values: UNKNOWN at this time: no history before \(text(synced[0])) (2 kept); shown: the "
                    + "current snapshot (\(folder.path)/server-snapshot.json)"), "\(early.output)")

        // Export then import into another store reproduces the state, the server values pinned.
        let profile = folder.appendingPathComponent("bug.json")
        let export = try run("at", between(set, synced[1]), "export", profile.path, "--with-server-values")
        #expect(export.status == 0, "\(export.error)")
        #expect(export.error.contains("wrote 2 overrides in effect at"), "\(export.error)")
        #expect(export.error.contains("and 1 server value pinned"), "\(export.error)")
        let other = folder.appendingPathComponent("other/overrides.json")
        try FileManager.default.createDirectory(
            at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        chmod(other.deletingLastPathComponent().path, 0o700)
        #expect(try run("import", profile.path, "--replace", "--yes", store: other).status == 0)
        let reproduced = try object(try run("get", typing, "--json", store: other))
        #expect(reproduced["value"] as? String == "999" && reproduced["source"] as? String == "overridden")
        let pinned = try object(try run("get", like, "--json", store: other))
        #expect(pinned["value"] as? String == "Y" && pinned["source"] as? String == "overridden")
        let plain = folder.appendingPathComponent("plain.json")
        #expect(try run("at", between(set, synced[1]), "export", plain.path).status == 0)
        let overrides = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: plain)) as? [String: Any])?["overrides"]
                as? [String: Any])
        #expect(
            overrides.keys.sorted() == ["function.album.max_photos", typing],
            "without --with-server-values only the overrides")

        // A history others can write is refused, naming it; one that is not the format is moved aside by a sync.
        chmod(serverHistory.path, 0o666)
        let refused = try run("at", text(Date()), "get", typing, "--json")
        #expect(refused.status == 0)
        #expect(refused.error.contains("warning: server history refused: \(serverHistory.path): "), "\(refused.error)")
        #expect(try object(refused)["serverValuesKnown"] as? Bool == false)
        chmod(serverHistory.path, 0o600)
        try Data("not json".utf8).write(to: serverHistory)
        try server.setValues([typing: "3300", like: "Y"])
        #expect(try run("sync").status == 0)
        let moved = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("server-snapshot.json.history.corrupt-") }
        #expect(moved.count == 1, "\(moved)")
        #expect(try key(typing, at: text(Date())).answer["serverValuesKnown"] as? Bool == true)
    }

    @Test(
        "on an etcd store the overrides at TIME come from its history the same way",
        .enabled(
            if: EtcdTestServer.unavailableReason == nil, "etcd is not installed (scripts/setup-debian installs it)"))
    func etcdStore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let etcd = try EtcdTestServer.shared.get()
        let location = etcd.url(prefix: "/cli-at/\(UUID().uuidString.prefix(8))").absoluteString
        let environment = ChildProcess.Environment.changing([
            "XDG_STATE_HOME": folder.path, "CONFIG_OVERRIDES_STORE": nil, "CONFIG_OVERRIDES_FILE": nil,
        ])
        func tool(_ arguments: String...) throws -> ToolRun {
            try configMenu(arguments + ["--store", location], environment: environment)
        }
        for value in ["7", "9"] { #expect(try tool("set", "function.album.max_photos", value).status == 0) }
        #expect(try tool("reset", "function.album.max_photos").status == 0)
        let history = try #require(
            try JSONSerialization.jsonObject(with: Data(try tool("history", "--json").output.utf8)) as? [String: Any])
        let times = try (try #require(history["records"] as? [[String: Any]])).reversed().map { try date($0["time"]) }
        try #require(times.count == 3)
        for (index, expected) in ["7", "9"].enumerated() {
            let answer = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(
                        try tool(
                            "at", between(times[index], times[index + 1]), "get", "function.album.max_photos", "--json"
                        )
                        .output.utf8)) as? [String: Any])
            let key = try #require(answer["key"] as? [String: Any])
            #expect(key["value"] as? String == expected && key["source"] as? String == "overridden", "\(answer)")
            #expect(answer["undoneChanges"] as? Int == 2 - index)
        }
        let before = try tool("at", text(times[0].addingTimeInterval(-1)), "get", "function.album.max_photos")
        #expect(
            before.output.contains("overrides: UNKNOWN at this time: the history kept starts at"), "\(before.output)")
    }

    @Test("TIME: ISO 8601 with a zone, a local time in $TZ, a duration ago; the future and anything else exit 2")
    func times() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for (argument, message) in [
            ("tomorrow", "at: TIME \"tomorrow\" is not a time"),
            ("2999-01-01T00:00:00Z", "at: TIME \"2999-01-01T00:00:00Z\" (2999-01-01T00:00:00.000Z) is in the future"),
            ("-5x", "at: TIME \"-5x\" is not a duration ago"),
            ("2026-02-30 10:00", "at: TIME \"2026-02-30 10:00\" is not a time"),
        ] {
            let refused = try run("at", argument, "list")
            #expect(refused.status == 2, "\(argument)")
            #expect(refused.error.contains(message), "\(refused.error)")
            #expect(refused.output.isEmpty)
        }
        for arguments in [["-1h", "frobnicate"], ["-1h", "get"], ["-1h", "export"], ["-1h", "list", "a", "b"]] {
            #expect(try configMenu(["at"] + arguments + ["--store", store.path]).status == 2, "\(arguments)")
        }
        #expect(try run("at", "-1h", "list", "--with-server-values").status == 2)
        #expect(try run("at", "-1h", "export", "x.json", "--json").status == 2)

        let tokyo = DateFormatter()
        tokyo.locale = Locale(identifier: "en_US_POSIX")
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")
        tokyo.dateFormat = "yyyy-MM-dd HH:mm"
        let minuteAgo = Date().addingTimeInterval(-60)
        let local = tokyo.string(from: minuteAgo)
        let expected = try #require(tokyo.date(from: local))
        let read = try run("at", local, "get", like, environment: .changing(["TZ": "Asia/Tokyo"]))
        #expect(read.status == 0, "\(read.error)")
        #expect(read.output.hasPrefix("at \(text(expected))\n"), "\(read.output)")
        let offset = try run("at", "2026-01-02T03:04:05+09:00", "get", like)
        #expect(offset.output.hasPrefix("at 2026-01-01T18:04:05.000Z\n"), "\(offset.output)")
        let ago = try object(try run("at", "-2h", "get", like, "--json"))
        let agoTime = try date(ago["time"])
        #expect(abs(agoTime.timeIntervalSinceNow + 7200) < 60)
        #expect(try configMenu(["at", "--help"]).output.contains("usage: config-menu at TIME get KEY [--json]"))
    }
}
