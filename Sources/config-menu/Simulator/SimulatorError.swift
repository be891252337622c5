import ServiceConfiguration
import ServiceConfigurationFileStore

/// Why the simulator app's store could not be found. Each message says what to do.
enum SimulatorError: Error, CustomStringConvertible {
    /// `xcrun` is not on `PATH`: not a Mac, or no developer tools.
    case noXcrun
    /// `xcrun` is there, but it failed, hung, or answered something unexpected.
    case xcrunFailed(command: String, status: Int32, message: String)
    case timedOut(command: String, seconds: Int)
    case unexpectedOutput(String, String)
    case noBootedDevice(all: [SimulatorDevice])
    case severalBootedDevices([SimulatorDevice])
    case unknownDevice(String, booted: [SimulatorDevice])
    case ambiguousDevice(String, matches: [SimulatorDevice])
    case deviceNotBooted(SimulatorDevice)
    case notInstalled(bundleID: String, device: SimulatorDevice)
    case noStore(bundleID: String, support: String)
    case severalStores(bundleID: String, names: [String])
    case badAppName(String)
    case containerMissing(String)
    /// A symbolic link inside the app's container, on the way to its stores.
    case linkInContainer(String)

    var code: ExitCode {
        switch self {
        case .severalBootedDevices, .unknownDevice, .ambiguousDevice, .badAppName: .usage
        case .xcrunFailed, .timedOut, .unexpectedOutput, .linkInContainer: .ioFailure
        default: .failure
        }
    }

    var description: String {
        func list(_ devices: [SimulatorDevice]) -> String {
            devices.map { "\n  " + $0.summary }.joined()
        }
        switch self {
        case .noXcrun:
            return "--simulator needs xcrun (Xcode's command-line tools), and there is no xcrun on PATH: it works "
                + "on a Mac with Xcode installed (xcode-select --install). Elsewhere, copy the store file over and "
                + "pass --store FILE"
        case .xcrunFailed(let command, let status, let message):
            return "\(command) failed (exit status \(status))"
                + (message.isEmpty ? "" : ": \(message)")
                + (status == 72
                    ? " (is Xcode selected? xcode-select -p; sudo xcode-select -s /Applications/Xcode.app)" : "")
        case .timedOut(let command, let seconds):
            return "\(command) did not answer within \(seconds) s and was stopped; is the simulator service "
                + "stuck? (try again, or restart Simulator)"
        case .unexpectedOutput(let command, let start):
            return "\(command) printed something this tool does not understand (it starts with "
                + "\"\(VisibleText.escaped(start))\"); "
                + "nothing was changed"
        case .noBootedDevice(let all):
            return "no simulator is booted: start one in Simulator (or xcrun simctl boot UDID), then try again"
                + (all.isEmpty ? "" : "; or pass --device UDID to name one of the \(all.count) devices")
        case .severalBootedDevices(let devices):
            return "\(devices.count) simulators are booted; pick one with --device UDID:" + list(devices)
        case .unknownDevice(let device, let booted):
            return "no simulator device \"\(device)\" (--device takes a UDID or a device name)"
                + (booted.isEmpty ? "; none is booted" : "; booted:" + list(booted))
        case .ambiguousDevice(let device, let matches):
            return "\(matches.count) devices are named \"\(device)\"; pick one by UDID with --device:" + list(matches)
        case .deviceNotBooted(let device):
            return "\(device.name) (\(device.udid)) is \(device.state), not booted: boot it (open it in Simulator, "
                + "or xcrun simctl boot \(device.udid)), then try again"
        case .notInstalled(let bundleID, let device):
            return "\(bundleID) is not installed on \(device.name) (\(device.runtimeName), \(device.udid)): run it "
                + "there from Xcode (or xcrun simctl install \(device.udid) App.app); `config-menu simulators` lists "
                + "the apps that have a store"
        case .noStore(let bundleID, let support):
            return "\(bundleID) has no override store yet (no \(support)/*/overrides.json; an app writes its store "
                + "when an override is first set), so its name is unknown: pass --app-name NAME (the appName the app "
                + "gives FileOverrideStore.defaultURL) to create \(support)/NAME/overrides.json"
        case .severalStores(let bundleID, let names):
            return "\(bundleID) has \(names.count) override stores (in Library/Application Support: "
                + names.joined(separator: ", ") + "); pick one with --app-name NAME"
        case .badAppName(let name):
            return "--app-name needs a folder name such as my-app, got \"\(name)\""
        case .linkInContainer(let problem):
            return problem
        case .containerMissing(let path):
            return "the app's data container \(path) does not exist or is not a folder (was the app just "
                + "uninstalled?)"
        }
    }
}
