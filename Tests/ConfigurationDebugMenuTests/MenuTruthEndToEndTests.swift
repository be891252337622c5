import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the menu says is true, in the real binary in tmux: hints name the key that does what they say, the history
/// undoes the change it shows, a change etcd has not answered is neither saved nor lost, the screen never freezes
/// for the store, and every message can be read whole.
@Suite(
    "config-menu tells the truth, end to end, in tmux", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct MenuTruthEndToEndTests {
    /// Starts the menu on the demo catalog with `store`.
    func start(_ session: TmuxSession, store: String) async throws {
        try session.run("\(TmuxSession.binary) --store \(store)")
        try await session.waitFor("Keys · ")
    }

    /// Filters the list by `text` and keeps the filter.
    func find(_ session: TmuxSession, _ text: String) async throws {
        try session.press("/")
        try session.type(text)
        try session.press("Enter")
        try await session.waitFor("Filters: text \"\(text)\"")
    }

    /// The store file as another process reads it.
    func reader(_ url: URL) -> FileOverrideStore {
        let store = FileOverrideStore(url: url)
        store.reload()
        return store
    }

    /// The value of `key`'s override under `prefix` in etcd, as etcdctl reads it (`nil`: none).
    func etcdValue(_ key: String, prefix: String, in etcd: EtcdTestServer) throws -> String? {
        let result = try etcd.etcdctl(["get", "\(prefix)/\(key)", "--print-value-only"])
        let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let entry = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return entry?["value"] as? String
    }

    /// The row of `title` on screen.
    func row(_ session: TmuxSession, _ title: String) throws -> String {
        try session.screen().split(separator: "\n").first { $0.contains(title) }.map(String.init) ?? ""
    }

    /// Waits until the menu has said `text`: on its status line, or in the message log (`L`), where it stays when a
    /// later message (the store's watch noticing the same outage, on a loaded machine) took the status line first.
    func waitForMessage(_ text: String, on session: TmuxSession, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try session.screen().contains(text) { return }
            try session.press("L")
            try await session.waitFor("Messages · ", timeout: 5)
            let log = try session.screen()
            try session.press("Escape")
            try await session.waitFor("Keys · ", timeout: 5)
            if log.contains(text) { return }
            try await Task.sleep(for: .seconds(1))
        }
        Issue.record("the menu never said \"\(text)\"; the screen was:\n\(try session.screen())")
    }

    /// Polls for `seconds`, failing if the screen ever says `text`.
    func expectNever(_ text: String, on session: TmuxSession, for seconds: Double) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let screen = try session.screen()
            if screen.contains(text) {
                Issue.record("the screen said \"\(text)\":\n\(screen)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(
        "etcd stopped: + shows saving… at once, keys work, the outcome is unknown; after SIGCONT screen and store agree",
        .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed"), .timeLimit(.minutes(3)))
    func hungEtcd() async throws {
        let etcd = try EtcdTestServer.start()
        let prefix = "/menu/hung"
        let key = "function.media.upload_concurrency"
        let session = try TmuxSession(width: 120, height: 36)
        try await start(session, store: etcd.url(prefix: prefix).absoluteString)
        try await find(session, "upload concurrency")
        try await session.waitFor("4    SERVER")
        let pid = etcd.processID
        #expect(pid > 0 && kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        try session.press("+")
        try await session.waitFor("saving…", timeout: 3)
        #expect(try row(session, "Upload Concurrency").contains("5 "), "the value asked for, marked as not saved")
        // The menu answers keys while etcd hangs: the help opens and closes at once.
        try session.press("?")
        try await session.waitFor("Help · Key list", timeout: 3)
        try session.press("Escape")
        try await session.waitFor("Keys · 1 of 55", timeout: 3)
        #expect(
            try await session.waitUntil(timeout: 3) { (try? session.screen())?.contains("Help · Key list") == false })
        // A second step waits for the first, from the value asked for.
        try session.press("+")
        #expect(
            try await session.waitUntil(timeout: 3) {
                (try? row(session, "Upload Concurrency"))?.contains("6    saving…") == true
            }, "\((try? session.screen()) ?? "")")
        try await waitForMessage("may still arrive", on: session, timeout: 60)
        #expect(try !session.screen().contains("nothing was saved"))
        // The second change is pending: sent and waiting (`saving…`), or, on a loaded machine, already past its own
        // timeout (`no answer`); either way the row shows the value asked for, marked as not saved.
        let pending = try row(session, "Upload Concurrency")
        let screen = try session.screen()
        #expect(pending.contains("6    saving…") || pending.contains("6    no answer"), "\(pending)\n\(screen)")
        // Quitting now would leave the changes unsaved: the menu asks.
        try session.press("q")
        try await session.waitFor("not saved yet")
        try session.press("n")

        #expect(kill(pid, SIGCONT) == 0)
        try await session.waitFor("Saved: \(key) = 6", timeout: 60)
        try await expectNever("Changed elsewhere", on: session, for: 3)
        let line = try row(session, "Upload Concurrency")
        #expect(line.contains("6 ") && line.contains("OVERRIDDEN") && !line.contains("saving"), "\(line)")
        #expect(try etcdValue(key, prefix: prefix, in: etcd) == "6", "the screen and the store agree")
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test(
        "a change etcd made without answering settles as saved; one it never received as not saved; both agree",
        .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed"), .timeLimit(.minutes(3)))
    func unansweredChanges() async throws {
        let etcd = try EtcdTestServer.shared.get()
        let proxy = try EtcdTestProxy(etcd)
        let prefix = "/menu/unanswered-\(UUID().uuidString.prefix(8))"
        let key = "function.media.upload_concurrency"
        let session = try TmuxSession(width: 120, height: 36)
        try await start(session, store: proxy.url(prefix: prefix).absoluteString)
        try await find(session, "upload concurrency")
        try await session.waitFor("4    SERVER")

        // Made by etcd, its answer withheld (reads pass: the menu reads etcd again as soon as the change times out).
        try proxy.setMode(.hold)
        try session.press("+")
        try await session.waitFor("saving…", timeout: 3)
        try await session.waitFor("Saved: \(key) = 5 (etcd answered late)", timeout: 60)
        // Where the test got to, in the log: a CI run failed this test twice with an issue it did not print.
        print("unansweredChanges: the held change settled as saved; withheld so far: \(proxy.withheld)")
        try proxy.setMode(.pass)
        try await expectNever("Changed elsewhere", on: session, for: 2)
        #expect(try row(session, "Upload Concurrency").contains("5    OVERRIDDEN"))
        #expect(try etcdValue(key, prefix: prefix, in: etcd) == "5")

        // Never received.
        try proxy.setMode(.drop)
        try session.press("+")
        try await session.waitFor("saving…", timeout: 3)
        try await session.waitFor(
            "not saved: etcd answered again without your change: \(key) is \"5\", not \"6\"", timeout: 60)
        try await expectNever("Changed elsewhere", on: session, for: 2)
        #expect(try row(session, "Upload Concurrency").contains("5    OVERRIDDEN"))
        #expect(try etcdValue(key, prefix: prefix, in: etcd) == "5")
        print("unansweredChanges: the dropped change settled as not saved; withheld: \(proxy.withheld)")
        #expect(proxy.withheld == ["hold /v3/kv/txn", "drop /v3/kv/txn"])
        // The log holds what the footer said in between: that the outcome was unknown, then how it ended.
        try proxy.setMode(.pass)
        try session.press("L")
        try await session.waitFor("Messages · ")
        let log = try session.screen()
        #expect(log.contains("error: etcd did not answer: \(key) = 5 may still arrive"), "\(log)")
        #expect(log.contains("error: etcd did not answer: \(key) = 6 may still arrive"), "\(log)")
        #expect(!log.contains("nothing was saved"))
        print("unansweredChanges: the message log checked:\n\(log)")
        try session.press("Escape")
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test(
        "a store error and a failed save too long for their line say L shows them; L: newest first, whole, timed",
        .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed"), .timeLimit(.minutes(3)))
    func messageLog() async throws {
        let etcd = try EtcdTestServer.start()
        let session = try TmuxSession(width: 100, height: 30)
        let store = etcd.url(prefix: "/qa/overrides").absoluteString
        try await start(session, store: store)
        try await find(session, "upload concurrency")
        etcd.kill()
        try session.press("+")
        try await session.waitFor("error: not saved: ")
        try await session.waitFor("… L shows all")
        // The title bar has no room for the whole error either: it says where to read it.
        try await session.waitFor("store error: etcd://127.0.0.1:")
        try await session.waitFor("…(L)")
        try session.press("L")
        try await session.waitFor("Messages · ")
        let screen = try session.screen()
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        let text = lines.joined(separator: " ")
        let whole = "\(store): cannot save to etcd: connection refused; nothing was saved"
        #expect(text.contains("error: not saved: " + whole), "whole, wrapped: \(screen)")
        #expect(text.contains("error: store error: " + whole), "the title bar's error, whole: \(screen)")
        let times = lines.compactMap { $0.firstMatch(of: #/^(\d\d:\d\d:\d\d)  /#)?.output.1 }.map(String.init)
        #expect(times.count >= 2 && times == times.sorted(by: >), "timed, newest first: \(screen)")
        try session.press("Escape")
        try await session.waitFor("Keys · 1 of 55")
        try session.press("q")
        try await session.waitForMenuExit()
    }

    @Test(
        "config-demo says when its store and its server stop answering, and when they work again",
        .enabled(if: EtcdTestServer.unavailableReason == nil, "etcd is not installed"), .timeLimit(.minutes(3)))
    func demoSaysWhenUnreachable() async throws {
        let etcd = try EtcdTestServer.start()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("demo-health-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        try etcd.etcdctl(["put", "/health/values/function.chat.typing_interval_ms", "3500"])
        let store = etcd.url(prefix: "/health/overrides").absoluteString
        let demo = try DemoProcess(
            arguments: ["--store", store, "--server-url", etcd.url(prefix: "/health/values").absoluteString],
            environment: ["XDG_STATE_HOME": state.path, "CONFIG_OVERRIDES_STORE": nil])
        func wait(for text: String) async throws {
            if try await demo.wait(for: text, within: 90) { return }
            Issue.record("no \"\(text)\" in:\n\(demo.printed)")
        }
        try await wait(for: "typing indicator refresh: every 3500 ms")
        etcd.kill()
        // Either the watch's failure or the read after it (the watcher reads the prefix again when its watch fails)
        // comes first; both name the store.
        try await wait(for: "store problem: ")
        #expect(
            demo.printed.contains("store problem: live reload degraded: the watch of \(store) failed")
                || demo.printed.contains("store problem: \(store): cannot read the overrides from etcd"),
            "\(demo.printed)")
        try await wait(for: "server: stale: ")
        #expect(!demo.printed.contains("store: working again"))
        try etcd.restart()
        try await wait(for: "store: working again (\(store))")
        try await wait(for: "server: fresh (1 key)")
        let printed = demo.printed
        let problem = try #require(printed.range(of: "store problem:"))
        let recovered = try #require(printed.range(of: "store: working again"))
        #expect(problem.lowerBound < recovered.lowerBound)
        #expect(printed.components(separatedBy: "store problem:").count == 2, "one line when it starts: \(printed)")
    }

    @Test("H, then u undoes the selected change, after asking; a later change of its key is named, and undone with it")
    func historyUndoesSelected() async throws {
        let session = try TmuxSession(width: 120, height: 36)
        let store = session.home.appendingPathComponent("state/overrides.json")
        for (key, value) in [
            ("function.album.max_photos", "10"), ("function.album.like.enabled", "Y"),
            ("function.album.max_photos", "20"), ("function.album.sort_order", "oldest_first"),
        ] {
            let result = try configMenu(["set", key, value, "--store", store.path])
            #expect(result.status == 0, "\(result.error)")
        }
        try await start(session, store: store.path)
        try session.press("H")
        try await session.waitFor("History · 4 changes (newest first)")
        // The change of the like button, two below the newest: nothing later touched its key.
        try session.press("j", "j")
        try await session.waitFor("function.album.like.enabled: none → \"Y\"")
        try session.press("u")
        try await session.waitFor("set function.album.like.enabled = \"Y\"?")
        #expect(try !session.screen().contains("sort_order = \"oldest_first\"?"), "not the newest change")
        try session.press("n")
        try await session.waitFor("Nothing was undone")
        #expect(reader(store).entries.count == 3, "nothing changed before y")
        try session.press("u")
        try await session.waitFor("set function.album.like.enabled = \"Y\"?")
        try session.press("y")
        try await session.waitFor("Undone: set function.album.like.enabled")
        var now = reader(store).entries.mapValues(\.value)
        #expect(now == ["function.album.max_photos": "20", "function.album.sort_order": "oldest_first"])
        // The first change of the photo limit: the later one (20) is in the way, and named; y goes back to before.
        try await session.waitFor("History · 5 changes")
        try session.press("G")
        try await session.waitFor("function.album.max_photos: none → \"10\"")
        try session.press("u")
        try await session.waitFor("in the way")
        try await session.waitFor("set function.album.max_photos = \"20\" (was \"10\")")
        try session.press("y")
        try await session.waitFor("Undone: set function.album.max_photos = \"10\"")
        now = reader(store).entries.mapValues(\.value)
        #expect(now == ["function.album.sort_order": "oldest_first"], "the photo limit is back to no override")
        // The menu's own change is asked about too.
        try session.press("Escape")
        try await find(session, "sort order")
        try session.press("r")
        try await session.waitFor("Saved: function.album.sort_order override removed")
        try session.press("H", "g", "u")
        try await session.waitFor("Undo your change at")
        try session.press("y")
        try await session.waitFor("Undone: reset function.album.sort_order")
        #expect(reader(store).entry(forKey: "function.album.sort_order")?.value == "oldest_first")
        try session.press("q", "q")
        try await session.waitForMenuExit()
    }

    @Test("80×24: details cut short name the key that shows them all (d), a pager; nothing there changes the value")
    func detailsPager() async throws {
        let session = try TmuxSession(width: 80, height: 24)
        let store = session.home.appendingPathComponent("state/overrides.json")
        let key = "function.album.like.enabled"
        let note =
            "QA ticket 4411: " + String(repeating: "the like button on the album screen, checked again; ", count: 22)
            + "END-OF-NOTE"
        try FileOverrideStore(url: store).set("Y", forKey: key, note: note)
        try await start(session, store: store.path)
        try await find(session, "like enabled")
        try await session.waitFor("… d shows all")
        #expect(try !session.screen().contains("Enter shows all"), "Enter toggles this key: no hint may say otherwise")
        try session.press("d")
        try await session.waitFor("Details · \(key)")
        try await session.waitFor("j/PgDn: more")
        try session.press("G")
        try await session.waitFor("END-OF-NOTE")
        try session.press("g")
        try await session.waitFor("Override  \"Y\"")
        // Enter and Space are not the pager's: the value stays.
        try session.press("Enter", "Space")
        try session.press("Escape")
        try await session.waitFor("… d shows all")
        let after = reader(store)
        #expect(after.entry(forKey: key)?.value == "Y" && after.entry(forKey: key)?.note == note)
        #expect(after.history().records.count == 1, "nothing saved from the pager")
        #expect(try !session.screen().contains("Saved:"))
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
