import Foundation
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationFileStore

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu coverage` against a real `config-demo` on a temporary store.
@Suite("config-menu coverage: what the running program read", .serialized)
struct CoverageCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-coverage-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }

    func coverage(_ arguments: String...) throws -> ToolRun {
        try configMenu(["coverage"] + arguments + ["--store", store.path])
    }

    /// `coverage --json` as an object (`nil` when the command failed or printed no JSON).
    func coverageJSON() throws -> [String: Any]? {
        let run = try coverage("--json")
        guard run.status == 0 else { return nil }
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    }

    func names(_ object: [String: Any]?, _ field: String) -> [String] { object?[field] as? [String] ?? [] }

    func program(_ object: [String: Any]?) -> [String: Any] { object?["program"] as? [String: Any] ?? [:] }

    @Test("keys read, never read, overridden but never read, unregistered; --require-read exits 3, then 0")
    func runningDemo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let hint = "function.profile.display_name_hint"
        let theme = "function.profile.theme_color"
        #expect(try configMenu(["set", hint, "QA", "--store", store.path]).status == 0)
        #expect(try configMenu(["set", theme, "#FF0000", "--store", store.path]).status == 0)
        let demo = try DemoProcess(store: store)
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))
        var report: [String: Any]?
        // The start screen reads the unregistered key last: once the report lists it, it lists the whole screen.
        #expect(
            try await poll(within: 60) {
                report = try coverageJSON()
                return !names(report, "unregistered").isEmpty
            })
        #expect(program(report)["name"] as? String == "config-demo")
        #expect(program(report)["pid"] as? Int == Int(demo.pid))
        #expect(program(report)["status"] as? String == "running")
        #expect(report?["time"] as? String == program(report)["writtenAt"] as? String)
        #expect(
            names(report, "read") == [
                "ab.album.like_button", "ab.payments.checkout_flow", "function.album.like.enabled",
                "function.chat.reaction_set", "function.chat.typing_interval_ms", "function.media.image_medium",
            ])
        #expect(names(report, "unread").contains(theme) && names(report, "unread").contains(hint))
        #expect(!names(report, "unread").contains("function.album.like.enabled"))
        #expect(names(report, "read").count + names(report, "unread").count == 55)
        #expect(names(report, "overriddenUnread") == [hint, theme])
        #expect(names(report, "unregistered") == ["function.lab.welcome_banner.enabled"])
        let unregistered = (report?["unregisteredKeys"] as? [[String: Any]])?.first
        #expect(unregistered?["scope"] as? String == "ConfigurationScopes.DemoLab")
        #expect((unregistered?["fix"] as? String)?.contains("add ConfigurationScopes.DemoLab.self") == true)

        let text = try coverage()
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("running program:\n  config-demo (pid \(demo.pid)), running\n"))
        #expect(text.output.contains("overridden but never read (2):\n  \(hint) = \"QA\"\n  \(theme) = \"#FF0000\"\n"))
        #expect(text.output.contains("function.lab.welcome_banner.enabled  (scope ConfigurationScopes.DemoLab"))
        #expect(text.output.contains("fix: add ConfigurationScopes.DemoLab.self"))

        let required = try coverage("--require-read")
        #expect(required.status == 3)
        #expect(required.error == "config-menu: --require-read: 2 overridden keys never read: \(hint), \(theme)\n")

        // Opening the profile screen reads the theme colour; the report follows within about a second.
        demo.pressEnter()
        #expect(try await demo.wait(for: "profile accent colour: #FF0000"))
        #expect(try await poll(within: 60) { names(try coverageJSON(), "read").contains(theme) })
        #expect(names(try coverageJSON(), "overriddenUnread") == [hint])
        let stillMissing = try coverage("--require-read")
        #expect(stillMissing.status == 3)
        #expect(stillMissing.error.contains("1 overridden key never read: \(hint)\n"))

        #expect(try configMenu(["reset", hint, "--store", store.path]).status == 0)
        let exercised = try coverage("--require-read", "--json")
        #expect(exercised.status == 0)
        #expect(exercised.error.isEmpty)

        // SIGTERM is a clean stop: the demo ends its report, and coverage shows the run as ended.
        #expect(try await demo.stop(with: SIGTERM))
        let ended = try coverageJSON()
        #expect(program(ended)["status"] as? String == "ended")
        #expect(ended?["running"] as? Bool == false)
        #expect(names(ended, "read").contains(theme))
        #expect(
            try coverage().output.hasPrefix("last program (none runs now):\n  config-demo (pid \(demo.pid)), ended at ")
        )
    }

    @Test("a killed program's report is shown as stale, with what it read before it died")
    func killedDemo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = try DemoProcess(store: store)
        // Killed once the report holds the whole start screen (its last read is the unregistered key).
        #expect(
            try await poll(within: 60) {
                let report = try coverageJSON()
                return program(report)["status"] as? String == "running" && !names(report, "unregistered").isEmpty
            })
        #expect(try await demo.stop(with: SIGKILL))
        let report = try coverageJSON()
        #expect(program(report)["status"] as? String == "stale")
        #expect(program(report)["pid"] as? Int == Int(demo.pid))
        #expect(names(report, "read").contains("function.album.like.enabled"))
        let text = try coverage()
        #expect(text.status == 0)
        #expect(text.output.contains("stale: the process is gone without ending its report"))
    }

    @Test("no report: exit 1 with where it looked; a file that is not a report is a warning, not a failure")
    func noReport() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let none = try coverage()
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.error.contains("no program has published a report for the store \(store.path)"))
        #expect(none.error.contains("\(folder.appendingPathComponent("programs").path)"))
        let programs = folder.appendingPathComponent("programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        try Data("{\"format\": 1".utf8).write(to: programs.appendingPathComponent("broken-1-1.json"))
        let broken = try coverage("--json")
        #expect(broken.status == 1)
        #expect(broken.error.contains("warning: unreadable program report \(programs.path)/broken-1-1.json"))
    }

    @Test("a hostile report (escapes in names) is shown escaped; JSON keeps it exactly")
    func hostileReport() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let programs = folder.appendingPathComponent("programs")
        try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
        let resolved = store.standardizedFileURL.resolvingSymlinksInPath().path
        let now = "2026-11-30T12:00:00.000Z"
        // This test runner is the "running program": its pid and its start identity (where the system has one).
        var report: [String: Any] = [
            "format": "service-configuration-program-report", "version": 1, "program": "evil\u{1B}[31mred",
            "pid": Int(getpid()), "store": resolved, "startedAt": now, "writtenAt": now, "recordsReads": true,
            "reads": ["function.album.like.enabled": ["firstRead": now, "currentValueFirstRead": now]],
            "unregistered": [
                [
                    "name": "x.\u{7}bell", "scopeType": "Scope\u{1B}]0;title\u{7}", "keyType": "M.Scope.K",
                    "firstRead": now,
                ]
            ],
            "rejectedOverrides": [],
        ]
        report["processStart"] = ProcessLiveness.startIdentity(of: getpid())
        try JSONSerialization.data(withJSONObject: report).write(to: programs.appendingPathComponent("evil-1-2.json"))
        let text = try coverage()
        #expect(text.status == 0)
        #expect(!text.output.contains("\u{1B}") && !text.output.contains("\u{7}"))
        #expect(text.output.contains("evil\\u{001B}[31mred (pid \(getpid())), running"))
        let json = try coverage("--json")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(program(object)["name"] as? String == "evil\u{1B}[31mred")
        #expect(names(object, "unregistered") == ["x.\u{7}bell"])
    }

    @Test("help, and usage errors")
    func help() throws {
        let help = try configMenu(["coverage", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: config-menu coverage [--json] [--require-read]"))
        #expect(help.output.contains("exit codes:"))
        #expect(try configMenu(["--help"]).output.contains("coverage [--json] [--require-read]"))
        let extra = try configMenu(["coverage", "something"])
        #expect(extra.status == 2)
        #expect(
            extra.error
                == "config-menu: coverage takes key names only after --require-both (see config-menu coverage --help)\n"
        )
        #expect(try configMenu(["coverage", "--frobnicate"]).status == 2)
    }
}
