public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Networking and diagnostics.
    public struct Network: ConfigurationScope {
        /// Request timeout, in seconds.
        public let networkTimeout: NetworkTimeoutKey
        /// `function.network.timeout_sec`: Request timeout, in seconds.
        public enum NetworkTimeoutKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.network.timeout_sec"
            /// The default value.
            public static let defaultValue: Double = 15.0
            /// The details pane's explanation.
            public static let summary = "Request timeout, in seconds."
            /// Between 1 and 120 seconds; `+` and `-` in the menu move by 5.
            public static var debugControlType: ConfigurationDebugControlType<Double> {
                .number(range: 1...120, step: 5)
            }
        }

        /// How many times a failed request is retried.
        public let networkRetryCount: NetworkRetryCountKey
        /// `function.network.retry_count`: How many times a failed request is retried.
        public enum NetworkRetryCountKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.network.retry_count"
            /// The default value.
            public static let defaultValue: Int = 3
            /// The details pane's explanation.
            public static let summary = "How many times a failed request is retried."
            /// From 0 to 10 retries.
            public static var debugControlType: ConfigurationDebugControlType<Int> { .number(range: 0...10) }
        }

        /// Whether HTTP/3 is tried first.
        public let networkHTTP3Enabled: NetworkHTTP3EnabledKey
        /// `function.network.http3.enabled`: Whether HTTP/3 is tried first.
        public enum NetworkHTTP3EnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.network.http3.enabled"
            /// The default value.
            public static let defaultValue: Bool = false
            /// The details pane's explanation.
            public static let summary = "Whether HTTP/3 is tried first."
            /// Who owns the key and when it goes.
            public static let lifecycle = ConfigurationKeyLifecycle(
                owner: "platform-team", removeBy: .date("2026-12-20"))
        }

        /// How much networking is logged.
        public let networkLogLevel: NetworkLogLevelKey
        /// `function.network.log_level`: How much networking is logged.
        public enum NetworkLogLevelKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.network.log_level"
            /// The default value.
            public static let defaultValue: LogLevel = .warning
            /// The details pane's explanation.
            public static let summary = "How much networking is logged."
        }

        /// Base URLs of the backend services.
        public let networkEndpoints: NetworkEndpointsKey
        /// `function.network.endpoints`: Base URLs of the backend services.
        public enum NetworkEndpointsKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.network.endpoints"
            /// The default value.
            public static let defaultValue: [String: String] = [
                "api": "https://api.example.com", "media": "https://media.example.com",
            ]
            /// The details pane's explanation.
            public static let summary = "Base URLs of the backend services."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Network``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Network, K>) -> K {
        self[K.self]
    }
}
