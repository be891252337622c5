import Foundation
import ServiceConfigurationFiles
import SharedTestSupport
import Testing

@testable import ServiceConfiguration
@testable import ServiceConfigurationFileStore

#if canImport(Glibc)
    import Glibc
#endif

/// `config-menu coverage --runs` against the run history real `config-demo` runs leave beside a temporary store.
@Suite("config-menu coverage --runs: evidence across runs", .serialized)
struct CoverageRunsCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-runs-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("overrides.json") }

    static let like = "function.album.like.enabled"
    static let button = "ab.album.like_button"

    func menu(_ arguments: String...) throws -> ToolRun {
        try configMenu(arguments + ["--store", store.path])
    }

    func json(_ run: ToolRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    /// Runs config-demo as `version` until its report holds the start screen, then stops it with `signal`.
    func demoRun(version: String, stop signal: Int32) async throws {
        let demo = try DemoProcess(store: store, arguments: ["--program-version", version])
        #expect(try await demo.wait(for: "press Enter to open the profile screen"))
        // The start screen reads the unregistered key last: once the report lists it, it lists the whole screen.
        #expect(
            try await poll(within: 60) {
                let run = try menu("coverage", "--json")
                guard run.status == 0, let object = try? json(run) else { return false }
                return (object["unregistered"] as? [String])?.isEmpty == false
                    && (object["program"] as? [String: Any])?["pid"] as? Int == Int(demo.pid)
            })
        #expect(try await demo.stop(with: signal))
    }

    @Test("three demo runs: runs per version, values per key, keys never read, --since, --require-both's exit codes")
    func demoRuns() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // 8.1: the server's "y" is rejected, so the demo reads the default, N; the button test is "on".
        try await demoRun(version: "8.1", stop: SIGTERM)
        let secondStarted = Date()
        // 8.2, killed: it read Y.
        #expect(try menu("set", Self.like, "Y").status == 0)
        try await demoRun(version: "8.2", stop: SIGKILL)
        // 8.3: N again, and the button test's "none".
        #expect(try menu("reset", Self.like).status == 0)
        #expect(try menu("set", Self.button, "none").status == 0)
        try await demoRun(version: "8.3", stop: SIGTERM)

        let all = try menu("coverage", "--runs", "--json")
        #expect(all.status == 0)
        let object = try json(all)
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.map { $0["version"] as? String } == ["8.3", "8.2", "8.1"])
        #expect(runs.map { $0["outcome"] as? String } == ["ended", "killed", "ended"])
        #expect(runs.allSatisfy { $0["program"] as? String == "config-demo" })
        #expect((object["programs"] as? [[String: Any]])?.count == 3)
        let keys = try #require(object["keys"] as? [[String: Any]])
        func values(_ name: String) -> [String: Int] {
            let key = keys.first { $0["name"] as? String == name }
            let values = key?["values"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: values.map { ($0["value"] as! String, $0["runs"] as! Int) })
        }
        #expect(values(Self.like) == ["N": 2, "Y": 1])
        #expect(values(Self.button) == ["on": 2, "none": 1])
        let neverRead = (object["neverRead"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(neverRead.contains("function.profile.theme_color"))
        #expect(!neverRead.contains(Self.like))
        #expect((object["neverRead"] as? [[String: Any]])?.first?.keys.contains("owner") == true)

        let text = try menu("coverage", "--runs")
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("3 runs in \(folder.appendingPathComponent("runs").path):\n"))
        #expect(text.output.contains("\(Self.like)"))
        #expect(text.output.contains("\"N\" (2), \"Y\" (1)"))
        #expect(text.output.contains("never read in these runs ("))

        // Both sides across all three runs; not in 8.3 alone.
        let both = try menu("coverage", "--runs", "--require-both", Self.like, Self.button)
        #expect(both.status == 0)
        #expect(both.output.contains("\(Self.like) (bool): every side read"))
        let since = try menu("coverage", "--since", "8.3", "--require-both", Self.like, "--json")
        #expect(since.status == 3)
        #expect(
            since.error
                == "config-menu: --require-both: 1 key not read with every value in 1 run: \(Self.like) (bool) read "
                + "only as \"N\", never as \"Y\"\n")
        let sinceObject = try json(since)
        let exercise = (sinceObject["requireBoth"] as? [[String: Any]])?.first
        #expect(exercise?["missing"] as? [[String]] == [["Y"]])
        #expect(exercise?["exercised"] as? Bool == false)
        #expect((sinceObject["since"] as? [String: Any])?["version"] as? String == "8.3")

        // By date: the runs started since the second one.
        let byDate = try json(try menu("coverage", "--runs", "--json", "--since", Timestamp.format(secondStarted)))
        #expect((byDate["runs"] as? [[String: Any]])?.count == 2)
        #expect(try menu("coverage", "--runs", "--since", "2099-01-01").status == 1)

        // No key named: every overridden Bool or choice key (the button test; the theme colour is text).
        #expect(try menu("set", "function.profile.theme_color", "#FF0000").status == 0)
        let overridden = try menu("coverage", "--runs", "--require-both", "--since", "8.3")
        #expect(overridden.status == 3)
        #expect(overridden.error.contains("\(Self.button) (choice) read only as \"none\", never as \"on\""))
        #expect(
            overridden.output.contains(
                "not checked (overridden, neither Bool nor choice): function.profile.theme_color"))
        #expect(try menu("coverage", "--runs", "--require-both").status == 0)

        // Usage errors name the key or the value.
        let number = try menu("coverage", "--runs", "--require-both", "function.album.max_photos")
        #expect(number.status == 2)
        #expect(
            number.error.contains("function.album.max_photos is a number (integer) key, neither a Bool nor a choice"))
        let unknown = try menu("coverage", "--require-both", "no.such.key")
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no.such.key is not a key of the demo catalog"))
        let badSince = try menu("coverage", "--runs", "--since", "last week")
        #expect(badSince.status == 2)
        #expect(
            badSince.error.contains(
                "--since needs a version like 8.2 or a date like 2026-12-01 (UTC), got \"last week\""))

        // audit: an override no run read (the profile screen's colour: the runs never opened it) is listed with the
        // line that removes it; the button test's override was read in the newest run, so it is not.
        #expect(try menu("set", "function.profile.theme_color", "#06C755").status == 0)
        let audit = try json(try menu("audit", "--json"))
        #expect(audit["judgedRuns"] as? Int == 3)
        let unread = try #require((audit["overrides"] as? [String: [String: Any]])?["unread"])
        #expect(unread["keys"] as? [String] == ["function.profile.theme_color"], "\(unread)")
        #expect(
            (unread["remove"] as? String)?.hasSuffix("reset --store \(store.path) function.profile.theme_color") == true
        )
        let lastRun = try menu("audit", "--last-runs", "1")
        #expect(
            lastRun.output.contains("Overrides no program read in the last 1 run (1):\n  function.profile.theme_color"),
            "\(lastRun.output)")
        #expect(try menu("audit", "--last-runs", "0").status == 2)
    }

    @Test("an empty history exits 1 naming it; an unreadable run is a warning naming the file")
    func emptyAndHostileHistory() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let none = try menu("coverage", "--runs")
        #expect(none.status == 1)
        #expect(none.error.contains("no finished run in the run history \(folder.appendingPathComponent("runs").path)"))
        let runs = folder.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        chmod(runs.path, 0o700)
        let broken = runs.appendingPathComponent("20261201T000000000Z-broken-1-1.json")
        try Data("{\"format\": 1".utf8).write(to: broken)
        let warned = try menu("coverage", "--runs")
        #expect(warned.status == 1)
        #expect(warned.error.contains("warning: unreadable run \(broken.path): "))
    }
}
