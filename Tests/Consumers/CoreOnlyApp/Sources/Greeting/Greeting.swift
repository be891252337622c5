import ServiceConfigurationCore

extension ConfigurationScopes {
    /// The greeting module's keys.
    public struct Greeting: ConfigurationScope {
        /// Whether the greeting is shown.
        public let greetingEnabled: EnabledKey
        /// `function.greeting.enabled`.
        public enum EnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.greeting.enabled"
            /// Shown unless the server says otherwise.
            public static let defaultValue = true
        }

        /// How many times the greeting repeats.
        public let greetingRepeat: RepeatKey
        /// `function.greeting.repeat`.
        public enum RepeatKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.greeting.repeat"
            /// Once, unless the server says otherwise.
            public static let defaultValue = 1
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.greeting…` to the keys of ``ConfigurationScopes/Greeting``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Greeting, K>) -> K {
        self[K.self]
    }
}

/// The greeting the module shows, from its keys: a module that only reads takes a `ConfigurationReader`.
public func greeting(_ service: any ConfigurationReader) -> String {
    guard service.greetingEnabled else { return "" }
    return Array(repeating: "hello", count: max(0, service.greetingRepeat)).joined(separator: " ")
}
