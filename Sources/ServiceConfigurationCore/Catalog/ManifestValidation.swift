/// Validation from a control description alone, for keys known only through a manifest.
///
/// Each validator returns what the program's own key would store for the same string: the canonical wire string,
/// with the program's messages for what it refuses.
enum ManifestValidation {
    static func validator(
        for control: ConfigurationDebugControl,
        toggle: ConfigurationKeyDescriptor.ToggleStrings,
        pattern: ConfigurationValuePattern = .any
    ) -> @Sendable (String) throws(ConfigurationDecodingError) -> String {
        let check = base(for: control, toggle: toggle)
        guard !pattern.isAny else { return check }
        return { raw throws(ConfigurationDecodingError) in
            try pattern.check(raw)
            return try check(raw)
        }
    }

    private static func base(
        for control: ConfigurationDebugControl,
        toggle: ConfigurationKeyDescriptor.ToggleStrings
    ) -> @Sendable (String) throws(ConfigurationDecodingError) -> String {
        switch control {
        case .toggle:
            let encoding = ConfigurationBoolEncoding(true: toggle.on, false: toggle.off)
            return { raw throws(ConfigurationDecodingError) in
                encoding.encode(try encoding.decode(raw))
            }
        case .picker(let choices):
            let values = choices.map(\.value)
            return { raw throws(ConfigurationDecodingError) in
                guard values.contains(raw) else {
                    throw ConfigurationDecodingError(
                        expected: "one of: " + values.map(VisibleText.escaped).joined(separator: ", "), got: raw)
                }
                return raw
            }
        case .number(.integer, let range):
            return { raw throws(ConfigurationDecodingError) in
                let canonical: String
                if let value = Int64(raw) {
                    canonical = String(value)
                } else if let value = UInt64(raw) {
                    canonical = String(value)
                } else {
                    throw ConfigurationDecodingError(expected: "an integer", got: raw)
                }
                if let problem = range?.problem(with: canonical) { throw ConfigurationDecodingError(problem) }
                return canonical
            }
        case .number(.floatingPoint, let range):
            return { raw throws(ConfigurationDecodingError) in
                guard let value = Double(raw), value.isFinite else {
                    throw ConfigurationDecodingError(expected: "a finite number", got: raw)
                }
                if let problem = range?.problem(with: value.description) { throw ConfigurationDecodingError(problem) }
                return value.description
            }
        case .json:
            return { raw throws(ConfigurationDecodingError) in
                try ConfigurationJSONValue(configurationJSON: raw).configurationJSON()
            }
        case .text:
            return { $0 }
        }
    }
}
