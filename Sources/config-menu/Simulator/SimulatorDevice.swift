import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// One simulator device, as `xcrun simctl list devices --json` describes it.
struct SimulatorDevice: Equatable {
    var udid: String
    var name: String
    /// The runtime identifier, for example `com.apple.CoreSimulator.SimRuntime.iOS-18-2`.
    var runtime: String
    /// `Booted`, `Shutdown`, `Booting`, `Shutting Down`, ...
    var state: String

    var isBooted: Bool { state == "Booted" }

    /// The runtime for people: `iOS 18.2` for `com.apple.CoreSimulator.SimRuntime.iOS-18-2` (an identifier of
    /// another shape is shown as it is).
    var runtimeName: String {
        let prefix = "com.apple.CoreSimulator.SimRuntime."
        guard runtime.hasPrefix(prefix) else { return runtime }
        let parts = runtime.dropFirst(prefix.count).split(separator: "-")
        guard let platform = parts.first, parts.count > 1 else { return String(runtime.dropFirst(prefix.count)) }
        return "\(platform) \(parts.dropFirst().joined(separator: "."))"
    }

    /// One line for lists: `iPhone 16 Pro (iOS 18.2) 5A1B…`, with the state when not booted.
    var summary: String {
        VisibleText.escaped("\(name) (\(runtimeName)) \(udid)" + (isBooted ? "" : " [\(state)]"))
    }

    /// The devices of `simctl list devices --json` output: `{"devices": {runtime: [{udid, name, state, ...}]}}`.
    /// Entries without a UDID, name or state are skipped; output of another shape throws.
    static func parseList(_ data: Data) throws -> [SimulatorDevice] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let byRuntime = root["devices"] as? [String: Any]
        else {
            throw SimulatorError.unexpectedOutput(
                "xcrun simctl list devices --json", String(decoding: data.prefix(200), as: UTF8.self))
        }
        var devices: [SimulatorDevice] = []
        for (runtime, entries) in byRuntime {
            for case let entry as [String: Any] in (entries as? [Any]) ?? [] {
                guard let udid = entry["udid"] as? String, let name = entry["name"] as? String,
                    let state = entry["state"] as? String
                else { continue }
                devices.append(SimulatorDevice(udid: udid, name: name, runtime: runtime, state: state))
            }
        }
        return devices.sorted { ($0.name, $0.runtime, $0.udid) < ($1.name, $1.runtime, $1.udid) }
    }
}

/// An app installed on a simulator device, as `xcrun simctl listapps DEVICE` describes it.
struct SimulatorApp: Equatable {
    var bundleID: String
    /// The display name, else the bundle name, else the bundle ID.
    var name: String
    /// `User` for apps installed by a developer, `System` for Apple's.
    var type: String
    /// The app's data container, where its sandbox (and its override store) lives.
    var dataContainer: URL?

    /// The apps of `simctl listapps` output, an old-style (OpenStep) property list keyed by bundle ID.
    static func parseList(_ data: Data) throws -> [SimulatorApp] {
        guard
            let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                as? [String: Any]
        else {
            throw SimulatorError.unexpectedOutput(
                "xcrun simctl listapps", String(decoding: data.prefix(200), as: UTF8.self))
        }
        return root.compactMap { bundleID, value -> SimulatorApp? in
            guard let info = value as? [String: Any] else { return nil }
            let name =
                (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String) ?? bundleID
            let container = (info["DataContainer"] as? String).flatMap { text -> URL? in
                if let url = URL(string: text), url.isFileURL { return url.standardizedFileURL }
                return text.hasPrefix("/") ? URL(fileURLWithPath: text, isDirectory: true) : nil
            }
            return SimulatorApp(
                bundleID: bundleID, name: name, type: (info["ApplicationType"] as? String) ?? "",
                dataContainer: container)
        }.sorted { $0.bundleID < $1.bundleID }
    }
}
