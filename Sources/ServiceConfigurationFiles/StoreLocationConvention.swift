package import Foundation

/// Where a platform keeps an app's override store by default (see `FileOverrideStore.defaultURL(appName:environment:)`).
/// It lives below the file store because files kept beside the store (the server snapshot) follow it in every build,
/// with or without the `DebugOverrides` trait.
package enum StoreLocationConvention: Sendable, Equatable {
    /// Linux and other non-Apple systems: `$XDG_STATE_HOME/<app>/overrides.json`, else
    /// `~/.local/state/<app>/overrides.json`.
    case xdg
    /// Apple platforms: `<Application Support>/<app>/overrides.json`, where the associated URL is the app's
    /// Application Support folder (in a sandbox or a simulator's data container: `<container>/Library/Application
    /// Support`).
    case applicationSupport(URL)

    /// The store file's name in every convention.
    package static let fileName = "overrides.json"

    /// The environment variable that points any program at another store file (`CONFIG_OVERRIDES_FILE`).
    package static let fileEnvironmentVariable = "CONFIG_OVERRIDES_FILE"

    /// The convention of the platform this code runs on.
    package static var current: Self {
        #if canImport(Darwin)
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(
                    "Library/Application Support", isDirectory: true)
            return .applicationSupport(support)
        #else
            return .xdg
        #endif
    }

    /// Where `appName` keeps its overrides: `$CONFIG_OVERRIDES_FILE` if set and not empty, else the store under
    /// `convention` (see `FileOverrideStore.defaultURL(appName:environment:)`).
    package static func defaultStoreURL(
        appName: String, environment: [String: String], convention: Self = .current
    ) -> URL {
        if let explicit = environment[fileEnvironmentVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: (explicit as NSString).expandingTildeInPath)
        }
        return convention.storeURL(appName: appName, environment: environment)
    }

    /// The Application Support folder inside an Apple app's data container (what the app itself sees as
    /// `FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)`).
    package static func applicationSupport(inContainer container: URL) -> URL {
        container.appendingPathComponent("Library", isDirectory: true)
            .appendingPathComponent("Application Support", isDirectory: true)
    }

    /// The store of `appName` under this convention (`$CONFIG_OVERRIDES_FILE` aside).
    package func storeURL(appName: String, environment: [String: String]) -> URL {
        let base: URL
        switch self {
        case .applicationSupport(let support):
            base = support
        case .xdg:
            if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
                base = URL(fileURLWithPath: state, isDirectory: true)
            } else {
                let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
                base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                    ".local/state", isDirectory: true)
            }
        }
        return base.appendingPathComponent(appName, isDirectory: true).appendingPathComponent(Self.fileName)
    }
}
