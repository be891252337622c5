public import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

/// Where a ``ServerValuesSync`` persists its last-known snapshot.
///
/// The debug tools (`config-menu`) look for the snapshot beside the override store, so QA sees what a running
/// program has: use ``besideStore`` or ``standard(appName:)``.
public enum ServerSnapshotLocation: Sendable, Hashable {
    /// `server-snapshot.json` in the folder of the service's override store (see ``url(besideStoreAt:)``); no
    /// snapshot when the service has no store, which includes every build without the `DebugOverrides` trait.
    case besideStore
    /// `server-snapshot.json` in the folder where `appName` keeps its override store
    /// (``FileOverrideStore/defaultURL(appName:environment:)``), whether or not overrides are compiled in: the
    /// choice for release builds.
    case standard(appName: String)
    /// This file.
    case file(URL)
    /// No snapshot: nothing is read at start or written after a sync.
    case none

    /// The snapshot's file name beside an override store.
    public static let fileName = "server-snapshot.json"

    /// The snapshot beside the store at `storeURL`: `<store's folder>/server-snapshot.json`.
    ///
    /// ```swift
    /// ServerSnapshotLocation.url(besideStoreAt: FileOverrideStore.defaultURL(appName: "demo"))
    /// // ~/.local/state/demo/server-snapshot.json
    /// ```
    public static func url(besideStoreAt storeURL: URL) -> URL {
        storeURL.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(fileName)
    }

    /// The file for `service`, if any.
    func resolve(for service: (any ConfigurationService)?) -> URL? {
        switch self {
        case .besideStore:
            return (service as? LiveConfigurationService)?.overrideStore.localFileURL.map {
                Self.url(besideStoreAt: $0)
            }
        case .standard(let appName):
            return Self.url(
                besideStoreAt: StoreLocationConvention.defaultStoreURL(
                    appName: appName, environment: ProcessInfo.processInfo.environment))
        case .file(let url): return url
        case .none: return nil
        }
    }
}
