import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// The fixture menu with server values from a sync: a source, a status, and a last change that touched three
/// keys (one overridden, one new).
enum SyncedMenuFixture {
    static let source = "https://config.example.com/values.json"
    static let syncedAt = Date(timeIntervalSince1970: 1_764_428_700)  // 2025-11-29 15:05 UTC
    static let previous: [String: String?] = [
        "function.media.upload_mode": "wifi", "function.media.quality": "80", "ab.payments.checkout": nil,
    ]

    static func status(_ state: ServerSyncState) -> ServerSyncStatus {
        ServerSyncStatus(
            source: source, state: state, lastSync: syncedAt, validators: ServerValuesValidators(etag: "\"v7\""),
            lastChange: ServerValuesChange(at: syncedAt, previousValues: previous), keyCount: 5)
    }

    /// The menu at clock 112 with the last good sync at clock 100: "12 s ago".
    static func state(
        _ syncState: ServerSyncState = .fresh(at: syncedAt), followsSnapshot: Bool = false, width: Int = 100,
        height: Int = 30
    ) throws -> MenuState {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try MenuFixture.service(in: folder)
        var data = MenuData(
            table: KeyTable(catalog: MenuFixture.catalog), service: service, label: "fixture", syncChanges: previous)
        data.storeLocation = "/home/qa/.local/state/fixture/overrides.json"
        data.server = ServerSyncDisplay(
            status: status(syncState), lastSyncClock: 100, followsSnapshot: followsSnapshot)
        var state = MenuState(data: data, width: width, height: height)
        state.clock = 112
        return state
    }
}

@Suite("The server line, sync marks, the sync filter and sync now")
struct ServerLineTests {
    typealias S = SyncedMenuFixture
    let renderer = MenuRenderer(colors: true)

    @Test("golden: the server line, ↻ on the keys the last sync changed, the previous value in the details")
    func goldenScreen() throws {
        var state = try S.state()
        MenuFixture.select("function.media.upload_mode", in: &state)
        let grid = renderer.render(state)
        try expectScreen(grid, "server-fresh")
        #expect(grid.line(1).contains("server: https://config.example.com/values.json · fresh 12 s ago"))
        #expect(grid.text.contains("↻ was \"wifi\" before the last sync"))
    }

    @Test(
        "golden: an OFREP server's variant and reason beside the server value; a flag whose evaluation failed, rejected"
    )
    func goldenEvaluations() throws {
        var state = try S.state()
        state.data.server?.status.source = "ofrep://127.0.0.1:8016?targetingKey=qa-1&country=JP"
        state.data.server?.status.evaluations = [
            "function.media.upload_mode": ServerValueEvaluation(variant: "always", reason: "TARGETING_MATCH"),
            "function.media.quality": ServerValueEvaluation(variant: "high", reason: "STATIC"),
        ]
        MenuFixture.select("function.media.upload_mode", in: &state)
        let grid = renderer.render(state)
        try expectScreen(grid, "server-ofrep")
        #expect(grid.text.contains(#"Server    "always" · variant always · TARGETING_MATCH"#))

        // A key the server sent no value for because its evaluation failed: the reason, as a rejection.
        let name = "function.chat.greeting"
        #expect(MenuFixture.serverValues[name] == nil)
        state.data.server?.status.evaluations[name] = ServerValueEvaluation(
            reason: "ERROR", errorCode: "FLAG_NOT_FOUND", errorDetails: "Flag was not found")
        MenuFixture.select(name, in: &state)
        #expect(renderer.render(state).text.contains("Server    none  ✗ rejected: FLAG_NOT_FOUND: Flag was not found"))
    }

    @Test("each state in words: fresh with its age, cached since, stale with the reason, error, waiting")
    func stateWords() throws {
        let cases: [(ServerSyncState, String)] = [
            (.fresh(at: S.syncedAt), "fresh 12 s ago"),
            (.cached(since: S.syncedAt), "cached since 2025-11-29 15:05 UTC"),
            (.stale(since: S.syncedAt, reason: "connection refused"), "stale: connection refused · last good 12 s ago"),
            (.error(reason: "HTTP 500 (internal server error)"), "error: HTTP 500 (internal server error)"),
            (.waiting, "waiting for the first sync"),
        ]
        for (syncState, words) in cases {
            let state = try S.state(syncState)
            #expect(renderer.render(state).line(1).contains(words), "\(syncState)")
        }
        let problem = renderer.render(try S.state(.stale(since: S.syncedAt, reason: "connection refused")))
        let column = try #require(problem.line(1).range(of: "stale")).lowerBound
        let x = problem.line(1).distance(from: problem.line(1).startIndex, to: column)
        #expect(problem[x, 1].style == MenuTheme(colors: true).serverLineProblem)
    }

    @Test("a last sync ahead of the clock is in the future, never 0 s ago")
    func futureSync() throws {
        var state = try S.state()
        state.data.server?.lastSyncClock = 112 + 300
        let line = renderer.render(state).line(1)
        #expect(line.contains("fresh 5 min in the future"), "\(line)")
        state.data.server?.status.state = .stale(since: S.syncedAt, reason: "timed out")
        #expect(renderer.render(state).line(1).contains("last good 5 min in the future"))
        // The same moment read through the two clocks (a fraction of a second apart) is no future.
        state.data.server?.lastSyncClock = 112.4
        #expect(renderer.render(state).line(1).contains("0 s ago"))
    }

    @Test("a snapshot that cannot be used is said on the server line, as a problem")
    func snapshotProblem() throws {
        let path = "/home/qa/.local/state/fixture/server-snapshot.json"
        var state = try S.state(.waiting, followsSnapshot: true, width: 180)
        // What the follower shows for a snapshot it never could read: the file as the source, and why.
        state.data.server = ServerSyncDisplay(
            status: ServerSyncStatus(
                source: path, snapshotProblem: "\(path): writable by other users (mode 666); refused"),
            lastSyncClock: nil, followsSnapshot: true)
        let line = renderer.render(state).line(1)
        #expect(line.contains("server: \(path) · refused: writable by other users (mode 666); refused"), "\(line)")
        let x = line.distance(from: line.startIndex, to: try #require(line.range(of: "refused:")).lowerBound)
        #expect(renderer.render(state)[x, 1].style == MenuTheme(colors: true).serverLineProblem)
        // A snapshot that was good and then went bad: the last values stay, and the line says why.
        state.data.server = ServerSyncDisplay(
            status: {
                var status = S.status(.fresh(at: S.syncedAt))
                status.snapshotProblem = "\(path): not valid JSON: expected a value at line 1, column 1"
                return status
            }(), lastSyncClock: 100, followsSnapshot: true)
        // Another program's snapshot is never "fresh" (the menu cannot know the program applied it), and one that
        // does not name its writer says only what it records.
        #expect(
            renderer.render(state).line(1).contains(
                "values from a sync 12 s ago · snapshot: \(path): not valid JSON: expected a value at line 1, "
                    + "column 1"))
    }

    @Test("ticks age the status; the list keeps its rows under the extra line")
    func ticks() throws {
        var state = try S.state()
        reduce(&state, .tick(171))
        #expect(ServerLine.text(state.data.server!, clock: state.clock).contains("fresh 1 min ago"))
        #expect(state.layout.body.y == 2)
        #expect(state.visibleKeyRows == (try MenuFixture.state()).visibleKeyRows - 1)
    }

    @Test("the list marks ↻ exactly the keys the last sync changed; c shows only them; Esc clears")
    func marksAndFilter() throws {
        var state = try S.state()
        let marked = state.data.table.keys.indices.filter {
            KeyList.flags(
                state.data.statuses[$0], rejectedByProgram: false,
                syncChanged: state.data.syncChanges[state.data.table.keys[$0].descriptor.name] != nil, changed: false
            ).contains("↻")
        }
        #expect(Set(marked.map { state.data.table.keys[$0].descriptor.name }) == Set(S.previous.keys))
        reduce(&state, .toggleOnlySyncChanged)
        #expect(state.filters.onlySyncChanged)
        #expect(state.list.keyCount == 3)
        #expect(state.status?.text == "Showing only keys the last server sync changed (↻)")
        #expect(renderer.render(state).text.contains("Filters: changed by the last sync"))
        reduce(&state, .clearFilters)
        #expect(!state.filters.onlySyncChanged)
        #expect(state.list.keyCount == 8)
    }

    @Test("s asks the runtime to sync; its outcome shows in the footer")
    func syncNow() throws {
        var state = try S.state()
        #expect(reduce(&state, .syncNow) == [.syncServerValues])
        #expect(state.status?.text == "Syncing with https://config.example.com/values.json…")
        reduce(&state, .syncFinished(.updated(previousValues: ["a": "1", "b": nil])))
        #expect(state.status == StatusMessage(text: "Synced: 2 keys changed (↻; c shows only them)", isError: false))
        reduce(&state, .syncFinished(.notModified))
        #expect(state.status?.text == "Synced: not modified since the last sync")
        reduce(&state, .syncFinished(.failed(ServerSyncError(kind: .unreachable, reason: "connection refused"))))
        #expect(
            state.status
                == StatusMessage(
                    text: "error: sync failed: connection refused; the last good values stay", isError: true))

        var plain = try MenuFixture.state()
        #expect(reduce(&plain, .syncNow).isEmpty)
        #expect(plain.status?.text.hasPrefix("No server values source") == true)
    }

    @Test("the key map: s and c, offered in the footer only when they do something")
    func keymap() throws {
        #expect(Keymap.keys.action(for: .character("s")) == .syncNow)
        #expect(Keymap.keys.action(for: .character("c")) == .toggleOnlySyncChanged)
        #expect(Keymap.modules.action(for: .character("s")) == .syncNow)
        let synced = renderer.render(try S.state()).line(29)
        #expect(synced.contains("s sync"))
        let plain = renderer.render(try MenuFixture.state()).line(29)
        #expect(!plain.contains("s sync"))
        #expect(!plain.contains("c sync changes"))
    }

    @Test("a refreshed status replaces the line; the line appears when a source becomes known")
    func refreshed() throws {
        var state = try MenuFixture.state(width: 170)
        #expect(!state.layout.showsServerLine)
        reduce(&state, .bottom)
        let update = MenuDataUpdate(
            statuses: [:], orphans: state.data.orphans, storeProblem: nil, time: 50,
            server: ServerSyncDisplay(
                status: S.status(.stale(since: S.syncedAt, reason: "timed out")), lastSyncClock: 20,
                followsSnapshot: true))
        reduce(&state, .refreshed(update))
        #expect(state.layout.showsServerLine)
        #expect(state.clock == 50)
        #expect(
            state.list.selection >= state.list.scroll && state.list.selection < state.list.scroll + state.visibleKeyRows
        )
        let line = renderer.render(state).line(1)
        #expect(line.contains("last sync failed: timed out · values from 30 s ago"), "\(line)")
        #expect(line.contains("from a snapshot that does not name its program"))
    }

    @Test(
        "a followed snapshot says whose sync it is and whether that program runs; never fresh; grey when it ended",
        arguments: [
            (
                ServerSyncState.fresh(at: SyncedMenuFixture.syncedAt),
                ServerSyncDisplay.Writer(name: "config-demo", pid: 9904, liveness: .running),
                "values from config-demo's sync 12 s ago; config-demo runs", "normal"
            ),
            (
                .fresh(at: SyncedMenuFixture.syncedAt),
                ServerSyncDisplay.Writer(name: "config-demo", pid: 9904, liveness: .ended),
                "values from config-demo's sync 12 s ago; config-demo ended", "muted"
            ),
            (
                .stale(since: SyncedMenuFixture.syncedAt, reason: "connection refused"),
                ServerSyncDisplay.Writer(name: "config-demo", pid: 9904, liveness: .running),
                "config-demo's last sync failed: connection refused · values from 12 s ago", "problem"
            ),
            (
                .stale(since: SyncedMenuFixture.syncedAt, reason: "connection refused"),
                ServerSyncDisplay.Writer(name: "config-demo", pid: 9904, liveness: .ended),
                "values from config-demo's last good sync 12 s ago (then: connection refused); config-demo ended",
                "muted"
            ),
            (
                .fresh(at: SyncedMenuFixture.syncedAt),
                ServerSyncDisplay.Writer(
                    name: "config-menu", pid: 4242, liveness: .thisMenu,
                    program: .init(name: "config-demo", isRunning: true)),
                "values from this menu's sync 12 s ago; config-demo applies them at its own next sync", "normal"
            ),
            (
                .fresh(at: SyncedMenuFixture.syncedAt),
                ServerSyncDisplay.Writer(
                    name: "config-menu", pid: 4242, liveness: .thisMenu,
                    program: .init(name: "config-demo", isRunning: false)),
                "values from this menu's sync 12 s ago; config-demo ended", "muted"
            ),
            (
                .error(reason: "HTTP 500 (internal server error)"),
                ServerSyncDisplay.Writer(name: "config-demo", pid: 9904, liveness: .running),
                "config-demo's sync failed: HTTP 500 (internal server error); no values yet", "problem"
            ),
        ])
    func followedWriter(
        state syncState: ServerSyncState, writer: ServerSyncDisplay.Writer, words: String, style: String
    )
        throws
    {
        var state = try S.state(syncState, followsSnapshot: true, width: 200)
        state.data.server?.writer = writer
        let grid = renderer.render(state)
        let line = grid.line(1)
        #expect(line.contains("server: \(S.source) · \(words)"), "\(line)")
        #expect(!line.contains("fresh") && !line.contains("snapshot"), "\(line)")
        let column = try #require(line.range(of: words)).lowerBound
        let x = line.distance(from: line.startIndex, to: column)
        let theme = MenuTheme(colors: true)
        let expected = ["normal": theme.serverLine, "muted": theme.serverLineMuted, "problem": theme.serverLineProblem]
        #expect(grid[x, 1].style == expected[style], "\(words)")
        // At 80 columns the source gives way, so whose values these are and whether anybody syncs them still show.
        var narrow = try S.state(syncState, followsSnapshot: true, width: 80)
        narrow.data.server?.writer = writer
        let short = renderer.render(narrow).line(1)
        if words.count <= 66 { #expect(short.contains(words), "\(short)") }
    }
}

@Suite("Refreshes that change nothing visible")
struct InvisibleRefreshTests {
    @Test("a store reload that finds the menu's own save again is no change elsewhere; a changed note is one")
    func ownSaveReadBack() throws {
        var state = try MenuFixture.state()
        let key = MenuFixture.key("function.media.hdr.enabled", in: state)
        let reread = state.data.statuses[key]
        reduce(
            &state,
            .writeSucceeded(OverrideWrite(changes: [], summary: "x = Y")))
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: reread], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.hdr.enabled"], time: 1)))
        #expect(state.status?.text == "Saved: x = Y")
        #expect(state.changedElsewhere.isEmpty)

        var changed = reread
        changed.override = OverrideEntry(value: "N")
        changed.value = "N"
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [key: changed], orphans: state.data.orphans, storeProblem: nil,
                    changedElsewhere: ["function.media.hdr.enabled"], time: 2)))
        #expect(state.status?.text == "Changed elsewhere: function.media.hdr.enabled = N")
        #expect(state.changedElsewhere["function.media.hdr.enabled"] == 2)
    }
}
