package import ServiceConfigurationCore
import ServiceConfigurationFiles

/// Every key's effective value at one instant, as OFREP flags: the bulk evaluation's body, its ETag, and each flag's
/// own object for single evaluations.
///
/// A value is typed by its key: a Bool key's value is `true`/`false` (whatever its wire strings), an integer key's
/// a JSON integer, a floating-point key's a JSON number with a fraction (`2.0`, so a typed client reads a float), a
/// JSON key's the JSON itself, every other key's its wire string. `reason` says where it came from: `STATIC` for an
/// override, `TARGETING_MATCH` for the server's value, `DEFAULT` for the key's default; `variant` names the same
/// source (`overridden`, `server`, `default`) and `metadata` holds it with the key's scope.
package struct OFREPState: Sendable {
    /// One flag: the key, its value's wire string and source (to tell what changed), its OFREP object.
    package struct Flag: Sendable {
        package var key: String
        package var rawValue: String?
        package var source: ValueOrigin
        package var object: JSONValue
    }

    /// The flags in catalog order.
    package let flags: [Flag]
    /// The bulk evaluation's body.
    package let body: [UInt8]
    /// The bulk evaluation's strong ETag (quoted): a digest of ``body``.
    package let etag: String
    private let index: [String: Int]

    /// The catalog's keys as `service` resolves them now.
    package init(catalog: ConfigurationCatalog, resolve: (String) -> ConfigurationResolution<String?>?) {
        var flags: [Flag] = []
        flags.reserveCapacity(catalog.keys.count)
        for descriptor in catalog.keys {
            guard let resolution = resolve(descriptor.name) else { continue }
            let raw = resolution.value ?? descriptor.defaultValueString
            flags.append(
                Flag(
                    key: descriptor.name, rawValue: raw, source: resolution.source,
                    object: Self.object(for: descriptor, rawValue: raw, source: resolution.source)))
        }
        self.flags = flags
        var body: [UInt8] = []
        JSONWriter.append(.object([("flags", .array(flags.map(\.object)))]), to: &body)
        self.body = body
        etag = "\"" + Self.digest(body) + "\""
        index = Dictionary(flags.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The flag of the key named `key`, if the catalog has one.
    package func flag(named key: String) -> Flag? { index[key].map { flags[$0] } }

    /// The keys whose value or source differ between `self` and `newer`.
    package func changedKeys(in newer: OFREPState) -> [String] {
        var changed: [String] = []
        for new in newer.flags {
            let old = flag(named: new.key)
            if old?.rawValue != new.rawValue || old?.source != new.source { changed.append(new.key) }
        }
        for old in flags where newer.flag(named: old.key) == nil { changed.append(old.key) }
        return changed
    }

    /// The OFREP reason of a source.
    package static func reason(_ source: ValueOrigin) -> String {
        switch source {
        case .launch, .overridden: "STATIC"
        case .server: "TARGETING_MATCH"
        case .default: "DEFAULT"
        }
    }

    static func object(for descriptor: ConfigurationKeyDescriptor, rawValue: String?, source: ValueOrigin)
        -> JSONValue
    {
        .object([
            ("key", .string(descriptor.name)),
            ("value", rawValue.map { typedValue($0, for: descriptor) } ?? .null),
            ("reason", .string(reason(source))),
            ("variant", .string(source.rawValue)),
            ("metadata", .object([("source", .string(source.rawValue)), ("scope", .string(descriptor.scopeName))])),
        ])
    }

    /// The JSON value a wire string stands for, typed by its key.
    package static func typedValue(_ raw: String, for descriptor: ConfigurationKeyDescriptor) -> JSONValue {
        switch descriptor.control {
        case .toggle:
            if raw == descriptor.toggleStrings.on { return .bool(true) }
            if raw == descriptor.toggleStrings.off { return .bool(false) }
        case .number(.integer, _):
            if Int64(raw) != nil { return .number(raw) }
        case .number(.floatingPoint, _):
            if let value = Double(raw), value.isFinite {
                let text = value.description
                return .number(text.contains(".") || text.contains("e") ? text : text + ".0")
            }
        case .json:
            if let value = try? StrictJSON.parse(Array(raw.utf8)) { return value }
        case .picker, .text:
            break
        }
        return .string(raw)
    }

    /// FNV-1a, 64 bits, in hexadecimal: an ETag only needs to change when the body does.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
