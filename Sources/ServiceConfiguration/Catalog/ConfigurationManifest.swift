public import Foundation

/// A catalog as a JSON document, so a standalone tool (such as `config-menu --manifest FILE`) can list, validate and
/// edit the overrides of a program it does not link.
///
/// ```swift
/// try catalog.manifestJSON().write(to: URL(fileURLWithPath: "app.manifest.json"))   // in the program
/// let catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: "app.manifest.json"))   // in a tool
/// ```
///
/// Format (version 1):
///
/// ```json
/// {
///   "format": "service-configuration-manifest",
///   "version": 1,
///   "scopes": [
///     {"name": "Album", "keys": [
///       {"name": "function.album.like.enabled", "title": "Like Enabled", "type": "Bool", "default": "N",
///        "control": {"kind": "toggle"}, "summary": "Whether album photos show a like button."}
///     ]}
///   ]
/// }
/// ```
///
/// `control.kind` is `toggle` (values `Y`/`N`), `picker` (with `choices`: `value`, `title`, optional `enabled`),
/// `number` (with `number`: `integer` or `floatingPoint`), `text` or `json`. A tool validates values from these
/// descriptions alone: toggles take `Y`/`N`, pickers one of their choices, numbers a number of their kind, JSON keys
/// well-formed JSON; text keys take any string (a custom string format, such as `"1280,70"`, can only be checked by
/// the program itself). `summary` and `default` are optional (`default` absent: the default has no wire form).
public enum ConfigurationManifest {
    /// The `format` field's value.
    public static let formatName = "service-configuration-manifest"
    /// The version this build writes and reads.
    public static let version = 1
}

extension ConfigurationCatalog {
    /// The catalog as a manifest: pretty-printed JSON with the keys in catalog order.
    public func manifestJSON() -> Data {
        let scopes: [JSONValue] = scopes.map { scope in
            .object([
                ("name", .string(scope.name)),
                ("keys", .array(scope.keys.map(Self.manifestEntry))),
            ])
        }
        let document = JSONValue.object([
            ("format", .string(ConfigurationManifest.formatName)),
            ("version", .number(String(ConfigurationManifest.version))),
            ("scopes", .array(scopes)),
        ])
        var buffer: [UInt8] = []
        JSONWriter.append(document, to: &buffer, indent: 2)
        buffer.append(0x0A)
        return Data(buffer)
    }

    private static func manifestEntry(_ key: ConfigurationKeyDescriptor) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(key.name)),
            ("title", .string(key.title)),
            ("type", .string(key.valueTypeName)),
        ]
        if let defaultValue = key.defaultValueString { members.append(("default", .string(defaultValue))) }
        let control: JSONValue
        switch key.control {
        case .toggle:
            control = .object([
                ("kind", .string("toggle")), ("on", .string(key.toggleStrings.on)),
                ("off", .string(key.toggleStrings.off)),
            ])
        case .text: control = .object([("kind", .string("text"))])
        case .json: control = .object([("kind", .string("json"))])
        case .number(let kind): control = .object([("kind", .string("number")), ("number", .string(kind.rawValue))])
        case .picker(let choices):
            control = .object([
                ("kind", .string("picker")),
                (
                    "choices",
                    .array(
                        choices.map { choice in
                            var fields: [(key: String, value: JSONValue)] = [
                                ("value", .string(choice.value)), ("title", .string(choice.title)),
                            ]
                            if let enabled = choice.isEnabled { fields.append(("enabled", .bool(enabled))) }
                            return .object(fields)
                        }
                    )
                ),
            ])
        }
        members.append(("control", control))
        if let summary = key.summary { members.append(("summary", .string(summary))) }
        return .object(members)
    }

    /// Reads a manifest file; errors name the file and the place in it.
    public init(manifestAt url: URL) throws(ConfigurationManifestError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigurationManifestError(url: url, problem: "cannot read the file (missing or not readable)")
        }
        try self.init(manifest: data, source: url)
    }

    /// Reads a manifest; `source` names it in errors.
    public init(manifest data: Data, source: URL? = nil) throws(ConfigurationManifestError) {
        let fail = { (problem: String) in ConfigurationManifestError(url: source, problem: problem) }
        let root: JSONValue
        do {
            root = try StrictJSON.parse([UInt8](data))
        } catch {
            throw fail("not valid JSON: \(error)")
        }
        let reader = ManifestReader(fail: fail)
        let document = try reader.object(root, at: "the document")
        guard case .string(ConfigurationManifest.formatName)? = document["format"] else {
            throw fail("\"format\" must be \"\(ConfigurationManifest.formatName)\"; this is not a catalog manifest")
        }
        guard case .number(let version)? = document["version"], let number = Int(version) else {
            throw fail("\"version\" must be a whole number")
        }
        guard number <= ConfigurationManifest.version else {
            throw fail(
                "written by a newer version of the format (version \(number); this build reads up to \(ConfigurationManifest.version))"
            )
        }
        let scopes = try reader.array(document["scopes"], at: "scopes").enumerated().map {
            index, value throws(ConfigurationManifestError) in
            let path = "scopes[\(index)]"
            let scope = try reader.object(value, at: path)
            let name = try reader.string(scope["name"], at: "\(path).name")
            let keys = try reader.array(scope["keys"], at: "\(path).keys").enumerated().map {
                keyIndex, key throws(ConfigurationManifestError) in
                try reader.descriptor(key, scope: name, at: "\(path).keys[\(keyIndex)]")
            }
            return Scope(name: name, keys: keys)
        }
        do {
            try self.init(scopes: scopes)
        } catch {
            throw fail(error.description)
        }
    }
}

/// A manifest that could not be read, naming the file and what is wrong where.
public struct ConfigurationManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest file, if it came from one.
    public var url: URL?
    /// The problem, with the path inside the document (`scopes[2].keys[0].control.kind: ...`).
    public var problem: String

    /// Creates an error.
    public init(url: URL?, problem: String) {
        self.url = url
        self.problem = problem
    }

    /// `<path>: <problem>`.
    public var description: String { url.map { "\($0.path): \(problem)" } ?? problem }
}

/// Typed access to a parsed manifest, with errors that say where.
private struct ManifestReader {
    let fail: (String) -> ConfigurationManifestError

    func object(_ value: JSONValue?, at path: String) throws(ConfigurationManifestError) -> [String: JSONValue] {
        guard case .object(let members)? = value else {
            throw fail("\(path) must be an object, found \(value?.typeDescription ?? "nothing")")
        }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func array(_ value: JSONValue?, at path: String) throws(ConfigurationManifestError) -> [JSONValue] {
        guard case .array(let elements)? = value else {
            throw fail("\(path) must be an array, found \(value?.typeDescription ?? "nothing")")
        }
        return elements
    }

    func string(_ value: JSONValue?, at path: String) throws(ConfigurationManifestError) -> String {
        guard case .string(let text)? = value else {
            throw fail("\(path) must be a string, found \(value?.typeDescription ?? "nothing")")
        }
        return text
    }

    func optionalString(_ value: JSONValue?, at path: String) throws(ConfigurationManifestError) -> String? {
        guard let value, value != .null else { return nil }
        return try string(value, at: path)
    }

    func descriptor(_ value: JSONValue, scope: String, at path: String) throws(ConfigurationManifestError)
        -> ConfigurationKeyDescriptor
    {
        let fields = try object(value, at: path)
        let name = try string(fields["name"], at: "\(path).name")
        guard !name.isEmpty else { throw fail("\(path).name must not be empty") }
        let control = try self.control(fields["control"], at: "\(path).control")
        let controlFields = try object(fields["control"], at: "\(path).control")
        let toggle = ConfigurationKeyDescriptor.ToggleStrings(
            on: try optionalString(controlFields["on"], at: "\(path).control.on") ?? "Y",
            off: try optionalString(controlFields["off"], at: "\(path).control.off") ?? "N"
        )
        return ConfigurationKeyDescriptor(
            name: name,
            scopeName: scope,
            title: try optionalString(fields["title"], at: "\(path).title")
                ?? ConfigurationDebugTitle.derive(from: name),
            summary: try optionalString(fields["summary"], at: "\(path).summary"),
            valueTypeName: try optionalString(fields["type"], at: "\(path).type") ?? "String",
            control: control,
            defaultValueString: try optionalString(fields["default"], at: "\(path).default"),
            toggleStrings: toggle,
            validate: ManifestValidation.validator(for: control, toggle: toggle)
        )
    }

    func control(_ value: JSONValue?, at path: String) throws(ConfigurationManifestError) -> ConfigurationDebugControl {
        let fields = try object(value, at: path)
        let kind = try string(fields["kind"], at: "\(path).kind")
        switch kind {
        case "toggle": return .toggle
        case "text": return .text
        case "json": return .json
        case "number":
            let number = try string(fields["number"], at: "\(path).number")
            guard let numberKind = ConfigurationNumberKind(rawValue: number) else {
                throw fail("\(path).number must be \"integer\" or \"floatingPoint\", found \"\(number)\"")
            }
            return .number(numberKind)
        case "picker":
            let choices = try array(fields["choices"], at: "\(path).choices").enumerated().map {
                index, choice throws(ConfigurationManifestError) in
                let item = try object(choice, at: "\(path).choices[\(index)]")
                let value = try string(item["value"], at: "\(path).choices[\(index)].value")
                var enabled: Bool?
                if case .bool(let flag)? = item["enabled"] { enabled = flag }
                return ConfigurationDebugControl.Choice(
                    value: value,
                    title: try optionalString(item["title"], at: "\(path).choices[\(index)].title") ?? value,
                    isEnabled: enabled
                )
            }
            guard !choices.isEmpty else { throw fail("\(path).choices must list at least one choice") }
            return .picker(choices)
        default:
            throw fail("\(path).kind must be toggle, picker, number, text or json, found \"\(kind)\"")
        }
    }
}

/// Validation from a control description alone, for keys known only through a manifest.
enum ManifestValidation {
    static func validator(
        for control: ConfigurationDebugControl,
        toggle: ConfigurationKeyDescriptor.ToggleStrings
    ) -> @Sendable (String) throws(ConfigurationDecodingError) -> String {
        switch control {
        case .toggle:
            return { raw throws(ConfigurationDecodingError) in
                guard raw == toggle.on || raw == toggle.off else {
                    throw ConfigurationDecodingError(expected: "\(toggle.on) or \(toggle.off)", got: raw)
                }
                return raw
            }
        case .picker(let choices):
            let values = choices.map(\.value)
            return { raw throws(ConfigurationDecodingError) in
                guard values.contains(raw) else {
                    throw ConfigurationDecodingError(expected: "one of: " + values.joined(separator: ", "), got: raw)
                }
                return raw
            }
        case .number(.integer):
            return { raw throws(ConfigurationDecodingError) in
                guard let value = Int64(raw) else { throw ConfigurationDecodingError(expected: "an integer", got: raw) }
                return String(value)
            }
        case .number(.floatingPoint):
            return { raw throws(ConfigurationDecodingError) in
                guard let value = Double(raw), value.isFinite else {
                    throw ConfigurationDecodingError(expected: "a finite number", got: raw)
                }
                return value.description
            }
        case .json:
            return { raw throws(ConfigurationDecodingError) in
                do {
                    let value = try StrictJSON.parse(Array(raw.utf8))
                    var buffer: [UInt8] = []
                    JSONWriter.append(value, to: &buffer)
                    return String(decoding: buffer, as: UTF8.self)
                } catch {
                    throw ConfigurationDecodingError("not valid JSON: \(error)")
                }
            }
        case .text:
            return { $0 }
        }
    }
}
