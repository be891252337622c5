package import Foundation
package import ServiceConfigurationSync

/// Picks the source for a `--server-url`: the URL's scheme decides (`http`/`https`: ``HTTPServerValuesSource``;
/// `etcd`/`etcds`: ``EtcdServerValuesSource``). It lives with etcd, the layer that knows every kind of source; a
/// ``ServerSnapshotFollower`` is given it as its ``ServerValuesSourceFactory``.
package enum ServerValuesSources {
    /// The schemes ``source(for:timeout:)`` knows.
    package static let schemes = ["http", "https", "etcd", "etcds"]

    /// A source for `url`, or why there is none; an etcd source reads its credentials and CA file from
    /// `environment`.
    package static func source(
        for url: URL, timeout: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ServerSyncError) -> any ServerValuesSource {
        switch url.scheme?.lowercased() {
        case "http", "https":
            return try HTTPServerValuesSource.source(for: url, timeout: timeout, environment: environment)
        case "etcd", "etcds":
            return try EtcdServerValuesSource(url: url, timeout: timeout, environment: environment)
        default:
            throw ServerSyncError(
                kind: .notConfigured,
                reason:
                    "unsupported server URL \(url.absoluteString); expected \(schemes.joined(separator: ", ")):// "
                    + "(for example http://127.0.0.1:8000/values.json or etcd://127.0.0.1:2379/demo/values)")
        }
    }
}
