public import Foundation
import ServiceConfigurationCore

/// How an ``HTTPServerValuesSource`` reads a response body: which content types it accepts and how it turns the
/// bytes into key names and wire strings.
///
/// ```swift
/// // The default: a JSON object of strings, {"function.album.like.enabled": "Y", ...}
/// let source = HTTPServerValuesSource(url: url)
///
/// // Another shape: {"config": {"entries": [{"k": "...", "v": "..."}]}}
/// let custom = HTTPServerValuesSource(url: url, format: .custom(contentTypes: ["application/json"]) { data in
///     try JSONDecoder().decode(Envelope.self, from: data).config.entries.reduce(into: [:]) { $0[$1.k] = $1.v }
/// })
/// ```
///
/// A decode that throws refuses the whole response; the error's description becomes the sync's reason.
public struct ServerValuesFormat: Sendable {
    /// The accepted media types (lower case, without parameters), or `nil` to accept any.
    public var contentTypes: [String]?
    /// Also accept any `…+json` media type.
    var acceptsJSONSuffix: Bool
    /// Turns a whole body into values.
    public var decode: @Sendable (Data) throws -> [String: String]

    /// A JSON object whose values are all strings, served as `application/json` (or `text/json`, or any
    /// `…+json`). Anything else is refused whole: not JSON, duplicate keys, invalid UTF-8, an array, a value that
    /// is not a string.
    public static let json = ServerValuesFormat(
        contentTypes: ["application/json", "text/json"], acceptsJSONSuffix: true,
        decode: { data in try ServerValuesFormat.decodeJSONObject(data) })

    /// Your own format: `decode` turns the body into values (throw to refuse it); `contentTypes` lists the media
    /// types accepted (`nil`: any).
    public static func custom(
        contentTypes: [String]? = nil,
        decode: @escaping @Sendable (Data) throws -> [String: String]
    ) -> ServerValuesFormat {
        ServerValuesFormat(
            contentTypes: contentTypes?.map { $0.lowercased() }, acceptsJSONSuffix: false, decode: decode)
    }

    /// Whether a `Content-Type` header value is accepted; `nil` when it is, otherwise the reason.
    func refusal(ofContentType header: String?) -> String? {
        guard let contentTypes else { return nil }
        let expected = contentTypes.joined(separator: " or ")
        guard let header, !header.isEmpty else { return "no Content-Type; expected \(expected)" }
        let media =
            header.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        if contentTypes.contains(media) || (acceptsJSONSuffix && media.hasSuffix("+json")) { return nil }
        return "wrong content type \(String(header.prefix(80))); expected \(expected)"
    }

    /// The default decoding: a JSON object of strings, checked strictly.
    package static func decodeJSONObject(_ data: Data) throws(ServerSyncError) -> [String: String] {
        func refuse(_ reason: String) -> ServerSyncError { ServerSyncError(kind: .invalidResponse, reason: reason) }
        let root: JSONValue
        do {
            root = try StrictJSON.parse([UInt8](data))
        } catch {
            throw refuse("not JSON: \(error)")
        }
        guard case .object(let members) = root else {
            throw refuse("expected a JSON object of key names to strings, found \(root.typeDescription)")
        }
        var values: [String: String] = [:]
        values.reserveCapacity(members.count)
        for member in members {
            guard case .string(let value) = member.value else {
                let name = member.key.count > 80 ? member.key.prefix(77) + "..." : member.key
                throw refuse(
                    "the value of \"\(name)\" is \(member.value.typeDescription); every value must be a string")
            }
            values[member.key] = value
        }
        return values
    }
}
