import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import Testing

@testable import ConfigurationDebugMenu

/// Launch overrides in the menu: a running program's (from its report) and the menu's own program's.
@Suite("Launch overrides in the menu: the source LAUNCH, the » mark, the details line")
struct LaunchScreenTests {
    let renderer = MenuRenderer(colors: true)

    /// The fixture menu with a report of `shop-app` launched with `greeting = "Hi QA"`.
    static func state(status: ProgramReport.Status) throws -> MenuState {
        var report = CoverageScreenTests.report(status: status)
        report.launchOverrides = ["function.chat.greeting": "Hi QA"]
        var state = try MenuFixture.state()
        CoverageScreenTests.show([report], in: &state)
        MenuFixture.select("function.chat.greeting", in: &state)
        return state
    }

    /// The key list's row of the key named `name`.
    static func row(_ name: String, in text: String) -> Substring? {
        text.split(separator: "\n").first { $0.contains(name) && $0.contains("│") }
    }

    @Test("a running program launched with a value: » in the list, and the details say it keeps it until it ends")
    func runningProgram() throws {
        let state = try Self.state(status: .running)
        try expectScreen(renderer.render(state), "launch-details")
        let text = renderer.render(state).text
        #expect(
            text.contains(
                #"Launch    "Hi QA" · shop-app (pid 4242) keeps this until it ends; changes here apply after"#),
            "\(text)")
        #expect(Self.row("greeting", in: text)?.contains("»") == true)
        #expect(Self.row("Quality", in: text)?.contains("»") == false)
    }

    @Test("once that program ended, nothing runs with the launch value: no mark, no line")
    func endedProgram() throws {
        let text = renderer.render(try Self.state(status: .ended)).text
        #expect(!text.contains("Launch    "))
        #expect(!text.contains("»"))
    }

    @Test("a menu inside a program launched with an override shows its value as LAUNCH over the stored override")
    func ownProgram() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("menu-launch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("overrides.json")
        try FileOverrideStore(url: url).modify { $0 = MenuFixture.entries }
        var options = LiveConfigurationService.Options(onWarning: nil, publishesProgramReport: false)
        options.launchOverrides = ConfigurationLaunchOverrides(["function.media.quality": "99"])
        let service = LiveConfigurationService(
            serverValues: MenuFixture.serverValues, catalog: MenuFixture.catalog,
            overrideStore: FileOverrideStore(url: url),
            watchMode: nil, options: options)
        let source = MenuDataSource(table: KeyTable(catalog: MenuFixture.catalog), service: service)
        var state = MenuState(data: source.initialData(label: "fixture"), width: 100, height: 30)
        MenuFixture.select("function.media.quality", in: &state)
        let text = renderer.render(state).text
        #expect(Self.row("Quality", in: text)?.contains("LAUNCH") == true, "\(text)")
        #expect(Self.row("Quality", in: text)?.contains("»") == true)
        #expect(
            text.contains(#"Launch    "99" · this program keeps this until it ends; changes here apply to later runs"#),
            "\(text)")
        #expect(text.contains(#"Override  "95""#), "\(text)")
    }
}
