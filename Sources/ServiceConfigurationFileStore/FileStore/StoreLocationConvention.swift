package import Foundation

/// Where a platform keeps an app's override store by default (see ``FileOverrideStore/defaultURL(appName:environment:)``).
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
