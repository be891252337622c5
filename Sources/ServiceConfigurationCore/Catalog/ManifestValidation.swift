/// Validation from a control description alone, for keys known only through a manifest.
///
/// Each validator returns what the program's own key would store for the same string: the canonical wire string,
/// with the program's messages for what it refuses.
enum ManifestValidation {
    /// The canonical wire string of `raw` for a key with this control, toggle strings and pattern, or why `raw` is
    /// refused.
    static func validate(
        _ raw: String,
        control: ConfigurationDebugControl,
        toggle: ConfigurationKeyDescriptor.ToggleStrings,
        pattern: ConfigurationValuePattern = .any
    ) throws(ConfigurationDecodingError) -> String {
        if !pattern.isAny { try pattern.check(raw) }
        switch control {
        case .toggle:
            let encoding = ConfigurationBoolEncoding(true: toggle.on, false: toggle.off)
            return encoding.encode(try encoding.decode(raw))
        case .picker(let choices):
            guard choices.contains(where: { $0.value == raw }) else {
                throw ConfigurationDecodingError(
                    expected: "one of: " + choices.map { VisibleText.escaped($0.value) }.joined(separator: ", "),
                    got: raw)
            }
            return raw
        case .number(.integer, let range):
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
        case .number(.floatingPoint, let range):
            guard let value = Double(raw), value.isFinite else {
                throw ConfigurationDecodingError(expected: "a finite number", got: raw)
            }
            if let problem = range?.problem(with: value.description) { throw ConfigurationDecodingError(problem) }
            return value.description
        case .json:
            return try ConfigurationJSONValue(configurationJSON: raw).configurationJSON()
        case .text:
            return raw
        }
    }
}
