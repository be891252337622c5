public import Foundation
package import ServiceConfigurationFiles

extension FileOverrideStore {
    /// The environment variable that points any program at another store file, for example a prepared QA scenario
    /// in a UI test or CI job: `CONFIG_OVERRIDES_FILE=/tmp/scenario.json ./MyApp`.
    public static let fileEnvironmentVariable = StoreLocationConvention.fileEnvironmentVariable

    /// Where `appName` keeps its overrides.
    ///
    /// 1. `$CONFIG_OVERRIDES_FILE`, if set and not empty;
    /// 2. on Apple platforms (iOS, the iOS Simulator, macOS, tvOS, watchOS, visionOS): the app's Application Support
    ///    folder, `Library/Application Support/<appName>/overrides.json`, inside the app's sandbox (in the
    ///    simulator, its data container: `config-menu --simulator BUNDLE_ID` finds it there);
    /// 3. elsewhere (Linux), following the XDG Base Directory specification:
    ///    `$XDG_STATE_HOME/<appName>/overrides.json` if `XDG_STATE_HOME` is an absolute path, else
    ///    `~/.local/state/<appName>/overrides.json`.
    ///
    /// Files kept beside the store (the server snapshot, `server-snapshot.json`, among them) follow it.
    ///
    /// ```swift
    /// FileOverrideStore.defaultURL(appName: "demo")
    /// // Linux:  /home/qa/.local/state/demo/overrides.json
    /// // iOS:    <container>/Library/Application Support/demo/overrides.json
    /// ```
    public static func defaultURL(
        appName: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        StoreLocationConvention.defaultStoreURL(appName: appName, environment: environment)
    }

    /// Why `url` cannot be used inside `folder`, a folder another program owns (see ``init(url:faults:lockTimeout:origin:confinedTo:)``):
    /// it leaves the folder, or a part of it below the folder is a symbolic link; `nil` when it can.
    package static func confinementProblem(of url: URL, in folder: URL) -> String? {
        do throws(StoreFile.Failure) {
            try StoreFile(url: url, faults: nil, confinedTo: folder).checkConfined(url.standardizedFileURL.path)
            return nil
        } catch {
            return error.problem
        }
    }

    /// ``defaultURL(appName:environment:)`` under an explicit platform convention, so both conventions can be
    /// computed (and tested) on any platform.
    package static func defaultURL(
        appName: String, environment: [String: String], convention: StoreLocationConvention
    ) -> URL {
        StoreLocationConvention.defaultStoreURL(appName: appName, environment: environment, convention: convention)
    }
}
