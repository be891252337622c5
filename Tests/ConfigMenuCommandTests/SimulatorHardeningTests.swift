import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the real `config-menu` in exactly `environment`, killed (and the test failed) if it has not finished within
/// `seconds`; also returns how long it ran.
func configMenu(
    _ arguments: [String], environment: [String: String], killAfter seconds: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> (run: ToolRun, seconds: Double) {
    let run = try runTool(
        "config-menu", arguments, environment: .exactly(environment), timeout: seconds, timeoutSignal: SIGKILL)
    if run.timedOut {
        Issue.record("config-menu \(arguments) still ran after \(seconds) s; killed", sourceLocation: sourceLocation)
    }
    return (run, run.seconds)
}

/// Whether process `pid` is gone (or a zombie nobody reaped yet), polling up to `seconds`.
func processGone(_ pid: pid_t, within seconds: Double = 10) async throws -> Bool {
    await poll(within: seconds) {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }
}

/// A hostile app in the simulator, and an xcrun that misbehaves: the printed commands run nothing, the tool's wait
/// is bounded whatever xcrun does, and what xcrun prints reaches the terminal escaped.
@Suite("config-menu and a hostile simulator or xcrun", .serialized)
struct SimulatorHardeningTests {
    let iPhone = "iPhone 16 Pro"
    let iPhoneID = "5A1B2C3D-0000-4000-8000-000000000001"

    /// An `xcrun` of the test's own, first on `PATH`: a shell script.
    func fakeXcrun(_ script: String, in simulators: FakeSimulators) throws -> [String: String] {
        let bin = simulators.root.appendingPathComponent("hostile-bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Self.writeExecutable("#!/bin/sh\n" + script, to: bin.appendingPathComponent("xcrun"))
        var environment = try simulators.environment(timeout: 1)
        environment["PATH"] = "\(bin.path):/usr/bin:/bin"
        return environment
    }

    /// Writes the script `text` as an executable at `url`, through `install` in a process of its own. Written from
    /// this test process, the file's descriptor can be inherited by a child another suite spawns at that moment, and
    /// running the script then fails with "Text file busy" (ETXTBSY) while that child lives (seen in a CI
    /// rehearsal); `install` writes it where nothing else forks.
    static func writeExecutable(_ text: String, to url: URL) throws {
        let source = url.appendingPathExtension("source")
        try Data(text.utf8).write(to: source)
        let install = try ChildProcess.run("/usr/bin/install", ["-m", "0755", source.path, url.path])
        try #require(install.status == 0, "install \(url.path): \(install.error)")
    }

    func pids(in file: URL) -> [pid_t] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap {
            pid_t($0)
        }
    }

    @Test("an xcrun that exits but leaves a grandchild holding its output: the tool returns at once and stops it")
    func grandchildHoldsOutput() async throws {
        let simulators = try FakeSimulators()
        let pidFile = simulators.root.appendingPathComponent("pids")
        let environment = try fakeXcrun(
            """
            sleep 300 &
            echo $! > '\(pidFile.path)'
            echo '{"devices": {}}'
            exit 0
            """, in: simulators)
        let (result, seconds) = try configMenu(
            ["list", "--simulator", "com.example.shop"], environment: environment, killAfter: 60)
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("no simulator is booted"), "xcrun's answer was read: \(result.error)")
        #expect(seconds < 10, "took \(seconds) s")
        let grandchild = try #require(pids(in: pidFile).first)
        #expect(try await processGone(grandchild), "the grandchild was stopped with its group")
        kill(grandchild, SIGKILL)
    }

    @Test("an xcrun that ignores SIGTERM (and its child that holds the output): stopped at the deadline, SIGKILL")
    func ignoresTerminate() async throws {
        let simulators = try FakeSimulators()
        let pidFile = simulators.root.appendingPathComponent("pids")
        let environment = try fakeXcrun(
            """
            trap '' TERM
            echo $$ > '\(pidFile.path)'
            sleep 300 &
            echo $! >> '\(pidFile.path)'
            wait
            """, in: simulators)
        let (result, seconds) = try configMenu(
            ["set", "function.album.like.enabled", "N", "--simulator", "com.example.shop"], environment: environment,
            killAfter: 60)
        #expect(result.status == 4, "\(result.error)")
        #expect(result.error.contains("xcrun simctl list devices --json did not answer within 1 s and was stopped"))
        #expect(seconds < 10, "took \(seconds) s")
        let stopped = pids(in: pidFile)
        #expect(stopped.count == 2)
        for pid in stopped {
            #expect(try await processGone(pid), "pid \(pid) was stopped")
            kill(pid, SIGKILL)
        }
    }

    @Test("a container path from xcrun holding a newline reaches standard error escaped, on one line")
    func newlineInPath() throws {
        let simulators = try FakeSimulators()
        try simulators.addDevice(iPhone, udid: iPhoneID, apps: [("com.example.shop", "Shop")])
        simulators.state.devices[0].apps[0].dataContainer = "/tmp/app\nconfig-menu: all is well"
        let result = try simulators.run(["list", "--simulator", "com.example.shop"])
        #expect(result.status == 4)
        #expect(result.error.contains(#"(it starts with "/tmp/app\nconfig-menu: all is well")"#), "\(result.error)")
        #expect(result.error.filter { $0 == "\n" }.count == 1, "one line: \(result.error)")
    }

    @Test("simulators prints each command line quoted for the shell: pasted, it runs nothing the app's names hold")
    func printedCommandsAreQuoted() throws {
        let simulators = try FakeSimulators()
        let bundleID = "com.evil$(touch PWN-bundle)"
        try simulators.addDevice(iPhone, udid: iPhoneID, apps: [(bundleID, "Evil")])
        let names = ["$(touch PWN-name)", "`touch PWN-tick`", "it's; touch PWN-quote", "plain"]
        for name in names {
            let store = simulators.store(of: bundleID, on: iPhone, appName: name)
            try FileManager.default.createDirectory(
                at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"format": "service-configuration-overrides", "version": 1, "overrides": {}}"#.utf8).write(
                to: store)
        }
        let listing = try simulators.run(["simulators"])
        #expect(listing.status == 0, "\(listing.error)")
        let commands = listing.output.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("    config-menu ")
        }
        #expect(commands.count == names.count, "\(listing.output)")

        // Each line run as a person pasting it would: a `config-menu` on PATH that records its arguments.
        let bin = simulators.root.appendingPathComponent("recording-bin", isDirectory: true)
        let work = simulators.root.appendingPathComponent("work", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let recorded = simulators.root.appendingPathComponent("arguments")
        try Self.writeExecutable(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(recorded.path)'\nprintf -- '--\\n' >> '\(recorded.path)'\n",
            to: bin.appendingPathComponent("config-menu"))
        for command in commands {
            let shell = try ChildProcess.run(
                "/bin/sh", ["-c", command], environment: .exactly(["PATH": "\(bin.path):/usr/bin:/bin"]),
                directory: work.path)
            #expect(shell.status == 0, "\(command)")
        }
        let calls = ((try? String(contentsOf: recorded, encoding: .utf8)) ?? "").components(separatedBy: "--\n")
            .dropLast().map { $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        #expect(
            Set(calls) == Set(names.map { ["--simulator", bundleID, "--app-name", $0] }),
            "the app's names arrive as one argument each, unchanged")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty,
            "nothing ran: no PWN file")
        #expect(!FileManager.default.fileExists(atPath: simulators.root.appendingPathComponent("PWN-name").path))
    }
}
