import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `--simulator BUNDLE_ID [--device UDID] [--app-name NAME]`: the override store of an app running in the iOS
/// Simulator, found through `xcrun simctl`.
///
/// 1. The device: `--device` (a UDID, or a device name that is unique), else the one booted device (several booted
///    without `--device` is an error that lists them).
/// 2. The app's data container: `xcrun simctl get_app_container UDID BUNDLE_ID data`.
/// 3. The store in it, where ``FileOverrideStore/defaultURL(appName:environment:)`` puts it on Apple platforms:
///    `Library/Application Support/<app>/overrides.json`. `<app>` is `--app-name` when given; otherwise the tool
///    looks for the stores already there (`Library/Application Support/*/overrides.json`) and takes the only one.
///    The tool cannot know the `appName` an app passes before the app has written its store; `--app-name` names it
///    then (and when an app keeps several stores).
///
/// The store found becomes `--store`, so every command, the menu, and the files kept beside the store (the server
/// snapshot among them) work on the app's files in the simulator.
enum SimulatorStore {
    /// The options that only mean something with `--simulator` (and for `config-menu simulators`, `--device`).
    static let options: Set<String> = ["--simulator", "--device", "--app-name"]

    /// Returns `invocation` with `--store` set to the simulator app's store when `--simulator` is given; refuses
    /// `--device` and `--app-name` without it, and `--simulator` together with `--store`.
    static func resolve(_ invocation: Invocation) throws -> Invocation {
        guard let bundleID = invocation.options["--simulator"] else {
            if let orphan = ["--device", "--app-name"].first(where: { invocation.options[$0] != nil }) {
                throw ToolError.usage("\(orphan) needs --simulator BUNDLE_ID", command: invocation.command)
            }
            return invocation
        }
        guard invocation.options["--store"] == nil else {
            throw ToolError.usage("--simulator and --store are alternatives: give one", command: invocation.command)
        }
        guard !bundleID.isEmpty, !bundleID.hasPrefix("-") else {
            throw ToolError.usage(
                "--simulator needs an app's bundle ID such as com.example.shop, got \"\(bundleID)\"",
                command: invocation.command)
        }
        var resolved = invocation
        let (store, container) = try storeURL(
            bundleID: bundleID, device: invocation.options["--device"], appName: invocation.options["--app-name"])
        resolved.options["--store"] = store.path
        resolved.confinement = container
        return resolved
    }

    /// The store of `bundleID` on the chosen device and the app's data container (its links resolved: the store and
    /// every file beside it must stay inside it), as a ``ToolError`` with the documented exit code on failure.
    static func storeURL(
        bundleID: String, device: String?, appName: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (store: URL, container: URL) {
        do {
            if let appName { try checkAppName(appName) }
            let simctl = try Simctl(environment: environment)
            let chosen = try choose(device, among: try simctl.devices())
            // The container's own path is simctl's; inside it, everything belongs to the app.
            let container = try simctl.dataContainer(of: bundleID, on: chosen).resolvingSymlinksInPath()
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: container.path, isDirectory: &isFolder), isFolder.boolValue
            else { throw SimulatorError.containerMissing(container.path) }
            return (try store(in: container, bundleID: bundleID, appName: appName), container)
        } catch let error as SimulatorError {
            throw ToolError(code: error.code, description: error.description)
        }
    }

    /// The device `--device` names (a UDID, any case, or a unique name), else the only booted one.
    static func choose(_ requested: String?, among devices: [SimulatorDevice]) throws -> SimulatorDevice {
        let booted = devices.filter(\.isBooted)
        guard let requested else {
            guard let only = booted.first else { throw SimulatorError.noBootedDevice(all: devices) }
            guard booted.count == 1 else { throw SimulatorError.severalBootedDevices(booted) }
            return only
        }
        var matches = devices.filter { $0.udid.caseInsensitiveCompare(requested) == .orderedSame }
        if matches.isEmpty { matches = devices.filter { $0.name == requested } }
        // A name shared by a booted device and shut-down ones means the booted one.
        if matches.count > 1, matches.filter(\.isBooted).count == 1 { matches = matches.filter(\.isBooted) }
        guard let device = matches.first else { throw SimulatorError.unknownDevice(requested, booted: booted) }
        guard matches.count == 1 else { throw SimulatorError.ambiguousDevice(requested, matches: matches) }
        guard device.isBooted else { throw SimulatorError.deviceNotBooted(device) }
        return device
    }

    /// The stores in a data container: the names `<app>` of `Library/Application Support/<app>/overrides.json`.
    static func storeNames(in container: URL) -> [String] {
        let support = StoreLocationConvention.applicationSupport(inContainer: container)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: support.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            let file = support.appendingPathComponent(name).appendingPathComponent(StoreLocationConvention.fileName)
            return FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    /// The store file in `container`: `--app-name`'s, else the only one there.
    static func store(in container: URL, bundleID: String, appName: String?) throws -> URL {
        let support = StoreLocationConvention.applicationSupport(inContainer: container)
        if let problem = FileOverrideStore.confinementProblem(of: support, in: container) {
            throw SimulatorError.linkInContainer(problem)
        }
        let name: String
        if let appName {
            name = appName
        } else {
            let names = storeNames(in: container)
            guard let only = names.first else {
                throw SimulatorError.noStore(bundleID: bundleID, support: support.path)
            }
            guard names.count == 1 else { throw SimulatorError.severalStores(bundleID: bundleID, names: names) }
            name = only
        }
        return FileOverrideStore.defaultURL(appName: name, environment: [:], convention: .applicationSupport(support))
    }

    /// `--app-name` is one folder name: not empty, no `/`, not `.` or `..`.
    static func checkAppName(_ name: String) throws {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.contains("\0") else {
            throw SimulatorError.badAppName(name)
        }
    }
}
