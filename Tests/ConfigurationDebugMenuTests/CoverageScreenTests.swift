import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// The menu's view of what the program read: markers, the "never read" filter, the unregistered group.
@Suite("What the program read, in the menu")
struct CoverageScreenTests {
    let renderer = MenuRenderer(colors: true)

    static let start = Date(timeIntervalSince1970: 1_764_425_100)  // 2025-11-29 14:05:00 UTC

    /// A running program that read three keys (one before its value changed) and one unregistered key.
    static func report(status: ProgramReport.Status = .running) -> ProgramReport {
        let at = { (seconds: Double) in start.addingTimeInterval(seconds) }
        return ProgramReport(
            programName: "shop-app", processIdentifier: 4242, processStart: nil, storePath: "/tmp/overrides.json",
            startedAt: start, writtenAt: at(9), endedAt: status == .ended ? at(60) : nil, recordsReads: true,
            reads: [
                .init(name: "function.chat.typing.enabled", firstRead: at(2), currentValueFirstRead: at(2)),
                .init(name: "function.media.hdr.enabled", firstRead: at(1), currentValueFirstRead: at(1)),
                .init(name: "function.media.quality", firstRead: at(3), currentValueFirstRead: nil),
            ],
            unregistered: [
                .init(
                    name: "checkout.max_items", scopeTypeName: "ConfigurationScopes.Checkout",
                    keyTypeName: "Shop.ConfigurationScopes.Checkout.MaxItemsKey", firstRead: at(4))
            ],
            rejectedOverrides: [], status: status)
    }

    /// Feeds the reports of `programs` to the menu, as its coverage source does when they change.
    static func show(_ programs: [ProgramReport], in state: inout MenuState) {
        reduce(
            &state,
            .refreshed(
                MenuDataUpdate(
                    statuses: [:], orphans: state.data.orphans, storeProblem: nil,
                    coverage: ProgramCoverage(programs: programs))))
    }

    static func state(status: ProgramReport.Status = .running) throws -> MenuState {
        var state = try MenuFixture.state()
        show([report(status: status)], in: &state)
        return state
    }

    /// The names of the keys the list shows.
    static func listedKeys(_ state: MenuState) -> [String] {
        state.list.rows.compactMap { row in
            guard case .key(let key) = row else { return nil }
            return state.data.table.keys[key].descriptor.name
        }
    }

    @Test("• marks keys read (◦ read before their value changed); details say by whom and when, or not read")
    func markers() throws {
        var state = try Self.state()
        MenuFixture.select("function.chat.greeting", in: &state)
        try expectScreen(renderer.render(state), "coverage-browse")
        let text = renderer.render(state).text
        #expect(text.contains("Keys · 8 · 1 orphaned · 3 read by shop-app · 1 unregistered"))
        #expect(
            text.contains("Read      not read by shop-app (pid 4242) in this run  (the override was not exercised)"))
        MenuFixture.select("function.media.quality", in: &state)
        let quality = renderer.render(state).text
        #expect(quality.contains("Read      by shop-app (pid 4242) at 14:05:03 UTC  ◦ its value changed since"))
        // Without reports, no marker, no line, no footer word.
        let plain = try MenuFixture.state()
        #expect(!renderer.render(plain).text.contains("Read      "))
        #expect(!renderer.render(plain).text.contains("•"))
        #expect(!renderer.render(plain).text.contains("N never read"))
    }

    @Test("unregistered keys are listed in their own group, with the explanation and the fix")
    func unregistered() throws {
        var state = try Self.state()
        reduce(&state, .bottom)
        #expect(state.list.selectedUnregistered == 0)
        try expectScreen(renderer.render(state), "coverage-unregistered")
        let text = renderer.render(state).text
        #expect(text.contains("── Unregistered: read by the program, scope not in its catalog ──"))
        #expect(
            text.contains(
                "Fix       add ConfigurationScopes.Checkout.self to the program's ConfigurationCatalog(scopes:)"))
    }

    @Test("N shows only keys never read in this run; a new report updates the list; N again shows every key")
    func neverReadFilter() throws {
        var state = try Self.state()
        MenuFixture.select("function.chat.typing.enabled", in: &state)
        reduce(&state, .toggleOnlyUnread)
        #expect(state.filters.onlyUnread)
        // The selected key was read, so it is gone: the list starts from the top again.
        #expect(state.list.selection == 1 && state.list.scroll == 0)
        #expect(state.selectedKey == MenuFixture.key("function.media.upload_mode", in: state))
        #expect(
            Self.listedKeys(state) == [
                "function.media.upload_mode", "function.chat.greeting", "function.chat.reactions",
                "function.payments.daily_limit", "ab.payments.checkout",
            ])
        #expect(state.list.unregisteredCount == 0)
        #expect(state.status?.text == "Showing only keys shop-app (pid 4242) never read in this run")
        #expect(renderer.render(state).text.contains("Filters: never read in this run"))

        // The program reads the greeting: the next report takes it off the list.
        var report = Self.report()
        report.reads.append(.init(name: "function.chat.greeting", firstRead: Self.start, currentValueFirstRead: nil))
        Self.show([report], in: &state)
        #expect(!Self.listedKeys(state).contains("function.chat.greeting"))
        #expect(Self.listedKeys(state).count == 4)

        reduce(&state, .toggleOnlyUnread)
        #expect(!state.filters.onlyUnread)
        #expect(Self.listedKeys(state).count == 8)
    }

    @Test("N without any program report explains instead of filtering everything out")
    func noReport() throws {
        var state = try MenuFixture.state()
        reduce(&state, .toggleOnlyUnread)
        #expect(!state.filters.onlyUnread)
        #expect(
            state.status?.text == "No program using this store has reported what it read (start it with this store)")
    }

    @Test("two programs: a key read by either is read; an unread key names both; hostile names are escaped")
    func twoPrograms() throws {
        var state = try MenuFixture.state()
        var hostile = Self.report()
        hostile.programName = "evil\u{1B}]0;title\u{7}"
        hostile.processIdentifier = 7
        hostile.reads = [
            .init(name: "function.chat.greeting", firstRead: Self.start, currentValueFirstRead: Self.start)
        ]
        Self.show([Self.report(), hostile], in: &state)
        MenuFixture.select("function.chat.greeting", in: &state)
        var text = renderer.render(state).text
        #expect(text.contains("4 read by 2 programs"))
        #expect(text.contains("Read      by evil\\u{001B}]0;title\\u{0007} (pid 7) at 14:05:00 UTC"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{7}"))
        MenuFixture.select("function.chat.reactions", in: &state)
        text = renderer.render(state).text
        #expect(text.contains("not read by shop-app (pid 4242) or evil\\u{001B}]0;title\\u{0007} (pid 7) in this run"))
    }

    @Test("an override a program refused is marked ✗, listed under problems and explained; another value is not")
    func rejectedByProgram() throws {
        var state = try MenuFixture.state()
        var report = Self.report()
        report.rejectedOverrides = [
            .init(name: "function.chat.greeting", value: "Hi 👋", reason: "expected at most 2 characters\u{1B}[2J"),
            .init(name: "function.chat.reactions", value: "an older value", reason: "not a list"),
        ]
        Self.show([report], in: &state)
        MenuFixture.select("function.chat.greeting", in: &state)
        let text = renderer.render(state).text
        // The reason's escape is shown, never sent.
        #expect(
            text.contains("Rejected  ✗ by shop-app (pid 4242, running): expected at most 2 characters\\u{001B}[2J"))
        #expect(!text.contains("\u{1B}"))
        let row = try #require(text.split(separator: "\n").first { $0.contains("Greeting") && $0.contains("Hi") })
        #expect(row.contains("✗"))
        reduce(&state, .toggleOnlyProblems)
        #expect(Self.listedKeys(state).contains("function.chat.greeting"))
        // The program refused a value the override no longer holds: nothing to report for the current one.
        #expect(!Self.listedKeys(state).contains("function.chat.reactions"))
    }

    @Test("an ended program's reads still show, marked ended")
    func ended() throws {
        var state = try Self.state(status: .ended)
        MenuFixture.select("function.media.hdr.enabled", in: &state)
        let text = renderer.render(state).text
        #expect(text.contains("3 read by shop-app (ended)"))
        #expect(text.contains("Read      by shop-app (pid 4242) at 14:05:01 UTC  · ended"))
        MenuFixture.select("function.chat.greeting", in: &state)
        #expect(renderer.render(state).text.contains("Read      not read by shop-app (pid 4242) in its run"))
    }
}
