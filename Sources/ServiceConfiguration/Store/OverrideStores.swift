public import Foundation

/// Picks the override store for a location a person gives: a file path (``FileOverrideStore``) or an etcd prefix
/// (``EtcdOverrideStore``, `etcd://HOST:PORT/PREFIX`).
///
/// ```swift
/// let store = try OverrideStores.store(for: "etcd://10.0.0.5:2379/shop/overrides")   // shared by the team
/// let local = try OverrideStores.store(for: "~/scenarios/checkout.json")               // a file
/// let standard = try OverrideStores.defaultStore(appName: "shop")   // $CONFIG_OVERRIDES_STORE, else the file
/// ```
public enum OverrideStores {
    /// The environment variable that points any program at another store: a file path or an etcd URL
    /// (`CONFIG_OVERRIDES_STORE=etcd://10.0.0.5:2379/shop/overrides ./Shop`). It wins over
    /// ``FileOverrideStore/fileEnvironmentVariable`` (`CONFIG_OVERRIDES_FILE`), which keeps naming a file.
    public static let environmentVariable = "CONFIG_OVERRIDES_STORE"

    /// Whether `location` names an etcd prefix (`etcd://` or `etcds://`) rather than a file.
    public static func isEtcd(_ location: String) -> Bool {
        EtcdEndpoint.isEtcdURL(location)
    }

    /// The store at `location`: an ``EtcdOverrideStore`` for `etcd://` and `etcds://` URLs, else a
    /// ``FileOverrideStore`` for the path (`~` expanded). Nothing is read yet.
    ///
    /// `environment` supplies an etcd store's credentials (`CONFIG_ETCD_USER`, `CONFIG_ETCD_TOKEN`) when the URL
    /// holds none.
    ///
    /// - Throws: ``OverrideStoreError`` for an empty location or an etcd URL that names no prefix.
    public static func store(
        for location: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OverrideStoreError) -> any OverrideStore {
        guard !location.isEmpty else {
            throw OverrideStoreError(
                url: URL(fileURLWithPath: "/"), kind: .io,
                problem: "the store location is empty (is a variable unset?); give a file or etcd://HOST:PORT/PREFIX")
        }
        if isEtcd(location) {
            guard let url = URL(string: location) else {
                throw OverrideStoreError(
                    url: URL(fileURLWithPath: "/"), kind: .io,
                    problem: "\(location) is not a URL; expected etcd://HOST:PORT/PREFIX")
            }
            return try EtcdOverrideStore(url: url, environment: environment)
        }
        return FileOverrideStore(url: URL(fileURLWithPath: (location as NSString).expandingTildeInPath))
    }

    /// The store at `url`: etcd for `etcd://` and `etcds://`, a file for a file URL.
    public static func store(for url: URL) throws(OverrideStoreError) -> any OverrideStore {
        url.isFileURL ? FileOverrideStore(url: url) : try store(for: url.absoluteString)
    }

    /// Where `appName` keeps its overrides: `$CONFIG_OVERRIDES_STORE` (a file or an etcd URL) when set and not
    /// empty, else the file ``FileOverrideStore/defaultURL(appName:environment:)`` names (which reads
    /// `$CONFIG_OVERRIDES_FILE`).
    public static func defaultStore(
        appName: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OverrideStoreError) -> any OverrideStore {
        if let location = environment[environmentVariable], !location.isEmpty {
            return try store(for: location, environment: environment)
        }
        return FileOverrideStore(url: FileOverrideStore.defaultURL(appName: appName, environment: environment))
    }
}
