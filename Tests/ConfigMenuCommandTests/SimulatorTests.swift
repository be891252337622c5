import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// `config-menu --simulator BUNDLE_ID` and `config-menu simulators`, the whole path: the real binary, a fake `xcrun`
/// on `PATH` that answers and fails like `xcrun simctl`, and real data containers in a temporary folder.
@Suite("config-menu and the iOS Simulator (a fake xcrun)", .serialized)
struct SimulatorTests {
    let shop = "com.example.shop"
    let iPhone = "iPhone 16 Pro"
    let iPhoneID = "5A1B2C3D-0000-4000-8000-000000000001"
    let iPadID = "5A1B2C3D-0000-4000-8000-000000000002"

    /// One booted iPhone with the shop app installed (no store yet), and a shut-down iPad.
    func machine() throws -> FakeSimulators {
        let simulators = try FakeSimulators()
        try simulators.addDevice(iPhone, udid: iPhoneID, apps: [(shop, "Shop"), ("com.example.notes", "Notes")])
        try simulators.addDevice("iPad Air", udid: iPadID, state: "Shutdown", apps: [(shop, "Shop")])
        return simulators
    }

    @Test("set, get, list, reset and export reach the app's store in its data container, Application Support")
    func commandsReachTheStore() throws {
        let simulators = try machine()
        let store = simulators.store(of: shop, on: iPhone, appName: "shop")

        let set = try simulators.run(
            ["set", "function.album.like.enabled", "N", "--simulator", shop, "--app-name", "shop"])
        #expect(set.status == 0, "\(set.error)")
        #expect(set.output.contains("function.album.like.enabled = N (overridden"))
        let text = try String(contentsOf: store, encoding: .utf8)
        #expect(text.contains(#""function.album.like.enabled""#) && text.contains(#""value": "N""#))
        #expect(
            simulators.calls == [
                "simctl list devices --json", "simctl get_app_container \(iPhoneID) \(shop) data",
            ])

        // Now that the store exists, the tool finds it without --app-name.
        let get = try simulators.run(["get", "function.album.like.enabled", "--simulator", shop, "--json"])
        #expect(get.status == 0, "\(get.error)")
        #expect(get.output.contains(#""source":"overridden""#) || get.output.contains(#""source": "overridden""#))
        let list = try simulators.run(["list", "--overridden", "--simulator", shop])
        #expect(list.output.contains("function.album.like.enabled") && list.output.contains("OVERRIDDEN"))
        let export = try simulators.run(["export", "--simulator", shop])
        #expect(export.output.contains(#""value": "N""#))
        let reset = try simulators.run(["reset", "--all", "--simulator", shop, "--device", iPhone])
        #expect(reset.status == 0, "\(reset.error)")
        #expect(!(try String(contentsOf: store, encoding: .utf8)).contains("function.album.like.enabled"))
    }

    @Test("files beside the store follow it: sync writes server-snapshot.json into the container, status reads it")
    func snapshotFollowsTheStore() throws {
        let simulators = try machine()
        let store = simulators.store(of: shop, on: iPhone, appName: "shop")
        let server = try FixtureHTTPServer(values: ["function.chat.typing_interval_ms": "3500"])
        defer { server.stop() }
        let sync = try simulators.run(
            ["sync", "--server-url", server.url().absoluteString, "--simulator", shop, "--app-name", "shop"])
        #expect(sync.status == 0, "\(sync.error)")
        let snapshot = store.deletingLastPathComponent().appendingPathComponent("server-snapshot.json")
        #expect(FileManager.default.fileExists(atPath: snapshot.path))
        let status = try simulators.run(["status", "--simulator", shop, "--app-name", "shop"])
        #expect(status.status == 0, "\(status.error)")
        #expect(status.output.contains("snapshot:      \(snapshot.path)"))
    }

    @Test("the app in the simulator (polling, as off Linux) sees a change made with --simulator, live")
    func liveReload() async throws {
        let simulators = try machine()
        let store = simulators.store(of: shop, on: iPhone, appName: "shop")
        let app = try DemoProcess(arguments: ["--store", store.path, "--poll"])
        func printed() -> String { app.printed }
        #expect(await poll(within: 30) { printed().contains("album like button: hidden") })

        let set = try simulators.run(
            ["set", "function.album.like.enabled", "Y", "--simulator", shop, "--app-name", "shop"])
        #expect(set.status == 0, "\(set.error)")
        #expect(
            await poll(within: 30) {
                printed().contains("function.album.like.enabled: N") && printed().contains("-> Y")
            })
        #expect(await poll(within: 30) { printed().contains("album like button: shown") })
    }

    // MARK: Choosing the device and the store

    @Test("several booted devices without --device: exit 2 and the list; --device picks one by UDID or by name")
    func severalBooted() throws {
        let simulators = try machine()
        try simulators.addDevice("iPhone SE", udid: "5A1B2C3D-0000-4000-8000-000000000003", apps: [(shop, "Shop")])
        let refused = try simulators.run(["list", "--simulator", shop, "--app-name", "shop"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("2 simulators are booted; pick one with --device UDID:"))
        #expect(refused.error.contains("  iPhone 16 Pro (iOS 18.2) \(iPhoneID)"))
        #expect(refused.error.contains("  iPhone SE (iOS 18.2) 5A1B2C3D-0000-4000-8000-000000000003"))
        #expect(refused.output.isEmpty)

        for device in ["iPhone SE", "5a1b2c3d-0000-4000-8000-000000000003"] {
            let set = try simulators.run(
                [
                    "set", "function.chat.typing_interval_ms", "900", "--simulator", shop, "--device", device,
                    "--app-name", "shop",
                ])
            #expect(set.status == 0, "\(set.error)")
        }
        let chosen = simulators.store(of: shop, on: "iPhone SE", appName: "shop")
        #expect(FileManager.default.fileExists(atPath: chosen.path))
        #expect(!FileManager.default.fileExists(atPath: simulators.store(of: shop, on: iPhone, appName: "shop").path))
    }

    @Test("no booted device, a device that is shut down, an unknown device: each says what to do")
    func deviceErrors() throws {
        let simulators = try FakeSimulators()
        try simulators.addDevice("iPad Air", udid: iPadID, state: "Shutdown", apps: [(shop, "Shop")])
        let none = try simulators.run(["list", "--simulator", shop])
        #expect(none.status == 1)
        #expect(
            none.error.contains(
                "no simulator is booted: start one in Simulator (or xcrun simctl boot UDID), then try again"))

        let shutDown = try simulators.run(["list", "--simulator", shop, "--device", iPadID])
        #expect(shutDown.status == 1)
        #expect(
            shutDown.error.contains(
                "iPad Air (\(iPadID)) is Shutdown, not booted: boot it (open it in Simulator, or xcrun simctl boot "
                    + "\(iPadID)), then try again"))

        let unknown = try simulators.run(["list", "--simulator", shop, "--device", "iPhone 99"])
        #expect(unknown.status == 2)
        #expect(
            unknown.error.contains(
                "no simulator device \"iPhone 99\" (--device takes a UDID or a device name); none is booted"))
    }

    @Test("an app that is not installed names the device; `simulators` is suggested")
    func notInstalled() throws {
        let simulators = try machine()
        let result = try simulators.run(["get", "function.album.like.enabled", "--simulator", "com.example.missing"])
        #expect(result.status == 1)
        #expect(
            result.error.contains(
                "com.example.missing is not installed on iPhone 16 Pro (iOS 18.2, \(iPhoneID)): run it there from "
                    + "Xcode (or xcrun simctl install \(iPhoneID) App.app)"))
        #expect(result.output.isEmpty)
    }

    @Test("no store yet: --app-name is asked for; several stores: they are listed")
    func storeChoice() throws {
        let simulators = try machine()
        let container = simulators.container(of: shop, on: iPhone)
        let none = try simulators.run(["list", "--simulator", shop])
        #expect(none.status == 1)
        #expect(
            none.error.contains(
                "com.example.shop has no override store yet (no \(container.path)/Library/Application Support/*/overrides.json;"
            ))
        #expect(none.error.contains("pass --app-name NAME"))

        for name in ["shop", "shop-staging"] {
            let store = simulators.store(of: shop, on: iPhone, appName: name)
            try FileManager.default.createDirectory(
                at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"format": "service-configuration-overrides", "version": 1, "overrides": {}}"#.utf8).write(
                to: store)
        }
        let several = try simulators.run(["list", "--simulator", shop])
        #expect(several.status == 1)
        #expect(
            several.error.contains(
                "com.example.shop has 2 override stores (in Library/Application Support: shop, shop-staging); pick one "
                    + "with --app-name NAME"))
        let picked = try simulators.run(["list", "--overridden", "--simulator", shop, "--app-name", "shop-staging"])
        #expect(picked.status == 0, "\(picked.error)")

        let hostile = try simulators.run(["list", "--simulator", shop, "--app-name", "../../etc"])
        #expect(hostile.status == 2)
        #expect(hostile.error.contains("--app-name needs a folder name such as my-app, got \"../../etc\""))
    }

    // MARK: When xcrun cannot help

    @Test("not on a Mac (no xcrun on PATH): exit 1 and what to do instead")
    func noXcrun() throws {
        let simulators = try machine()
        let result = try simulators.run(["list", "--simulator", shop], xcrun: false)
        #expect(result.status == 1)
        #expect(
            result.error.contains("--simulator needs xcrun (Xcode's command-line tools), and there is no xcrun on PATH")
        )
        #expect(result.error.contains("pass --store FILE"))
        #expect(simulators.calls.isEmpty)
    }

    @Test("xcrun without simctl, a hung simctl, output that is not JSON: exit 4, nothing written")
    func xcrunFailures() throws {
        let simulators = try machine()
        simulators.state.simctl = false
        let noSimctl = try simulators.run(["set", "function.album.like.enabled", "N", "--simulator", shop])
        #expect(noSimctl.status == 4)
        #expect(
            noSimctl.error.contains(
                "xcrun simctl list devices --json failed (exit status 72): xcrun: error: unable to find utility "
                    + "\"simctl\", not a developer tool or in PATH (is Xcode selected?"))

        simulators.state.simctl = true
        simulators.state.garbage = true
        let garbage = try simulators.run(["set", "function.album.like.enabled", "N", "--simulator", shop])
        #expect(garbage.status == 4)
        #expect(
            garbage.error.contains(
                "xcrun simctl list devices --json printed something this tool does not understand (it starts with "
                    + "\"<html>Service Unavailable</html>"))

        simulators.state.garbage = false
        simulators.state.hang = true
        let started = Date()
        let hung = try simulators.run(
            ["set", "function.album.like.enabled", "N", "--simulator", shop], timeout: 1)
        #expect(hung.status == 4)
        #expect(hung.error.contains("xcrun simctl list devices --json did not answer within 1 s and was stopped"))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(!FileManager.default.fileExists(atPath: simulators.store(of: shop, on: iPhone, appName: "shop").path))
    }

    @Test("usage: --simulator with --store, --device or --app-name without --simulator, an empty bundle ID")
    func usage() throws {
        let simulators = try machine()
        let both = try simulators.run(["list", "--simulator", shop, "--store", "/tmp/x.json"])
        #expect(both.status == 2)
        #expect(both.error.contains("--simulator and --store are alternatives: give one"))
        let orphan = try simulators.run(["list", "--device", iPhoneID])
        #expect(orphan.status == 2)
        #expect(orphan.error.contains("--device needs --simulator BUNDLE_ID"))
        let empty = try simulators.run(["list", "--simulator", ""])
        #expect(empty.status == 2)
        #expect(empty.error.contains("--simulator needs an app's bundle ID such as com.example.shop, got \"\""))
        #expect(simulators.calls.isEmpty)
    }

    // MARK: simulators

    @Test("simulators: booted devices, the apps whose container holds a store, their override counts and commands")
    func listing() throws {
        let simulators = try machine()
        #expect(
            try simulators.run(
                ["set", "function.album.like.enabled", "N", "--simulator", shop, "--app-name", "shop"]
            ).status == 0)
        let text = try simulators.run(["simulators"])
        #expect(text.status == 0, "\(text.error)")
        let store = simulators.store(of: shop, on: iPhone, appName: "shop")
        #expect(
            text.output == """
                iPhone 16 Pro (iOS 18.2) \(iPhoneID)
                  com.example.shop (Shop): 1 override
                    \(store.path)
                    config-menu --simulator com.example.shop

                """)

        let json = try simulators.run(["simulators", "--json"])
        let devices = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(devices.count == 1)
        #expect(devices.first?["udid"] as? String == iPhoneID)
        #expect(devices.first?["runtime"] as? String == "iOS 18.2")
        let apps = try #require(devices.first?["apps"] as? [[String: Any]])
        #expect(apps.map { $0["bundleID"] as? String } == [shop])
        let stores = try #require(apps.first?["stores"] as? [[String: Any]])
        #expect(stores.first?["path"] as? String == store.path)
        #expect(stores.first?["overrides"] as? Int == 1)
    }

    @Test("simulators: none booted, and device names and bundle IDs with control characters are shown escaped")
    func listingEdgeCases() throws {
        let none = try FakeSimulators()
        try none.addDevice("iPad Air", state: "Shutdown")
        let empty = try none.run(["simulators"])
        #expect(empty.status == 0)
        #expect(empty.output == "no simulator is booted (start one in Simulator, or xcrun simctl boot UDID)\n")
        #expect(try none.run(["simulators", "--json"]).output == "[]\n")

        let hostile = try FakeSimulators()
        try hostile.addDevice("QA\u{1B}[2J phone", udid: iPhoneID, apps: [("com.evil\u{7}app", "Evil")])
        let container = hostile.container(of: "com.evil\u{7}app", on: "QA\u{1B}[2J phone")
        let store = container.appendingPathComponent("Library/Application Support/evil/overrides.json")
        try FileManager.default.createDirectory(
            at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: store)
        let result = try hostile.run(["simulators"])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.contains("\u{1B}") && !result.output.contains("\u{7}"))
        #expect(result.output.contains("QA\\u{001B}[2J phone"))
        #expect(result.output.contains("unreadable: "))
        #expect(try Data(contentsOf: store) == Data("not json".utf8))
    }
}

@Suite(
    "config-menu --simulator opens the menu on the app's store (tmux)", .serialized,
    .enabled(if: TmuxSession.isUsable, TmuxSession.requirement))
struct SimulatorMenuTests {
    @Test("the menu shows the simulator app's override, and a change made in it lands in the app's container")
    func menu() async throws {
        let simulators = try FakeSimulators()
        try simulators.addDevice("iPhone 16 Pro", apps: [("com.example.shop", "Shop")])
        let store = simulators.store(of: "com.example.shop", on: "iPhone 16 Pro", appName: "shop")
        #expect(
            try simulators.run(
                [
                    "set", "function.chat.typing_interval_ms", "777", "--simulator", "com.example.shop", "--app-name",
                    "shop",
                ]
            ).status == 0)
        let environment = try simulators.environment()
        let session = try TmuxSession(
            width: 120, height: 30,
            environment: ["PATH": environment["PATH"]!, "FAKE_XCRUN_STATE": environment["FAKE_XCRUN_STATE"]!])
        try session.run("\(TmuxSession.binary) --simulator com.example.shop")
        try session.press("/")
        try session.type("typing interval")
        try session.press("Enter")
        try await session.waitFor("777")
        try await session.waitFor("OVERRIDDEN")
        try session.press("Enter", "C-u")
        try session.type("888")
        try session.press("Enter")
        try await session.waitFor("Saved: function.chat.typing_interval_ms = 888")
        #expect(
            try await session.waitUntil { (try? String(contentsOf: store, encoding: .utf8))?.contains("888") == true })
        try session.press("q")
        try await session.waitForMenuExit()
    }
}
