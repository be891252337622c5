package import Foundation
import ServiceConfigurationCore

/// An etcd server and a key prefix, from `etcd://[USER:PASSWORD@]HOST[:PORT]/PREFIX` (`etcds://` for HTTPS).
///
/// ```swift
/// let endpoint = try EtcdEndpoint(url: URL(string: "etcd://127.0.0.1:2379/demo/overrides")!)
/// endpoint.baseURL    // http://127.0.0.1:2379
/// endpoint.prefix     // the bytes of "/demo/overrides/"
/// ```
///
/// The path is the prefix, kept as written with a `/` added at its end, so `/demo/overrides` holds the keys
/// `/demo/overrides/function.album.like.enabled` and so on. A path that is empty or `/` is refused: it would be
/// every key of the cluster. Credentials come from the URL, else from `CONFIG_ETCD_USER` (`USER:PASSWORD`, like
/// `ETCDCTL_USER`), else `CONFIG_ETCD_TOKEN` (a token etcd issued); ``location`` never shows them. For `etcds://`,
/// `CONFIG_ETCD_CA_FILE` names a PEM file of the certificate authorities to trust instead of the system's (etcd's
/// own CA, or a self-signed certificate); the server's certificate is always checked.
package struct EtcdEndpoint: Sendable, Hashable {
    /// How the client proves who it is when etcd has authentication on.
    package enum Credentials: Sendable, Hashable {
        /// A user name and password, exchanged for a token (`/v3/auth/authenticate`) as needed.
        case password(user: String, password: String)
        /// A token etcd issued, sent as it is.
        case token(String)
    }

    /// The URL schemes: `etcd` (HTTP) and `etcds` (HTTPS).
    package static let schemes = ["etcd", "etcds"]
    /// etcd's client port.
    package static let defaultPort = 2379
    /// The environment variable holding `USER:PASSWORD`.
    package static let userVariable = "CONFIG_ETCD_USER"
    /// The environment variable holding a token.
    package static let tokenVariable = "CONFIG_ETCD_TOKEN"
    /// The environment variable naming the PEM file of certificate authorities to trust for `etcds://`.
    package static let certificateAuthorityVariable = "CONFIG_ETCD_CA_FILE"

    /// The gateway's address: `http://HOST:PORT` or `https://HOST:PORT`.
    package let baseURL: URL
    /// The key prefix, ending with `/`.
    package let prefix: [UInt8]
    /// The credentials, if any.
    package let credentials: Credentials?
    /// The URL without credentials, for people: `etcd://127.0.0.1:2379/demo/overrides`.
    package let location: String
    /// For `etcds://`: the PEM file of certificate authorities to trust instead of the system's, if one is named.
    package let certificateAuthorityFile: String?

    /// Reads an `etcd://` or `etcds://` URL; `environment` supplies credentials the URL does not hold.
    package init(url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws(EtcdError) {
        let text = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), Self.schemes.contains(scheme),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw EtcdError(.notConfigured, "\(text) is not an etcd URL; expected etcd://HOST:PORT/PREFIX")
        }
        guard let host = components.host, !host.isEmpty else {
            throw EtcdError(
                .notConfigured, "\(Self.redacted(components)) has no host; expected etcd://HOST:PORT/PREFIX")
        }
        guard components.query == nil, components.fragment == nil else {
            throw EtcdError(
                .notConfigured, "\(Self.redacted(components)) has a query or fragment; expected etcd://HOST:PORT/PREFIX"
            )
        }
        var path = components.path
        guard !path.isEmpty, path != "/" else {
            throw EtcdError(
                .notConfigured,
                "\(Self.redacted(components)) names no prefix; expected etcd://HOST:PORT/PREFIX, for example "
                    + "etcd://127.0.0.1:2379/demo/overrides")
        }
        if !path.hasSuffix("/") { path += "/" }
        prefix = Array(path.utf8)
        if let user = components.user, !user.isEmpty {
            credentials = .password(user: user, password: components.password ?? "")
        } else if let pair = environment[Self.userVariable], !pair.isEmpty {
            let parts = pair.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            credentials = .password(user: String(parts[0]), password: parts.count > 1 ? String(parts[1]) : "")
        } else if let token = environment[Self.tokenVariable], !token.isEmpty {
            credentials = .token(token)
        } else {
            credentials = nil
        }
        location = Self.redacted(components)
        if scheme == "etcds", let file = environment[Self.certificateAuthorityVariable], !file.isEmpty {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw EtcdError(
                    .notConfigured,
                    "\(Self.certificateAuthorityVariable) names \(VisibleText.escaped(file)), which cannot be read; "
                        + "it must be a PEM file of the certificate authorities to trust for \(location)")
            }
            certificateAuthorityFile = file
        } else {
            certificateAuthorityFile = nil
        }
        components.scheme = scheme == "etcds" ? "https" : "http"
        components.user = nil
        components.password = nil
        components.path = ""
        components.port = components.port ?? Self.defaultPort
        guard let base = components.url else {
            throw EtcdError(.notConfigured, "\(location) is not a usable address")
        }
        baseURL = base
    }

    /// Whether `text` is an etcd URL (`etcd://` or `etcds://`), as opposed to a file path.
    package static func isEtcdURL(_ text: String) -> Bool {
        schemes.contains { text.lowercased().hasPrefix($0 + "://") }
    }

    /// The URL as written, without user name or password.
    private static func redacted(_ components: URLComponents) -> String {
        var shown = components
        shown.user = nil
        shown.password = nil
        return shown.string ?? "etcd URL"
    }

    /// The etcd key of the configuration key `name`: the prefix, then the name's UTF-8 bytes.
    package func key(_ name: String) -> [UInt8] { prefix + Array(name.utf8) }

    /// The end of the prefix's range: the prefix with its last byte incremented (carrying past 0xFF).
    package var rangeEnd: [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]  // every key from the prefix on
    }

    /// Where an etcd store keeps its history journal: beside the prefix, not under it (`/demo/overrides.journal/`
    /// for `/demo/overrides/`), so reads and watches of the overrides never see it and a removal of every override
    /// keeps it.
    package var journalPrefix: [UInt8] { prefix.dropLast() + Array(".journal/".utf8) }

    /// The end of ``journalPrefix``'s range.
    package var journalRangeEnd: [UInt8] {
        var end = journalPrefix
        end[end.count - 1] += 1  // "/" + 1 = "0"
        return end
    }

    /// The configuration key an etcd key under the prefix stands for: the rest of the key, as UTF-8; `nil` for a
    /// key outside the prefix. Bytes that are not UTF-8 are shown replaced (see ``isValidName(_:)``).
    package func name(ofKey key: [UInt8]) -> String? {
        guard key.count >= prefix.count, key.starts(with: prefix) else { return nil }
        return String(decoding: key[prefix.count...], as: UTF8.self)
    }

    /// Whether the rest of `key` after the prefix is valid UTF-8 (so ``name(ofKey:)`` is exact).
    package func isValidName(_ key: [UInt8]) -> Bool {
        guard key.count >= prefix.count else { return false }
        return String(validating: key[prefix.count...], as: UTF8.self) != nil
    }
}
