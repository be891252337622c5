public import ServiceConfigurationCore

extension DemoConfiguration {
    /// The demo programs' store name: their overrides live in `~/.local/state/service-configuration-demo/`.
    public static let appName = "service-configuration-demo"

    /// A large made-up catalog for scale tests and benchmarks: `keys` keys spread over `scopes` scopes, a mix of
    /// toggles, numbers, pickers and text, with server values for about a third of them (a few deliberately
    /// invalid). Deterministic: the same arguments give the same catalog and values.
    public static func synthetic(keys: Int, scopes: Int) throws(ConfigurationError) -> (
        catalog: ConfigurationCatalog, serverValues: [String: String]
    ) {
        let scopeCount = max(1, min(scopes, keys))
        let features = [
            "upload", "preview", "sync", "badge", "search", "share", "cache", "retry", "banner", "prefetch",
        ]
        let choices = ["off", "low", "medium", "high"]
        // One control and one validator per kind, shared by every key of that kind (as key types share theirs).
        let picker = ConfigurationDebugControl.picker(choices.map { .init(value: $0, title: $0) })
        let validateBool: @Sendable (String) throws(ConfigurationDecodingError) -> String = {
            (raw: String) throws(ConfigurationDecodingError) -> String in
            guard raw == "Y" || raw == "N" else { throw ConfigurationDecodingError(expected: "Y or N", got: raw) }
            return raw
        }
        let validateInt: @Sendable (String) throws(ConfigurationDecodingError) -> String = {
            (raw: String) throws(ConfigurationDecodingError) -> String in
            guard let value = Int(raw) else { throw ConfigurationDecodingError(expected: "an integer", got: raw) }
            return String(value)
        }
        let validateChoice: @Sendable (String) throws(ConfigurationDecodingError) -> String = {
            (raw: String) throws(ConfigurationDecodingError) -> String in
            guard choices.contains(raw) else {
                throw ConfigurationDecodingError(expected: "one of: " + choices.joined(separator: ", "), got: raw)
            }
            return raw
        }
        let validateText: @Sendable (String) throws(ConfigurationDecodingError) -> String = { $0 }
        var server: [String: String] = [:]
        var built: [ConfigurationCatalog.Scope] = []
        built.reserveCapacity(scopeCount)
        for scope in 0..<scopeCount {
            let scopeName = "Module\(scope)"
            let range = (keys * scope / scopeCount)..<(keys * (scope + 1) / scopeCount)
            var descriptors: [ConfigurationKeyDescriptor] = []
            descriptors.reserveCapacity(range.count)
            for index in range {
                let base = "function.module\(scope).\(features[index % features.count])\(index)"
                let descriptor: ConfigurationKeyDescriptor
                switch index % 4 {
                case 0:
                    descriptor = synthetic(base + ".enabled", scopeName, "Bool", .toggle, "N", validate: validateBool)
                    if index % 3 == 0 { server[descriptor.name] = index % 97 == 0 ? "yes" : "Y" }
                case 1:
                    descriptor = synthetic(
                        base + ".limit", scopeName, "Int", .number(.integer), "10", validate: validateInt)
                    if index % 3 == 0 { server[descriptor.name] = String(index % 500) }
                case 2:
                    descriptor = synthetic(base + ".mode", scopeName, "Mode", picker, "off", validate: validateChoice)
                    if index % 3 == 0 { server[descriptor.name] = choices[index % choices.count] }
                default:
                    descriptor = synthetic(base + ".label", scopeName, "String", .text, "", validate: validateText)
                }
                descriptors.append(descriptor)
            }
            built.append(ConfigurationCatalog.Scope(name: scopeName, keys: descriptors))
        }
        return (try ConfigurationCatalog(scopes: built), server)
    }

    private static func synthetic(
        _ name: String,
        _ scope: String,
        _ type: String,
        _ control: ConfigurationDebugControl,
        _ defaultValue: String,
        validate: @escaping @Sendable (String) throws(ConfigurationDecodingError) -> String
    ) -> ConfigurationKeyDescriptor {
        ConfigurationKeyDescriptor(
            name: name,
            scopeName: scope,
            title: ConfigurationDebugTitle.derive(from: name),
            valueTypeName: type,
            control: control,
            defaultValueString: defaultValue,
            validate: validate
        )
    }
}
