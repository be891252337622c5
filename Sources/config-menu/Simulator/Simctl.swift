import Foundation

/// `xcrun simctl`, the three questions the tool asks it: the devices, an app's data container, the installed apps.
///
/// Every call is bounded (``timeout``): a simulator service that hangs stops the command with a message rather than
/// holding it forever. The tests put a fake `xcrun` first on `PATH` (Tests/ConfigMenuCommandTests/Fixtures/
/// FakeXcrun) that answers and fails like the real one.
struct Simctl {
    let xcrun: Subprocess
    var timeout: Duration

    /// The environment variable that changes ``timeout`` (seconds; default 60), for slow machines and tests.
    static let timeoutVariable = "CONFIG_MENU_XCRUN_TIMEOUT"

    /// Finds `xcrun` on `PATH`, or throws ``SimulatorError/noXcrun``.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let xcrun = Subprocess.find("xcrun", path: environment["PATH"]) else { throw SimulatorError.noXcrun }
        self.xcrun = Subprocess(executable: xcrun)
        let seconds = environment[Self.timeoutVariable].flatMap(Double.init).map { min(max($0, 0.5), 3600) } ?? 60
        timeout = .milliseconds(Int64(seconds * 1000))
    }

    /// Every device simctl knows (booted or not), sorted by name.
    func devices() throws -> [SimulatorDevice] {
        try SimulatorDevice.parseList(run(["list", "devices", "--json"]).output)
    }

    /// The data container of `bundleID` on `device` (`get_app_container DEVICE BUNDLE_ID data`).
    func dataContainer(of bundleID: String, on device: SimulatorDevice) throws -> URL {
        let arguments = ["get_app_container", device.udid, bundleID, "data"]
        let result = try run(arguments, check: false)
        guard result.status == 0 else {
            let message = result.errorText
            // simctl answers an app that is not installed with NSPOSIXErrorDomain code 2 ("No such file or
            // directory").
            if message.contains("NSPOSIXErrorDomain, code=2") || message.contains("No such file or directory") {
                throw SimulatorError.notInstalled(bundleID: bundleID, device: device)
            }
            throw SimulatorError.xcrunFailed(
                command: "xcrun simctl " + arguments.joined(separator: " "), status: result.status, message: message)
        }
        let path = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard path.hasPrefix("/"), !path.contains("\n") else {
            throw SimulatorError.unexpectedOutput(
                "xcrun simctl " + arguments.joined(separator: " "), String(path.prefix(200)))
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The apps installed on `device` (`listapps DEVICE`), sorted by bundle ID.
    func apps(on device: SimulatorDevice) throws -> [SimulatorApp] {
        try SimulatorApp.parseList(run(["listapps", device.udid]).output)
    }

    /// Runs `xcrun simctl ARGUMENTS`; with `check`, a non-zero exit status throws with simctl's message.
    private func run(_ arguments: [String], check: Bool = true) throws -> Subprocess.Result {
        let command = "xcrun simctl " + arguments.joined(separator: " ")
        let result: Subprocess.Result
        do {
            result = try xcrun.run(["simctl"] + arguments, timeout: timeout)
        } catch Subprocess.Failure.timedOut(let seconds) {
            throw SimulatorError.timedOut(command: command, seconds: seconds)
        } catch Subprocess.Failure.outputTooLarge(let limit) {
            throw SimulatorError.unexpectedOutput(command, "more than \(limit >> 20) MiB")
        } catch Subprocess.Failure.launch(let reason) {
            throw SimulatorError.xcrunFailed(command: command, status: -1, message: reason)
        }
        if check, result.status != 0 {
            throw SimulatorError.xcrunFailed(command: command, status: result.status, message: result.errorText)
        }
        return result
    }
}
