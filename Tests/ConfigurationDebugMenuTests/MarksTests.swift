import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// Marks and bulk actions (issue 25): `v` marks a key, `V` every key shown, Esc clears the marks, `a` acts on them
/// as one change; `<` and `>` set a number with a range to its ends.
@Suite("marks and bulk actions: several keys, one question, one change")
struct MarksTests {
    let renderer = MenuRenderer()

    func name(_ state: MenuState, _ key: Int) -> String { state.data.table.keys[key].descriptor.name }

    @Test("v marks the selected key and moves on; V marks every key shown, again unmarks; Esc clears marks first")
    func marking() throws {
        var state = try MenuFixture.state()
        let first = try #require(state.selectedKey)
        reduce(&state, .toggleMark)
        #expect(state.marks == [name(state, first)])
        let second = try #require(state.selectedKey)
        #expect(second != first, "v moves to the next key")
        reduce(&state, .toggleMark)
        #expect(state.marks == [name(state, first), name(state, second)])
        reduce(&state, .move(-1), .toggleMark)
        #expect(state.marks == [name(state, first)], "v again unmarks")

        reduce(&state, .markShown)
        #expect(state.marks.count == state.data.table.keys.count)
        #expect(renderer.render(state).text.contains("· \(state.data.table.keys.count) marked"))
        reduce(&state, .markShown)
        #expect(state.marks.isEmpty, "V with every shown key marked unmarks them")

        reduce(&state, .toggleOnlyOverridden, .markShown)
        #expect(renderer.render(state).text.contains("── Photos · 2 of 3 keys"), "a heading under a filter counts")
        #expect(state.marks.count == state.list.keyCount && state.list.keyCount < state.data.table.keys.count)
        reduce(&state, .clearFilters)
        #expect(state.marks.isEmpty && state.filters.onlyOverridden, "the first Esc clears the marks only")
        #expect(state.status?.text.contains("Esc again clears the filters") == true)
        reduce(&state, .clearFilters)
        #expect(!state.filters.isActive)
    }

    @Test("a with no marks says how to mark; with marks it offers what they allow")
    func offers() throws {
        var state = try MenuFixture.state()
        reduce(&state, .openBulkMenu)
        #expect(state.mode == .browsing)
        #expect(state.status?.text == "Mark keys first: v marks the selected key, V every key shown")
        reduce(&state, .markShown, .openBulkMenu)
        guard case .bulkActions(let menu) = state.mode else {
            Issue.record("a opens the bulk menu: \(state.mode)")
            return
        }
        #expect(
            menu.choices.map(\.action) == [
                .setBools(true), .setBools(false), .reset, .chooseExpiry, .note, .saveScenario, .clearMarks,
            ])
        try expectScreen(renderer.render(state), "bulk-menu")
        reduce(&state, .pickerCancel)
        #expect(state.mode == .browsing && !state.marks.isEmpty, "Esc closes; the marks stay")
    }

    @Test("turning the marked Bools on is asked first, naming them, and written as one change; the marks go")
    func bulkOn() throws {
        var state = try MenuFixture.state()
        reduce(&state, .markShown, .openBulkMenu, .pickerChoose)
        let bools = state.data.table.keys.indices.filter { state.data.table.keys[$0].descriptor.control == .toggle }
        let expected = bools.filter { key in
            let on = state.data.table.keys[key].descriptor.toggleStrings.on
            return !(state.shownValue(ofKey: key) == on && state.data.statuses[key].override?.value == on)
        }.map { name(state, $0) }
        #expect(!expected.isEmpty)
        guard case .confirming(.bulk(let question, let write)) = state.mode else {
            Issue.record("a, Enter asks first: \(state.mode)")
            return
        }
        #expect(question.hasPrefix("Turn on \(expected.count) key"), "\(question)")
        #expect(write.changes.map(\.key) == expected)
        #expect(write.changes.allSatisfy { $0.value == "true" || $0.value == "Y" })
        let effects = reduce(&state, .confirm)
        guard case .write(let sent)? = effects.first, effects.count == 1 else {
            Issue.record("one write for them all: \(effects)")
            return
        }
        #expect(sent.changes == write.changes)
        #expect(state.marks.isEmpty)
        #expect(state.pending.count == 1, "one pending change: one entry in the history, one undo step")
    }

    @Test("no answers no; reset touches only marked keys with an override; a Bool already on is not written again")
    func resetAndCancel() throws {
        var state = try MenuFixture.state()
        let overridden = state.data.table.keys.indices.filter { state.data.statuses[$0].override != nil }
        let plain = state.data.table.keys.indices.filter { state.data.statuses[$0].override == nil }
        let marked = [try #require(overridden.first), try #require(plain.first)]
        state.marks = Set(marked.map { name(state, $0) })
        reduce(&state, .openBulkMenu)
        guard case .bulkActions(let menu) = state.mode,
            let reset = menu.choices.firstIndex(where: { $0.action == .reset })
        else {
            Issue.record("reset is offered: \(state.mode)")
            return
        }
        reduce(&state, .move(reset), .pickerChoose)
        guard case .confirming(.bulk(_, let write)) = state.mode else {
            Issue.record("reset asks first: \(state.mode)")
            return
        }
        #expect(write.changes == [.init(key: name(state, overridden[0]), value: nil)])
        let effects = reduce(&state, .cancel)
        #expect(effects.isEmpty && state.marks.count == 2, "no: nothing written, the marks stay")
        #expect(state.status?.text == "Nothing was changed; the marks stay")

        // A Bool whose override is on already: nothing to write, and the menu says so.
        var on = try MenuFixture.state(
            entries: ["function.chat.typing.enabled": OverrideEntry(value: "Y", setAt: nil)])
        on.marks = ["function.chat.typing.enabled"]
        reduce(&on, .openBulkMenu, .pickerChoose)
        #expect(on.mode == .browsing)
        #expect(on.status?.text == "The 1 marked Bool key is on already")
    }

    @Test("> and < set a number with a range to its ends; the details show every integer key's range")
    func bounds() throws {
        var state = try MenuFixture.state()
        reduce(&state, .startFilter, .filterInsert("daily_limit"), .filterAccept)
        let key = try #require(state.selectedKey)
        #expect(name(state, key) == "function.payments.daily_limit")
        #expect(
            renderer.render(state).text.contains(
                "Range     any integer, from -9223372036854775808 to 9223372036854775807"))
        let up = reduce(&state, .toBound(true))
        guard case .write(let maximum)? = up.first else {
            Issue.record("> writes the maximum: \(up)")
            return
        }
        #expect(maximum.changes == [.init(key: "function.payments.daily_limit", value: "9223372036854775807")])
        let down = reduce(&state, .toBound(false))
        guard case .write(let minimum)? = down.first else {
            Issue.record("< writes the minimum: \(down)")
            return
        }
        #expect(minimum.changes == [.init(key: "function.payments.daily_limit", value: "-9223372036854775808")])
        reduce(&state, .filterErase, .clearFilters, .top)
        #expect(state.data.table.keys[try #require(state.selectedKey)].descriptor.control == .toggle)
        #expect(reduce(&state, .toBound(true)).isEmpty)
        #expect(state.status?.text.hasPrefix("< and > set numbers with a range to their ends") == true)
    }
}

/// Expiry at a glance (issue 25 item 3): a mark for an override that will expire, the time left in the details, and
/// the title counting expired overrides apart.
@Suite("expiry at a glance")
struct ExpiryAtAGlanceTests {
    @Test("◷ marks an override that will expire; the details say how long is left; the title counts expired apart")
    func glance() throws {
        let now = Date()
        var entries = MenuFixture.entries
        entries["function.media.quality"] = OverrideEntry(
            value: "95", setAt: now, expiry: OverrideExpiry(expiresAt: now.addingTimeInterval(3600 - 30)))
        entries["function.chat.greeting"] = OverrideEntry(
            value: "Hi", setAt: now.addingTimeInterval(-600),
            expiry: OverrideExpiry(expiresAt: now.addingTimeInterval(-60)))
        var state = try MenuFixture.state(entries: entries, wallClockOffset: now.timeIntervalSince1970)
        MenuFixture.select("function.media.quality", in: &state)
        let text = MenuRenderer().render(state).text
        let row = try #require(
            text.split(separator: "\n").first { $0.contains("quality ") && $0.contains("OVERRIDDEN") })
        #expect(row.contains("◷"), "\(row)")
        #expect(text.contains("(in 59 min)"), "\(text)")
        #expect(text.contains("· 4 overridden · 1 expired"), "the expired greeting is counted apart")
        let greeting = try #require(text.split(separator: "\n").first { $0.contains("greeting ") })
        #expect(greeting.contains("⊘") && !greeting.contains("◷"))
        #expect(ExpiryChoice.relative(now.addingTimeInterval(30), from: now) == "in less than a minute")
        #expect(ExpiryChoice.relative(now.addingTimeInterval(3 * 3600 + 5), from: now) == "in 3 h")
        #expect(ExpiryChoice.relative(now.addingTimeInterval(3 * 86_400 + 5), from: now) == "in 3 days")
    }
}

/// A key's lifecycle in the details (issue 26 item 1): owner, ticket and removal, with where it stands.
@Suite("details: owner, ticket and removal")
struct LifecycleDetailsTests {
    let renderer = MenuRenderer()

    /// The details of the first key the filter `text` finds in the demo catalog, on a menu whose wall clock is `now`.
    func screen(_ text: String, now: Double) throws -> String {
        var state = MenuFixture.state(catalog: try DemoConfiguration.makeCatalog(), wallClockOffset: now)
        reduce(&state, .startFilter, .filterInsert(text), .filterAccept)
        return renderer.render(state).text
    }

    @Test("the details show the owner, ticket and removal; past due with the days; nothing for a key without any")
    func ownerLine() throws {
        // 2026-11-03T12:00Z: three and a half days after the start of the demo like flag's removal day.
        let pastDue = try screen("album.like.enabled", now: 1_793_404_800 + 3 * 86_400 + 43_200)
        #expect(
            pastDue.contains("Owner     album-team · ALB-1024 · remove by 2026-10-31 (past due by 3 days)"),
            "\(pastDue)")
        let before = try screen("album.like.enabled", now: 1_793_404_800 - 86_400 * 5 - 1)
        #expect(before.contains("remove by 2026-10-31 (due in 5 days)"), "\(before)")
        let version = try screen("checkout_flow", now: 1_793_404_800)
        #expect(
            version.contains("Owner     growth-team · EXP-342 · remove by version 8.4 (due at that version)"),
            "\(version)")
        let scopeOwner = try screen("album.max_photos", now: 1_793_404_800)
        #expect(
            scopeOwner.contains("Owner     album-team\n") || scopeOwner.contains("Owner     album-team "),
            "\(scopeOwner)")
        let unowned = try screen("network.timeout", now: 1_793_404_800)
        #expect(unowned.contains("function.network.timeout_sec"))
        #expect(!unowned.contains("Owner     "), "a key with nothing declared has no owner line")
    }
}
