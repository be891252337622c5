import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu simulators`: the booted simulators and, on each, the installed apps whose data container holds an
/// override store, with the command line that opens each store.
struct SimulatorCommands {
    let invocation: Invocation

    /// One store found in an app's container.
    struct FoundStore {
        var appName: String
        var url: URL
        /// The number of overrides, or why the file cannot be read.
        var overrides: Result<Int, OverrideStoreError>
    }

    func simulators() throws {
        try invocation.check(allowed: ["--json", "--device"])
        if let option = ["--simulator", "--app-name"].first(where: { invocation.options[$0] != nil }) {
            throw ToolError.usage("simulators lists every app; it does not take \(option)", command: "simulators")
        }
        guard invocation.positional.isEmpty else {
            throw ToolError.usage("simulators takes no arguments", command: "simulators")
        }
        let json = invocation.flags.contains("--json")
        let listing: [(device: SimulatorDevice, apps: [(app: SimulatorApp, stores: [FoundStore])])]
        do {
            let simctl = try Simctl()
            let all = try simctl.devices()
            let devices =
                try invocation.options["--device"].map { [try SimulatorStore.choose($0, among: all)] }
                ?? all.filter(\.isBooted)
            listing = try devices.map { device in
                let apps = try simctl.apps(on: device).compactMap { app -> (SimulatorApp, [FoundStore])? in
                    guard let container = app.dataContainer else { return nil }
                    let stores = Self.stores(in: container)
                    return stores.isEmpty ? nil : (app, stores)
                }
                return (device, apps)
            }
        } catch let error as SimulatorError {
            throw ToolError(code: error.code, description: error.description)
        }
        if json { return try Output.line(JSONWriter.string(Self.json(listing))) }
        guard !listing.isEmpty else {
            return try Output.line("no simulator is booted (start one in Simulator, or xcrun simctl boot UDID)")
        }
        var lines: [String] = []
        for (device, apps) in listing {
            lines.append(device.summary)
            if apps.isEmpty { lines.append("  no installed app has an override store") }
            for (app, stores) in apps {
                for store in stores {
                    let count: String
                    switch store.overrides {
                    case .success(let number): count = number == 1 ? "1 override" : "\(number) overrides"
                    case .failure(let error): count = "unreadable: \(error.problem)"
                    }
                    lines.append("  \(app.bundleID) (\(app.name)): \(count)")
                    lines.append("    \(store.url.path)")
                    var command = ["config-menu", "--simulator", app.bundleID]
                    if listing.count > 1 || invocation.options["--device"] != nil {
                        command += ["--device", device.udid]
                    }
                    if stores.count > 1 { command += ["--app-name", store.appName] }
                    lines.append("    " + command.map(Self.shellQuoted).joined(separator: " "))
                }
            }
        }
        try Output.line(lines.joined(separator: "\n"))
    }

    /// `word` as one word for a POSIX shell (``ShellWord/quoted(_:)``): the names printed come from the app (its
    /// bundle ID, its folders), and pasting a printed line must run nothing they hold.
    static func shellQuoted(_ word: String) -> String { ShellWord.quoted(word) }

    /// The stores in an app's data container, each with its override count (read only: nothing is written).
    static func stores(in container: URL) -> [FoundStore] {
        SimulatorStore.storeNames(in: container).map { name in
            let url =
                (try? SimulatorStore.store(in: container, bundleID: "", appName: name))
                ?? container.appendingPathComponent(name)
            // Read as --simulator reads it: no link inside the app's container is followed.
            let store = FileOverrideStore(url: url, faults: nil, confinedTo: container)
            let overrides: Result<Int, OverrideStoreError> =
                store.reload().map { .failure($0) } ?? .success(store.entries.count)
            return FoundStore(appName: name, url: url, overrides: overrides)
        }
    }

    static func json(_ listing: [(device: SimulatorDevice, apps: [(app: SimulatorApp, stores: [FoundStore])])])
        -> JSONValue
    {
        .array(
            listing.map { device, apps in
                .object([
                    ("udid", .string(device.udid)), ("name", .string(device.name)),
                    ("runtime", .string(device.runtimeName)), ("state", .string(device.state)),
                    (
                        "apps",
                        .array(
                            apps.map { app, stores in
                                .object([
                                    ("bundleID", .string(app.bundleID)), ("name", .string(app.name)),
                                    ("dataContainer", app.dataContainer.map { .string($0.path) } ?? .null),
                                    (
                                        "stores",
                                        .array(
                                            stores.map { store in
                                                var members: [(key: String, value: JSONValue)] = [
                                                    ("appName", .string(store.appName)),
                                                    ("path", .string(store.url.path)),
                                                ]
                                                switch store.overrides {
                                                case .success(let count):
                                                    members.append(("overrides", .number(String(count))))
                                                case .failure(let error):
                                                    members.append(("overrides", .null))
                                                    members.append(("problem", .string(error.problem)))
                                                }
                                                return .object(members)
                                            })
                                    ),
                                ])
                            })
                    ),
                ])
            })
    }
}
