import ServiceConfigurationCore

extension ConfigurationScopes {
    /// The profile module's keys, declared by hand.
    public struct Profile: ConfigurationScope {
        /// How many characters a nickname may have.
        public let profileNicknameLength: NicknameLengthKey
        /// `function.profile.nickname_length`.
        public enum NicknameLengthKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.nickname_length"
            /// Twenty, unless the server says otherwise.
            public static let defaultValue = 20
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.profile…` to the keys of ``ConfigurationScopes/Profile``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Profile, K>) -> K {
        self[K.self]
    }
}
