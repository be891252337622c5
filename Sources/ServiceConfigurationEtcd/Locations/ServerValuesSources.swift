package import Foundation
package import ServiceConfigurationCore
package import ServiceConfigurationSync

/// Picks the source for a `--server-url`: the URL's scheme decides (`http`/`https`: ``HTTPServerValuesSource``;
/// `etcd`/`etcds`: ``EtcdServerValuesSource``; `ofrep`/`ofreps`: ``OFREPServerValuesSource``, the evaluation context in
/// the query). It lives with etcd, the layer that knows every kind of source; a
/// ``ServerSnapshotFollower`` is given it as its ``ServerValuesSourceFactory``.
package enum ServerValuesSources {
    /// The schemes ``source(for:timeout:)`` knows.
    package static let schemes = ["http", "https", "etcd", "etcds", "ofrep", "ofreps"]

    /// A source for `url`, or why there is none; an etcd source reads its credentials and CA file from
    /// `environment`; an OFREP source writes booleans as `Y`/`N`.
    package static func source(
        for url: URL, timeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerSyncError) -> any ServerValuesSource {
        try source(for: url, timeout: timeout, environment: environment, catalog: nil)
    }

    /// A source for `url`, or why there is none; an etcd source reads its credentials and CA file from
    /// `environment`; an OFREP source writes booleans as `catalog`'s keys do (`Y`/`N` without one) and sends
    /// `CONFIG_OFREP_TOKEN` from `environment`, when set, as `Authorization: Bearer TOKEN` (`config-menu serve`'s
    /// token).
    package static func source(
        for url: URL, timeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment, catalog: ConfigurationCatalog?
    ) throws(ServerSyncError) -> any ServerValuesSource {
        switch url.scheme?.lowercased() {
        case "http", "https":
            return try HTTPServerValuesSource.source(for: url, timeout: timeout, environment: environment)
        case "etcd", "etcds":
            return try EtcdServerValuesSource(url: url, timeout: timeout, environment: environment)
        case "ofrep", "ofreps":
            let token = environment["CONFIG_OFREP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return try OFREPServerValuesSource.source(
                for: url, timeout: timeout, catalog: catalog,
                headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
        default:
            throw ServerSyncError(
                kind: .notConfigured,
                reason:
                    "unsupported server URL \(url.absoluteString); expected \(schemes.joined(separator: ", ")):// "
                    + "(for example http://127.0.0.1:8000/values.json, etcd://127.0.0.1:2379/demo/values or "
                    + "ofrep://127.0.0.1:8016)")
        }
    }
}
