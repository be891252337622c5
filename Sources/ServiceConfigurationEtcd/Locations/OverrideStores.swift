public import Foundation
public import ServiceConfigurationCore
import ServiceConfigurationFileStore
import ServiceConfigurationRemoteStore

/// Picks the override store for a location a person gives: a file path (``FileOverrideStore``), an etcd prefix
/// (``EtcdOverrideStore``, `etcd://HOST:PORT/PREFIX`) or the store a `config-menu serve` serves
/// (`HTTPOverrideStore`, `http://HOST:PORT`).
///
/// ```swift
/// let store = try OverrideStores.store(for: "etcd://10.0.0.5:2379/shop/overrides")   // shared by the team
/// let local = try OverrideStores.store(for: "~/scenarios/checkout.json")               // a file
/// let laptop = try OverrideStores.store(for: "http://192.168.1.20:8016")               // a config-menu serve
/// let standard = try OverrideStores.defaultStore(appName: "shop")   // $CONFIG_OVERRIDES_STORE, else the file
/// ```
public enum OverrideStores {
    /// The environment variable that points any program at another store: a file path, an etcd URL or a
    /// `config-menu serve`'s address (`http://HOST:PORT`)
    /// (`CONFIG_OVERRIDES_STORE=etcd://10.0.0.5:2379/shop/overrides ./Shop`). It wins over
    /// ``FileOverrideStore/fileEnvironmentVariable`` (`CONFIG_OVERRIDES_FILE`), which keeps naming a file.
    public static let environmentVariable = "CONFIG_OVERRIDES_STORE"

    /// The forms a store location takes, for messages.
    public static let acceptedForms =
        "a file path, etcd://HOST[:PORT]/PREFIX, etcds://HOST[:PORT]/PREFIX, or http://HOST:PORT or "
        + "https://HOST:PORT (a config-menu serve)"

    /// Whether `location` names an etcd prefix (`etcd://` or `etcds://`) rather than a file.
    public static func isEtcd(_ location: String) -> Bool {
        EtcdEndpoint.isEtcdURL(location)
    }

    /// Whether `location` names the store of a `config-menu serve`: `http://HOST:PORT` or `https://HOST:PORT`, with
    /// no path (`http://host/overrides.json` is not a store: serve's routes are its own, and no request names a file).
    public static func isHTTP(_ location: String) -> Bool {
        let lowered = location.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
            let components = URLComponents(string: location), components.host?.isEmpty == false
        else { return false }
        return (components.path.isEmpty || components.path == "/") && components.query == nil
            && components.fragment == nil
    }

    /// Whether `location` names a store on a server (etcd, or a `config-menu serve`) rather than a file.
    public static func isRemote(_ location: String) -> Bool { isEtcd(location) || isHTTP(location) }

    /// Why `location` cannot be a store, when it looks like a URL (a scheme followed by `:`, or `etcd` followed by
    /// `//`) without being an `etcd://`, `etcds://`, `http://HOST:PORT` or `https://HOST:PORT` one; `nil` otherwise.
    /// The reason follows the location in a message: `etcd:/app/overrides looks like a URL but ...`. Such a location
    /// is a typo, never a file: `etcd:/app/overrides` must not quietly become a folder `etcd:` in the current
    /// directory. A file whose name holds a colon is written with a folder before it (`./notes:2.json`).
    public static func problem(withLocation location: String) -> String? {
        guard !isRemote(location) else { return nil }
        let lowered = location.lowercased()
        let scheme = lowered.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        let looksLikeURL = scheme.first?.isLetter == true && lowered.dropFirst(scheme.count).hasPrefix(":")
        let etcdWithoutColon = ["etcd//", "etcds//"].contains { lowered.hasPrefix($0) }
        guard looksLikeURL || etcdWithoutColon else { return nil }
        let hint =
            scheme.hasPrefix("etc") || etcdWithoutColon
            ? " (an etcd URL is written etcd://HOST:PORT/PREFIX, for example etcd://127.0.0.1:2379/demo/overrides)"
            : scheme.hasPrefix("http")
                ? " (a config-menu serve is written http://HOST:PORT, without a path, for example "
                    + "http://192.168.1.20:8016)" : ""
        return "looks like a URL but is not one a store can be; give \(acceptedForms)\(hint); a file whose name "
            + "holds a colon is written ./NAME"
    }

    /// The store at `location`: an ``EtcdOverrideStore`` for `etcd://` and `etcds://` URLs, an `HTTPOverrideStore`
    /// for `http://` and `https://` ones (a `config-menu serve`), else a ``FileOverrideStore`` for the path (`~`
    /// expanded). Nothing is read yet.
    ///
    /// `environment` supplies an etcd store's credentials (`CONFIG_ETCD_USER`, `CONFIG_ETCD_TOKEN`) when the URL
    /// holds none, and the CA file for `etcds://` (`CONFIG_ETCD_CA_FILE`); for a served store, its token
    /// (`CONFIG_OVERRIDES_TOKEN`) and the CA file for `https://` (`CONFIG_OVERRIDES_CA_FILE`).
    ///
    /// An etcd store records its changes in its history as made by `origin` (a file or served store made here uses
    /// its default).
    ///
    /// - Throws: ``OverrideStoreError`` for an empty location, a location that looks like a URL but is not an etcd
    ///   one (``problem(withLocation:)``), or an etcd URL that names no prefix.
    public static func store(
        for location: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        origin: OverrideChangeOrigin = .program()
    ) throws(OverrideStoreError) -> any OverrideStore {
        guard !location.isEmpty else {
            throw OverrideStoreError(
                url: URL(fileURLWithPath: "/"), kind: .io,
                problem: "the store location is empty (is a variable unset?); give \(acceptedForms)")
        }
        if let problem = problem(withLocation: location) {
            throw OverrideStoreError(
                url: URL(string: location) ?? URL(fileURLWithPath: "/"), kind: .io, problem: problem)
        }
        if isEtcd(location) {
            guard let url = URL(string: location) else {
                throw OverrideStoreError(
                    url: URL(fileURLWithPath: "/"), kind: .io,
                    problem: "\(location) is not a URL; expected etcd://HOST:PORT/PREFIX")
            }
            return try EtcdOverrideStore(url: url, environment: environment, origin: origin)
        }
        if isHTTP(location) {
            guard let url = URL(string: location) else {
                throw OverrideStoreError(
                    url: URL(fileURLWithPath: "/"), kind: .io,
                    problem: "\(location) is not a URL; expected http://HOST:PORT")
            }
            return try HTTPOverrideStore(url: url, environment: environment)
        }
        return FileOverrideStore(url: URL(fileURLWithPath: (location as NSString).expandingTildeInPath))
    }

    /// The store at `url`: etcd for `etcd://` and `etcds://`, a served store for `http://` and `https://`, a file for
    /// a file URL.
    public static func store(for url: URL) throws(OverrideStoreError) -> any OverrideStore {
        url.isFileURL ? FileOverrideStore(url: url) : try store(for: url.absoluteString)
    }

    /// Where `appName` keeps its overrides: `$CONFIG_OVERRIDES_STORE` (a file, an etcd URL or a served store's) when
    /// set and not empty, else the file ``FileOverrideStore/defaultURL(appName:environment:)`` names (which reads
    /// `$CONFIG_OVERRIDES_FILE`).
    ///
    /// - Throws: ``OverrideStoreError`` when `$CONFIG_OVERRIDES_STORE` looks like a URL but is not an etcd one, or
    ///   names no etcd prefix: a program then says so rather than keeping its overrides in a file nobody shares.
    public static func defaultStore(
        appName: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OverrideStoreError) -> any OverrideStore {
        if let location = environment[environmentVariable], !location.isEmpty {
            return try store(for: location, environment: environment)
        }
        return FileOverrideStore(url: FileOverrideStore.defaultURL(appName: appName, environment: environment))
    }
}
