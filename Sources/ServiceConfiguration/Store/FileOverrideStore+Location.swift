public import Foundation

extension FileOverrideStore {
    /// The environment variable that points any program at another store file, for example a prepared QA scenario
    /// in a UI test or CI job: `CONFIG_OVERRIDES_FILE=/tmp/scenario.json ./MyApp`.
    public static let fileEnvironmentVariable = "CONFIG_OVERRIDES_FILE"

    /// Where `appName` keeps its overrides, following the XDG Base Directory specification:
    ///
    /// 1. `$CONFIG_OVERRIDES_FILE`, if set and not empty;
    /// 2. `$XDG_STATE_HOME/<appName>/overrides.json`, if `XDG_STATE_HOME` is an absolute path;
    /// 3. `~/.local/state/<appName>/overrides.json`.
    ///
    /// ```swift
    /// FileOverrideStore.defaultURL(appName: "demo")   // /home/qa/.local/state/demo/overrides.json
    /// ```
    public static func defaultURL(
        appName: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let explicit = environment[fileEnvironmentVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: (explicit as NSString).expandingTildeInPath)
        }
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".local/state", isDirectory: true)
        }
        return base.appendingPathComponent(appName, isDirectory: true).appendingPathComponent("overrides.json")
    }
}
