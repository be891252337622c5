/// The bounds of a number key are a value rule, enforced on every source: a server value or an override outside a
/// key's ``ConfigurationDebugControlType/number(_:_:)`` range is rejected with the reason (the key falls back to the
/// next source), an override outside it is refused when it is set, and a catalog refuses a default outside it.
/// The typed read, the string-level resolution, change notifications, snapshots, the debug menu and `config-menu`
/// all apply it through `decodeWithinBounds(from:range:)`.
extension ConfigurationKey {
    /// The bounds the key's number control declares (integer keys have their type's by default), or `nil`.
    static var declaredNumberRange: ConfigurationNumberRange? {
        if case .number(_, let range) = debugControlType { range } else { nil }
    }

    /// The bounds a service applies to the key: those of its known `descriptor` (what the string-level paths and
    /// change detection use), else the key's own.
    static func numberRange(describedBy descriptor: ConfigurationKeyDescriptor?) -> ConfigurationNumberRange? {
        descriptor.map { $0.control.numberRange } ?? declaredNumberRange
    }

    /// Decodes `raw` with ``decode(from:)``, then refuses a value outside `range` (the key's bounds): the one value
    /// rule every reader applies.
    static func decodeWithinBounds(from raw: String, range: ConfigurationNumberRange?) throws -> Value {
        let value = try decode(from: raw)
        if let range, let problem = range.problem(with: (try? encode(value)) ?? raw) {
            throw ConfigurationDecodingError(problem)
        }
        return value
    }
}

extension RawLayers {
    /// The typed resolution of `key` under its value rules: its decoding, then its bounds `range`.
    func resolve<K: ConfigurationKey>(
        _ key: K.Type, range: ConfigurationNumberRange?
    ) -> ConfigurationResolution<K.Value> {
        resolve(defaultValue: K.defaultValue, decode: { try K.decodeWithinBounds(from: $0, range: range) })
    }
}
