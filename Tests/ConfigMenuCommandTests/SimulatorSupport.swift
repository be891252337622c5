import Foundation
import ServiceConfiguration
import SharedTestSupport

/// A simulated Mac for `config-menu --simulator`: simulator devices and their apps' data containers in a temporary
/// folder, described to the fake `xcrun` (Fixtures/FakeXcrun/xcrun) that the tool finds first on `PATH`.
final class FakeSimulators {
    struct App: Codable {
        var bundleID: String
        var name: String
        var type = "User"
        var dataContainer: String?
        var bundlePath: String?
    }

    struct Device: Codable {
        var udid: String
        var name: String
        var runtime = "com.apple.CoreSimulator.SimRuntime.iOS-18-2"
        var state = "Booted"
        var apps: [App] = []
    }

    struct State: Codable {
        var devices: [Device] = []
        var simctl = true
        var hang = false
        var garbage = false
    }

    /// The folder of the fake `xcrun`.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/FakeXcrun", isDirectory: true)

    let root = FileManager.default.temporaryDirectory.appendingPathComponent("fake-simulators-\(UUID().uuidString)")
    var state = State()
    var log: URL { root.appendingPathComponent("xcrun.log") }
    private var stateFile: URL { root.appendingPathComponent("state.json") }

    init() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Adds a device; its apps get data containers (created) under the device's folder.
    @discardableResult
    func addDevice(
        _ name: String, udid: String = UUID().uuidString, state deviceState: String = "Booted",
        apps: [(bundleID: String, name: String)] = []
    ) throws -> Device {
        var device = Device(udid: udid, name: name, state: deviceState)
        for app in apps {
            let container = root.appendingPathComponent("Devices/\(udid)/data/Containers/Data/Application")
                .appendingPathComponent(UUID().uuidString, isDirectory: true)
            try FileManager.default.createDirectory(
                at: container.appendingPathComponent("Library/Caches"), withIntermediateDirectories: true)
            device.apps.append(
                App(
                    bundleID: app.bundleID, name: app.name, dataContainer: container.path,
                    bundlePath: root.appendingPathComponent("Bundles/\(app.name).app").path))
        }
        state.devices.append(device)
        return device
    }

    /// The data container of `bundleID` on the device named `device`.
    func container(of bundleID: String, on device: String) -> URL {
        let path = state.devices.first { $0.name == device }!.apps.first { $0.bundleID == bundleID }!.dataContainer!
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The store `<container>/Library/Application Support/<app>/overrides.json` of `bundleID` on `device`.
    func store(of bundleID: String, on device: String, appName: String) -> URL {
        container(of: bundleID, on: device).appendingPathComponent("Library/Application Support/\(appName)")
            .appendingPathComponent("overrides.json")
    }

    /// The environment the tool runs in: the fake `xcrun` first on `PATH` (or no `xcrun` at all).
    func environment(xcrun: Bool = true, timeout: Double? = nil) throws -> [String: String] {
        try JSONEncoder().encode(state).write(to: stateFile)
        var environment = ProcessInfo.processInfo.environment
        // Without xcrun, PATH holds only an empty folder: a Mac running these tests must not find its real xcrun.
        let empty = root.appendingPathComponent("empty-bin", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        environment["PATH"] = xcrun ? "\(Self.fixture.path):/usr/bin:/bin" : empty.path
        environment["FAKE_XCRUN_STATE"] = stateFile.path
        environment["FAKE_XCRUN_LOG"] = log.path
        environment["HOME"] = root.path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        environment.removeValue(forKey: "CONFIG_OVERRIDES_FILE")
        if let timeout { environment["CONFIG_MENU_XCRUN_TIMEOUT"] = String(timeout) }
        return environment
    }

    /// The `xcrun` calls made so far, one per line.
    var calls: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Runs the real `config-menu` against these simulators.
    func run(_ arguments: [String], xcrun: Bool = true, timeout: Double? = nil) throws -> ToolRun {
        try configMenu(arguments, environment: .exactly(environment(xcrun: xcrun, timeout: timeout)))
    }
}
