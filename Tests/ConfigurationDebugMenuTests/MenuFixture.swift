import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// A small catalog with one key of each control, server values (one invalid), overrides (one stale, one invalid)
/// and an orphaned override: enough to show every marker on one screen.
extension ConfigurationScopes {
    struct MenuPhotos: ConfigurationScope {
        static var name: String { "Photos" }
        let hdr: HDRKey
        enum HDRKey: ConfigurationKey {
            static let name = "function.media.hdr.enabled"
            static let defaultValue = false
            static let summary = "Keep HDR photos as HDR when sending."
        }
        let quality: QualityKey
        enum QualityKey: ConfigurationKey {
            static let name = "function.media.quality"
            static let defaultValue = 70
        }
        let mode: ModeKey
        enum ModeKey: ConfigurationKey {
            static let name = "function.media.upload_mode"
            static let defaultValue = MenuUploadMode.wifi
        }
    }

    struct MenuChat: ConfigurationScope {
        static var name: String { "Chat" }
        let greeting: GreetingKey
        enum GreetingKey: ConfigurationKey {
            static let name = "function.chat.greeting"
            static let defaultValue = "こんにちは"
        }
        let reactions: ReactionsKey
        enum ReactionsKey: ConfigurationKey {
            static let name = "function.chat.reactions"
            static let defaultValue = ["👍", "🎉"]
        }
        let typing: TypingKey
        enum TypingKey: ConfigurationKey {
            static let name = "function.chat.typing.enabled"
            static let defaultValue = true
        }
    }

    struct MenuPayments: ConfigurationScope {
        static var name: String { "Payments" }
        let limit: LimitKey
        enum LimitKey: ConfigurationKey {
            static let name = "function.payments.daily_limit"
            static let defaultValue = 500
        }
        let test: TestKey
        enum TestKey: ConfigurationKey {
            static let name = "ab.payments.checkout"
            static let defaultValue = ConfigurationABTest.none
        }
    }
}

enum MenuUploadMode: String, CaseIterable, ConfigurationValueStringRepresentable {
    case wifi, always, never
}

enum MenuFixture {
    static let catalog = try! ConfigurationCatalog(scopes: [
        ConfigurationScopes.MenuPhotos.self, ConfigurationScopes.MenuChat.self, ConfigurationScopes.MenuPayments.self,
    ])

    static let serverValues = [
        "function.media.quality": "85",
        "function.media.upload_mode": "always",
        "function.payments.daily_limit": "1,000",
        "ab.payments.checkout": "on",
        "function.chat.typing.enabled": "N",
    ]

    static let setAt = Date(timeIntervalSince1970: 1_764_425_100)  // 2025-11-29 14:05 UTC

    /// The store's entries: an override with a note, a stale one, an invalid one, an orphan.
    static let entries: [String: OverrideEntry] = [
        "function.media.hdr.enabled": OverrideEntry(
            value: "Y", setAt: setAt, serverValueWhenSet: nil, note: "QA scenario 12"),
        "function.media.quality": OverrideEntry(value: "95", setAt: setAt, serverValueWhenSet: "80"),
        "function.chat.greeting": OverrideEntry(value: "Hi 👋", setAt: setAt),
        "function.payments.daily_limit": OverrideEntry(value: "lots", setAt: setAt, serverValueWhenSet: "1,000"),
        "removed.feature.enabled": OverrideEntry(value: "Y", setAt: setAt),
    ]

    /// A live service over a store in `folder`, holding ``entries``.
    static func service(in folder: URL, entries: [String: OverrideEntry] = entries) throws -> LiveConfigurationService {
        let url = folder.appendingPathComponent("overrides.json")
        try FileOverrideStore(url: url).modify { $0 = entries }
        return LiveConfigurationService(
            serverValues: serverValues,
            catalog: catalog,
            overrideStore: FileOverrideStore(url: url),
            watchMode: nil
        )
    }

    /// Menu data as the data source reads it from the fixture service, with the store path shortened.
    static func data(entries: [String: OverrideEntry] = entries) throws -> MenuData {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = try service(in: folder, entries: entries)
        let source = MenuDataSource(table: KeyTable(catalog: catalog), service: service)
        var data = source.initialData(label: "fixture")
        data.storeLocation = "/home/qa/.local/state/fixture/overrides.json"
        // Writing the fixture store journaled it just now: the screens show a fixed history instead.
        data.history = history
        data.origin = origin
        data.scenariosFolder = "/home/qa/.local/state/fixture/scenarios"
        return data
    }

    /// A scenarios folder: a profile that sets an A/B test and changes a limit, and one that cannot be read.
    static let scenarios = ScenarioListing(
        folder: "/home/qa/.local/state/fixture/scenarios",
        scenarios: [
            Scenario(
                name: "checkout-one-tap", path: "/home/qa/.local/state/fixture/scenarios/checkout-one-tap.json",
                entries: [
                    "ab.payments.checkout": OverrideEntry(value: "off", setAt: nil),
                    "function.payments.daily_limit": OverrideEntry(value: "2,000", setAt: nil),
                    "function.media.quality": OverrideEntry(value: "95", setAt: nil),
                ]),
            Scenario(
                name: "broken", path: "/home/qa/.local/state/fixture/scenarios/broken.json", entries: [:],
                problem: "not valid JSON: expected a value at line 1, column 1"),
        ])

    /// This menu, as the history records it.
    static let origin = OverrideChangeOrigin(kind: .menu, name: "config-menu", pid: 4242)

    /// A fixed history: the fixture's overrides set by QA's command line and this menu, a hand edit, an undo.
    static let history: OverrideHistory = {
        func at(_ minutes: Double) -> Date { setAt.addingTimeInterval(minutes * 60) }
        let cli = OverrideChangeOrigin(kind: .cli, name: "config-menu", pid: 3117)
        let program = OverrideChangeOrigin(kind: .program, name: "ChatApp", pid: 5120)
        let quality = entries["function.media.quality"]!
        return OverrideHistory(records: [
            OverrideJournalRecord(
                id: "1", time: at(0), origin: cli, reason: OverrideChangeReason(.importProfile, detail: "qa-day.json"),
                changes: entries.keys.sorted().map { .init(key: $0, old: nil, new: entries[$0]) }),
            OverrideJournalRecord(
                id: "2", time: at(12), origin: program, reason: OverrideChangeReason(.set),
                changes: [
                    .init(key: "function.media.quality", old: quality, new: OverrideEntry(value: "60", setAt: at(12)))
                ]),
            OverrideJournalRecord(
                id: "3", time: at(13), origin: origin, reason: OverrideChangeReason(.undo, undoes: "2"),
                changes: [
                    .init(key: "function.media.quality", old: OverrideEntry(value: "60", setAt: at(12)), new: quality)
                ]),
            OverrideJournalRecord(
                id: "4", time: at(20), origin: .outside, reason: OverrideChangeReason(.outside),
                changes: [
                    .init(
                        key: "function.chat.greeting", old: OverrideEntry(value: "Hello", setAt: at(1)),
                        new: entries["function.chat.greeting"])
                ]),
        ])
    }()

    static func state(
        width: Int = 100, height: Int = 30, entries: [String: OverrideEntry] = entries, wallClockOffset: Double = 0
    ) throws -> MenuState {
        MenuState(data: try data(entries: entries), width: width, height: height, wallClockOffset: wallClockOffset)
    }

    /// A menu over `catalog` with no store and no server values.
    static func state(
        catalog: ConfigurationCatalog, width: Int = 120, height: Int = 40, wallClockOffset: Double = 0
    ) -> MenuState {
        let service = LiveConfigurationService(serverValues: [:], catalog: catalog)
        let data = MenuDataSource(table: KeyTable(catalog: catalog), service: service).initialData(label: "catalog")
        return MenuState(data: data, width: width, height: height, wallClockOffset: wallClockOffset)
    }

    /// The index of the key named `name`.
    static func key(_ name: String, in state: MenuState) -> Int { state.data.table.index(of: name)! }

    /// Selects the row of the key named `name`.
    static func select(_ name: String, in state: inout MenuState) {
        state.list.selection = state.list.rows.firstIndex(of: .key(key(name, in: state)))!
    }
}

/// Runs intents through the reducer, collecting every effect.
@discardableResult
func reduce(_ state: inout MenuState, _ intents: MenuIntent...) -> [MenuEffect] {
    intents.flatMap { MenuReducer.reduce(&state, $0) }
}

/// Runs feedback through the reducer, collecting every effect.
@discardableResult
func reduce(_ state: inout MenuState, _ feedback: MenuFeedback...) -> [MenuEffect] {
    feedback.flatMap { MenuReducer.reduce(&state, $0) }
}

/// Compares a rendered screen with `Screens/<name>.txt`; `UPDATE_SCREENS=1 swift test` rewrites the files (review
/// the diff before committing).
func expectScreen(_ grid: ScreenGrid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Screens/\(name).txt")
    let actual = grid.text + "\n"
    if ProcessInfo.processInfo.environment["UPDATE_SCREENS"] == "1" {
        try Data(actual.utf8).write(to: url)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    if actual != expected {
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        Issue.record(
            "screen \(name) differs at line \(first + 1):\n  expected: \(first < expectedLines.count ? String(expectedLines[first]) : "<none>")\n  actual:   \(first < actualLines.count ? String(actualLines[first]) : "<none>")\n\(actual)",
            sourceLocation: sourceLocation
        )
    }
}
