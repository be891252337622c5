import DemoConfiguration
import Dispatch
import Foundation
import ServiceConfiguration
import ServiceConfigurationTesting
import SharedTestSupport
import Synchronization
import Testing

@testable import ConfigurationDebugMenu

/// Typing into the filter of a big catalog never waits for the ranking: the keystroke is drawn at once, the rows
/// when the ranking (on a thread of its own) is done, and a newer keystroke stops an older ranking.
@Suite("Ranking a big catalog off the input thread")
struct BackgroundRankingTests {
    /// A loop over `state`'s catalog whose ranker waits for `gate` before each ranking.
    static func loop(for state: MenuState, gate: DispatchSemaphore? = nil) -> MenuLoop {
        let service = MockConfigurationService(catalog: MenuFixture.catalog)
        return MenuLoop(
            source: MenuDataSource(table: state.data.table, service: service), terminal: ScriptedTerminal([]),
            label: "fixture", ranker: RankWorker(beforeRanking: { gate?.wait() }))
    }

    /// Makes `state` rank every query in the background; returns a loop whose ranker waits for `gate` (which starts
    /// closed) before each ranking.
    static func holdRankings(_ state: inout MenuState) -> (gate: DispatchSemaphore, loop: MenuLoop) {
        state.backgroundRankingFrom = 0
        let gate = DispatchSemaphore(value: 0)
        return (gate, loop(for: state, gate: gate))
    }

    /// Makes `state` rank every query in the background, types `/` and `character` into it, and hands the ranking
    /// they ask for to the loop's ranker, where it waits for `gate` (closed).
    static func holdRanking(
        after character: Character, in state: inout MenuState
    ) throws -> (gate: DispatchSemaphore, loop: MenuLoop, pending: KeyList.PendingRank) {
        let (gate, loop) = holdRankings(&state)
        try #require(loop.handle([.character("/"), .character(character)], on: &state))
        let pending = try #require(state.list.pendingRank)
        loop.dispatchRanking(state)
        return (gate, loop, pending)
    }

    /// The whole screen of `state` as drawn.
    static func screen(_ state: MenuState) -> String { MenuRenderer(colors: false).render(state).text }

    @Test("the keystroke shows at once with the last query's rows marked searching…; the rows follow")
    func echoFirst() throws {
        var state = try MenuFixture.state()
        let (gate, loop) = Self.holdRankings(&state)
        let unfiltered = state.list.rows
        #expect(loop.handle([.character("/"), .character("q"), .character("u")], on: &state))
        #expect(state.filters.query == "qu")
        #expect(state.list.pendingRank != nil)
        #expect(state.list.rows == unfiltered, "the rows wait for the ranking")
        #expect(loop.dispatchRanking(state))
        let waiting = Self.screen(state)
        #expect(waiting.contains("/qu"), "the keystroke is drawn")
        #expect(waiting.contains("searching…"))
        #expect(waiting.contains("── Photos"), "the rows drawn are the last query's, with their headings")
        gate.signal()
        #expect(loop.ranker.waitUntilIdle(timeout: 30))
        let ranked = try #require(loop.ranker.takeResult())
        reduce(&state, ranked)
        var direct = try MenuFixture.state()
        reduce(&direct, .startFilter, .filterInsert("qu"))
        #expect(state.list == direct.list, "the same rows as ranking at once")
        #expect(!Self.screen(state).contains("searching…"))
        #expect(state.list.selectedKey == MenuFixture.key("function.media.quality", in: state))
    }

    @Test("a newer keystroke stops the older ranking; only the newest result is taken")
    func newestWins() throws {
        var state = try MenuFixture.state()
        let (gate, loop, first) = try Self.holdRanking(after: "c", in: &state)
        let stale = state.list
        #expect(loop.handle([.character("h")], on: &state))
        let second = try #require(state.list.pendingRank)
        #expect(second.id > first.id)
        loop.dispatchRanking(state)
        gate.signal()
        gate.signal()
        #expect(loop.ranker.waitUntilIdle(timeout: 30))
        guard case .ranked(let list, let id) = try #require(loop.ranker.takeResult()) else {
            Issue.record("a ranking expected")
            return
        }
        #expect(id == second.id, "the older ranking gave up")
        #expect(loop.ranker.takeResult() == nil)
        // An older result arriving late is dropped.
        var late = stale
        late.refresh(data: state.data, filters: KeyFilters(query: "c"), visibleRows: 10)
        reduce(&state, .ranked(late, id: first.id))
        #expect(state.list.pendingRank == second)
        reduce(&state, .ranked(list, id: id))
        #expect(state.list.pendingRank == nil)
        #expect(state.list.shownQuery == "ch")
    }

    @Test("a keystroke for a new query stops the ranking under way before a small ranking runs on the input thread")
    func staleRankingStopsFirst() throws {
        var state = try MenuFixture.state()
        let (gate, loop, first) = try Self.holdRanking(after: "c", in: &state)
        #expect(loop.ranker.newestID == first.id)
        // The next query is small enough to rank at once: the old ranking is stopped in `handle` itself, before
        // the loop dispatches anything.
        state.backgroundRankingFrom = .max
        #expect(loop.handle([.character("h")], on: &state))
        #expect(loop.ranker.newestID == 0, "the stale ranking was told to stop before the query was ranked here")
        #expect(state.list.pendingRank == nil)
        #expect(state.list.shownQuery == "ch")
        gate.signal()
        #expect(loop.ranker.waitUntilIdle(timeout: 30))
        #expect(loop.ranker.takeResult() == nil, "the stopped ranking left no result")
        var direct = try MenuFixture.state()
        reduce(&direct, .startFilter, .filterInsert("ch"))
        #expect(state.list == direct.list)
    }

    @Test("closing the filter keeps the ranking under way: its result is the one the list adopts")
    func acceptKeepsRanking() throws {
        var state = try MenuFixture.state()
        let (gate, loop, pending) = try Self.holdRanking(after: "c", in: &state)
        #expect(loop.handle([.enter], on: &state))
        #expect(loop.ranker.newestID == pending.id, "Enter keeps the query, so the ranking goes on")
        #expect(state.list.pendingRank == pending)
        gate.signal()
        #expect(loop.ranker.waitUntilIdle(timeout: 30))
        reduce(&state, try #require(loop.ranker.takeResult()))
        #expect(state.list.pendingRank == nil)
        #expect(state.list.shownQuery == "c")
    }

    @Test("any key other than typing waits for the ranking and acts on its rows")
    func navigationWaits() throws {
        var state = try MenuFixture.state()
        let (gate, loop) = Self.holdRankings(&state)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { gate.signal() }
        #expect(loop.handle([.character("/"), .character("e"), .down, .enter], on: &state))
        #expect(state.list.pendingRank == nil)
        var direct = try MenuFixture.state()
        reduce(&direct, .startFilter, .filterInsert("e"), .move(1), .filterAccept)
        #expect(state.list == direct.list)
        #expect(state.list.selection == direct.list.selection)
        #expect(state.mode == .browsing)
    }

    @Test("a change from the store while ranking refreshes the list at once; the ranking's late result is dropped")
    func refreshSupersedes() throws {
        var state = try MenuFixture.state()
        let (gate, loop, pending) = try Self.holdRanking(after: "g", in: &state)
        let key = MenuFixture.key("function.chat.greeting", in: state)
        let status = ConfigurationKeyStatus(
            state.data.table.keys[key].descriptor, serverValue: nil,
            override: OverrideEntry(value: "hej", setAt: nil))
        reduce(&state, .refreshed(MenuDataUpdate(statuses: [key: status], orphans: [], storeProblem: nil)))
        #expect(state.list.pendingRank == nil, "the refresh answered the query itself")
        #expect(state.list.shownQuery == "g")
        let answered = state.list
        #expect(!loop.dispatchRanking(state), "the ranker is told the list waits for none")
        gate.signal()
        #expect(loop.ranker.waitUntilIdle(timeout: 30))
        if let late = loop.ranker.takeResult() { reduce(&state, late) }
        #expect(state.list == answered)
        #expect(pending.id < state.nextRankID)
    }

    @Test("ranking stops within a few thousand keys of being asked to")
    func stopsPromptly() throws {
        let catalog = try DemoConfiguration.synthetic(keys: 50_000, scopes: 500).catalog
        let table = KeyTable(catalog: catalog)
        let asked = Atomic(0)
        let stopped = FuzzyMatcher(query: "upl").rank(
            table, candidates: nil,
            shouldStop: { asked.add(1, ordering: .relaxed).newValue > 2 })
        #expect(stopped == nil)
        #expect(asked.load(ordering: .relaxed) == 3, "asked once per \(FuzzyMatcher.stopCheckInterval) keys")
        let whole = FuzzyMatcher(query: "upl").rank(table, candidates: nil, shouldStop: { false })
        #expect(whole == FuzzyMatcher(query: "upl").rank(table))
        #expect(whole?.isEmpty == false)
        let state = MenuFixture.state(catalog: catalog)
        var list = state.list
        var filters = KeyFilters()
        filters.query = "sync high"
        let calls = Atomic(0)
        let finished = list.refresh(
            data: state.data, filters: filters, visibleRows: 10,
            shouldStop: { calls.add(1, ordering: .relaxed).newValue > 1 })
        #expect(!finished)
    }

    @Test("typing at random gives the same list as ranking every keystroke at once (seeded)")
    func sameAsAtOnce() throws {
        let catalog = try DemoConfiguration.synthetic(keys: 3_000, scopes: 30).catalog
        var generator = SeededGenerator(seed: 27)
        let letters = Array("abcdehiklmnoprstuwy.  ")
        for _ in 0..<20 {
            var background = MenuFixture.state(catalog: catalog)
            background.backgroundRankingFrom = 0
            var direct = MenuFixture.state(catalog: catalog)
            direct.backgroundRankingFrom = Int.max
            let loop = Self.loop(for: background)
            let directLoop = Self.loop(for: direct)
            var events: [KeyEvent] = [.character("/")]
            for _ in 0..<12 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: events.append(.backspace)
                case 1: events.append(.down)
                case 2: events.append(.tab)
                case 3: events.append(.control("u"))
                default: events.append(.character(letters.randomElement(using: &generator)!))
                }
            }
            #expect(loop.handle(events, on: &background))
            #expect(loop.finishRanking(&background))
            #expect(directLoop.handle(events, on: &direct))
            #expect(background.list == direct.list, "\(events)")
        }
    }
}

/// A terminal for the whole loop: types `query` after `/`, lets the ranking go once the keystrokes are drawn, and
/// stops at the first frame after it that no longer searches.
final class RankingTerminal: TerminalDevice {
    var events: [KeyEvent]
    let gate: DispatchSemaphore
    private(set) var frames: [String] = []
    init(query: String, gate: DispatchSemaphore) {
        events = [.character("/")] + query.map { KeyEvent.character($0) }
        self.gate = gate
    }
    var size: (width: Int, height: Int) { (100, 30) }
    var supportsColor: Bool { false }
    var stopRequested: Bool {
        events.isEmpty && frames.count > 1 && frames.last.map { !$0.contains("searching…") } == true
    }
    func draw(_ grid: ScreenGrid) {
        frames.append(grid.text)
        if grid.text.contains("searching…") { gate.signal() }
    }
    func nextEvent(timeout: Int) -> KeyEvent? {
        if events.isEmpty {
            Thread.sleep(forTimeInterval: Double(timeout) / 1000)
            return nil
        }
        return events.removeFirst()
    }
    func suspend<Result>(_ body: () throws -> Result) rethrows -> Result { try body() }
    func copyToClipboard(_ text: String) {}
    func suspendJob() {}
    func close() {}
}

@Suite("The menu's loop with a slow ranking")
struct RankingLoopTests {
    @Test("the loop draws the typed query while the ranking is held, then the ranked rows")
    func loopDrawsEchoThenRows() throws {
        let catalog = try DemoConfiguration.synthetic(keys: 30_000, scopes: 300).catalog
        let service = LiveConfigurationService(serverValues: [:], catalog: catalog)
        let gate = DispatchSemaphore(value: 0)
        let terminal = RankingTerminal(query: "upl", gate: gate)
        let source = MenuDataSource(table: KeyTable(catalog: catalog), service: service)
        MenuLoop(
            source: source, terminal: terminal, label: "synthetic", ranker: RankWorker(beforeRanking: { gate.wait() })
        )
        .run()
        let echoed = try #require(terminal.frames.firstIndex { $0.contains("/upl") })
        #expect(terminal.frames[echoed].contains("searching…"), "drawn before the ranking was let go")
        let last = try #require(terminal.frames.last)
        #expect(last.contains("/upl"))
        #expect(!last.contains("searching…"))
        #expect(!last.contains("── Module"), "the ranked rows, without module headings")
    }
}
