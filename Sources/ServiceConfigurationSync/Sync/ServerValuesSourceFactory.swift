package import Foundation

/// Makes the source a server URL names, with a timeout and the settings a source reads from the environment (etcd
/// credentials and CA file). This target knows HTTP only (``HTTPServerValuesSource/source(for:timeout:environment:)``);
/// the umbrella's `ServerValuesSources.source(for:timeout:environment:)` knows every kind, etcd included.
package typealias ServerValuesSourceFactory =
    @Sendable (_ url: URL, _ timeout: Duration, _ environment: [String: String]) throws(ServerSyncError) ->
    any ServerValuesSource

extension HTTPServerValuesSource {
    /// An HTTP source for an `http` or `https` `url`, or why there is none (`environment` is not read).
    package static func source(
        for url: URL, timeout: Duration, environment: [String: String]
    ) throws(ServerSyncError) -> any ServerValuesSource {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ServerSyncError(
                kind: .notConfigured,
                reason: "unsupported server URL \(url.absoluteString); expected http:// or https:// (this build has no "
                    + "other kind of server source)")
        }
        guard url.host != nil else {
            throw ServerSyncError(kind: .notConfigured, reason: "\(url.absoluteString) has no host")
        }
        return HTTPServerValuesSource(url: url, timeout: timeout)
    }
}
