public import Foundation

/// A catalog as a JSON document, so a standalone tool (such as `config-menu --manifest FILE`) can list, validate and
/// edit the overrides of a program it does not link.
///
/// ```swift
/// try catalog.manifestJSON().write(to: URL(fileURLWithPath: "app.manifest.json"))   // in the program
/// let catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: "app.manifest.json"))   // in a tool
/// ```
///
/// Format (version 1; written as compact JSON with one key per line and members in alphabetical order; any JSON
/// layout is read, and unknown members are ignored):
///
/// ```json
/// {"format":"service-configuration-manifest","scopes":[
/// {"keys":[
/// {"control":{"kind":"toggle","off":"N","on":"Y"},"default":"N","name":"function.album.like.enabled","summary":"Whether album photos show a like button.","title":"Like Enabled","type":"Bool"}
/// ],"name":"Album"}
/// ],"version":1}
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
    /// The largest manifest file read: 1 GiB. The writer takes about 170 bytes a key (a catalog of 1,000,000 keys
    /// with titles and no summaries is about 170 MiB), so whatever this build writes for a catalog of a few million
    /// keys, it reads.
    public static let sizeLimit = 1 << 30
}

/// The part of a manifest a command needs, for a tool that reads one key or one scope of a large catalog: the keys
/// named exactly, or the scope named so (ignoring case).
package enum ManifestSelection: Sendable, Equatable {
    /// The keys with these names.
    case keys(Set<String>)
    /// Every key of the scope with this name, ignoring case (as `config-menu list SCOPE` finds it).
    case scope(String)

    /// The key names selected (none for a scope).
    var keyNames: [String] {
        if case .keys(let names) = self { return names.sorted() }
        return []
    }
}

extension ConfigurationCatalog {
    /// The catalog as a manifest: compact JSON with one key per line and members in alphabetical order, ending in a
    /// newline; the same catalog always gives the same bytes.
    public func manifestJSON() -> Data {
        Data(manifestBytes())
    }

    /// ``manifestJSON()`` as bytes, for a tool that writes them out without another copy (a million keys take 177 MB).
    package func manifestBytes() -> [UInt8] {
        ManifestCompactForm.write(
            scopes: scopes, requiresOwners: requiresOwners, estimatedKeys: scopes.reduce(0) { $0 + $1.keys.count })
    }

    /// Reads a manifest; `source` names it in errors.
    public init(manifest data: Data, source: URL? = nil) throws(ConfigurationManifestError) {
        if let plain = data.withUnsafeBytes({ Self.plainManifest($0) }) {
            try self.init(plain: plain, source: source)
        } else {
            try self.init(decoding: data, source: source)
        }
    }

    /// ``init(manifest:source:)`` on the bytes of a file, without copying them into `Data` (a manifest of 100,000
    /// keys is 19 MB) unless it is not in the plain form and has to go through `JSONDecoder`.
    package init(manifestBytes bytes: [UInt8], source: URL?) throws(ConfigurationManifestError) {
        if let plain = Self.plainManifest(concurrently: .array(bytes)) {
            try self.init(plain: (plain.scopes, plain.requiresOwners), source: source)
        } else {
            try self.init(decoding: Data(bytes), source: source)
        }
    }

    /// ``init(manifestBytes:source:)`` from a buffer whose pages the reader gives back as it reads them (so the
    /// document and its descriptors are never held whole at once); `nil` when the document is not in the plain form
    /// the fast reader takes (or the reader could not use its second thread's work): its bytes are gone by then, and
    /// the caller reads the file again for ``init(manifestBytes:source:)``.
    package init?(manifestBuffer buffer: ManifestBuffer, source: URL?) throws(ConfigurationManifestError) {
        guard let plain = Self.plainManifest(concurrently: .buffer(buffer)) else { return nil }
        try self.init(plain: (plain.scopes, plain.requiresOwners), source: source)
    }

    /// Only the part of a manifest `selection` names, for a command that needs no other key: a catalog of the
    /// selected keys (in their scopes, in the manifest's order), read from a manifest of 100,000 keys in a fraction of
    /// the time the whole takes. The rest of the document is checked for well-formed JSON and the manifest's outline
    /// only, not key by key as the whole read checks it. `nil` when a named key or the scope is not there, or there
    /// is anything to say (not the plain form, a selected key that is refused, a name found twice): the caller then
    /// reads the whole manifest, which finds what suggestions, orphans and refusals need.
    package init?(manifestBytes bytes: [UInt8], selecting selection: ManifestSelection) {
        guard let plain = bytes.withUnsafeBytes({ Self.plainManifest($0, selecting: selection) }),
            !plain.scopes.isEmpty
        else { return nil }
        do {
            try self.init(plain: plain, source: nil)
        } catch {
            return nil
        }
        if case .keys(let names) = selection, keyCount != names.count { return nil }
    }

    /// The scopes of a manifest in the plain form every writer produces (only the keys `selection` names, if any),
    /// read by the fast reader a scope at a time; `nil` for anything else (and every refusal), which `JSONDecoder`
    /// then reads and says what is wrong.
    private static func plainManifest(
        _ bytes: UnsafeRawBufferPointer, selecting selection: ManifestSelection? = nil
    ) -> (scopes: [Scope], requiresOwners: Bool)? {
        var scopes: [Scope] = []
        let plain = ManifestCompactForm.read(bytes, selecting: selection) { scope in
            guard let scope = Self.scope(scope) else { return false }
            scopes.append(scope)
            return true
        }
        guard let plain, plain.format == ConfigurationManifest.formatName,
            plain.version <= ConfigurationManifest.version
        else { return nil }
        return (scopes, plain.requiresOwners ?? false)
    }

    /// ``plainManifest(_:selecting:)`` of the whole document, read on two threads when it is large
    /// (``ManifestCompactForm/readConcurrently(_:convert:)``).
    private static func plainManifest(
        concurrently source: ManifestSource
    ) -> (scopes: [Scope], requiresOwners: Bool, helped: Bool)? {
        let plain = ManifestCompactForm.readConcurrently(source, convert: Self.scope)
        guard let plain, plain.header.format == ConfigurationManifest.formatName,
            plain.header.version <= ConfigurationManifest.version
        else { return nil }
        return (plain.scopes, plain.header.requiresOwners ?? false, plain.helped)
    }

    /// For tests and benchmarks: whether reading `bytes` as a file's manifest used the second thread (`nil`: the
    /// document is not in the plain form, and the decoder reads it).
    package static func manifestReadIsShared(_ bytes: [UInt8]) -> Bool? {
        plainManifest(concurrently: .array(bytes))?.helped
    }

    /// A scope as the fast reader read it, with its keys' descriptors; `nil` when a key is refused (the decoder then
    /// says why).
    private static func scope(_ scope: ManifestDocument.Scope) -> Scope? {
        let sharing = ConfigurationKeyDescriptor.ControlSharing()
        let places = packedPlaces(of: scope)
        guard
            let keys = try? scope.keys.indices.map({ index throws(ManifestDocument.KeyProblem) in
                try scope.keys[index].descriptor(scope: scope.name, sharing: sharing, packed: places?[index])
            })
        else { return nil }
        return Scope(name: scope.name, keys: keys)
    }

    /// The scope's names and titles packed into the one buffer its keys will share, before the keys are made (so no
    /// descriptor is made with strings of its own and thrown away per key).
    private static func packedPlaces(of scope: ManifestDocument.Scope) -> [ConfigurationKeyDescriptor.PackedPlace]? {
        ConfigurationKeyDescriptor.packedPlaces(count: scope.keys.count) { index in
            let key = scope.keys[index]
            return (key.name, key.displayTitle)
        }
    }

    /// The catalog of a manifest the fast reader read; the decoder would read the same document, so a refusal here
    /// is the one it would give.
    private init(
        plain: (scopes: [Scope], requiresOwners: Bool), source: URL?
    ) throws(ConfigurationManifestError) {
        do {
            try self.init(scopes: plain.scopes)
        } catch {
            throw ConfigurationManifestError(url: source, problem: error.description)
        }
        requiresOwners = plain.requiresOwners
    }

    /// A manifest through `JSONDecoder`: any JSON spelling of the format, and the precise refusal of what is wrong.
    private init(decoding data: Data, source: URL?) throws(ConfigurationManifestError) {
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
        try self.init(document: document, fail: fail)
    }

    /// The catalog `document` describes, after checking every key.
    private init(
        document: ManifestDocument, fail: (String) -> ConfigurationManifestError
    ) throws(ConfigurationManifestError) {
        var scopes: [Scope] = []
        let sharing = ConfigurationKeyDescriptor.ControlSharing()
        for (scopeIndex, scope) in document.scopes.enumerated() {
            var keys: [ConfigurationKeyDescriptor] = []
            let places = Self.packedPlaces(of: scope)
            for (keyIndex, key) in scope.keys.enumerated() {
                do {
                    keys.append(try key.descriptor(scope: scope.name, sharing: sharing, packed: places?[keyIndex]))
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
