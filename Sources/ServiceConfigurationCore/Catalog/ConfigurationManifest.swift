public import Foundation

/// A catalog as a JSON document, so a standalone tool (such as `config-menu --manifest FILE`) can list, validate and
/// edit the overrides of a program it does not link.
///
/// ```swift
/// try catalog.manifestJSON().write(to: URL(fileURLWithPath: "app.manifest.json"))   // in the program
/// let catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: "app.manifest.json"))   // in a tool
/// ```
///
/// Format (version 1; members are written in alphabetical order, unknown members are ignored when read):
///
/// ```json
/// {
///   "format": "service-configuration-manifest",
///   "scopes": [
///     {"keys": [
///        {"control": {"kind": "toggle", "off": "N", "on": "Y"}, "default": "N", "name": "function.album.like.enabled",
///         "summary": "Whether album photos show a like button.", "title": "Like Enabled", "type": "Bool"}
///      ],
///      "name": "Album"}
///   ],
///   "version": 1
/// }
/// ```
///
/// `control.kind` is `toggle` (with its two wire strings `on` and `off`), `picker` (with `choices`: `value`,
/// `title`, optional `enabled`), `number` (with `number`: `integer` or `floatingPoint`), `text` or `json`. A key may
/// carry `pattern`, a regular expression every value must match (``ConfigurationValuePattern``), and `format`, the
/// description used in its error messages. A tool validates values from these descriptions alone, with the
/// program's messages: toggles take their two strings, pickers one of their choices, numbers a number of their
/// kind, JSON keys well-formed JSON (stored in the program's canonical form: sorted keys, no insignificant space),
/// text keys any string that matches their pattern. `summary`, `default`, `pattern` and `format` are optional
/// (`default` absent: the default has no wire form).
///
/// A key's lifecycle (``ConfigurationKeyLifecycle``) travels as `owner`, `ticket` and `removeBy` (`{"date":
/// "2027-03-31"}` or `{"version": "8.4"}`), each optional; the document's `requiresOwners: true` says every key
/// should name an owner (``ConfigurationCatalog/requiresOwners``). A reader of an older build ignores them.
///
/// A manifest is refused, with the place inside the file, when it is not this format, when a picker lists a value
/// twice or its default is not among its choices, when a toggle's two strings are equal, when a default fails its
/// own key's validation, when a pattern is not a regular expression, or when a `removeBy` is not a day
/// (`YYYY-MM-DD`) or a version.
public enum ConfigurationManifest {
    /// The `format` field's value.
    public static let formatName = "service-configuration-manifest"
    /// The version this build writes and reads.
    public static let version = 1
    /// The largest manifest file read: 256 MiB (a catalog of 100,000 keys takes about 30).
    public static let sizeLimit = 256 << 20
}

extension ConfigurationCatalog {
    /// The catalog as a manifest: indented JSON with sorted members, ending in a newline; the same catalog always
    /// gives the same bytes.
    public func manifestJSON() -> Data {
        let document = ManifestDocument(
            format: ConfigurationManifest.formatName,
            version: ConfigurationManifest.version,
            scopes: scopes.map { scope in
                ManifestDocument.Scope(name: scope.name, keys: scope.keys.map(ManifestDocument.Key.init))
            },
            requiresOwners: requiresOwners ? true : nil
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(document) + Data([0x0A])
        } catch {
            // Only strings, integers and Booleans are encoded: this cannot fail.
            preconditionFailure("a manifest could not be encoded: \(error)")
        }
    }

    /// Reads a manifest; `source` names it in errors.
    public init(manifest data: Data, source: URL? = nil) throws(ConfigurationManifestError) {
        let fail = { (problem: String) in ConfigurationManifestError(url: source, problem: problem) }
        let decoder = JSONDecoder()
        let header: ManifestDocument.Header
        do {
            header = try decoder.decode(ManifestDocument.Header.self, from: data)
        } catch {
            throw fail(ManifestDocument.problem(decoding: error, in: data))
        }
        guard header.format == ConfigurationManifest.formatName else {
            throw fail("\"format\" must be \"\(ConfigurationManifest.formatName)\"; this is not a catalog manifest")
        }
        guard let version = header.version else { throw fail("\"version\" must be a whole number") }
        guard version <= ConfigurationManifest.version else {
            throw fail(
                "written by a newer version of the format (version \(version); this build reads up to "
                    + "\(ConfigurationManifest.version))")
        }
        let document: ManifestDocument
        do {
            document = try decoder.decode(ManifestDocument.self, from: data)
        } catch {
            throw fail(ManifestDocument.problem(decoding: error, in: data))
        }
        var scopes: [Scope] = []
        for (scopeIndex, scope) in document.scopes.enumerated() {
            var keys: [ConfigurationKeyDescriptor] = []
            for (keyIndex, key) in scope.keys.enumerated() {
                do {
                    keys.append(try key.descriptor(scope: scope.name))
                } catch {
                    throw fail("scopes[\(scopeIndex)].keys[\(keyIndex)]\(error.problem)")
                }
            }
            scopes.append(Scope(name: scope.name, keys: keys))
        }
        do {
            try self.init(scopes: scopes)
        } catch {
            throw fail(error.description)
        }
        requiresOwners = document.requiresOwners ?? false
    }
}
