public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Profiles and avatars.
    public struct Profile: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "profile-team"

        /// Longest status message, in characters.
        public let profileStatusMessageMaxLength: ProfileStatusMessageMaxLengthKey
        /// `function.profile.status_message_max_length`: Longest status message, in characters.
        public enum ProfileStatusMessageMaxLengthKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.status_message_max_length"
            /// The default value.
            public static let defaultValue: Int = 500
            /// The details pane's explanation.
            public static let summary = "Longest status message, in characters."
        }

        /// Whether friends see the birthday by default.
        public let profileBirthdayVisible: ProfileBirthdayVisibleKey
        /// `function.profile.birthday_visible.enabled`: Whether friends see the birthday by default.
        public enum ProfileBirthdayVisibleKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.birthday_visible.enabled"
            /// The default value.
            public static let defaultValue: Bool = false
            /// The details pane's explanation.
            public static let summary = "Whether friends see the birthday by default."
        }

        /// Accent colour of profile pages.
        public let profileThemeColor: ProfileThemeColorKey
        /// `function.profile.theme_color`: Accent colour of profile pages.
        public enum ProfileThemeColorKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.theme_color"
            /// The default value.
            public static let defaultValue: String = "#06C755"
            /// The details pane's explanation.
            public static let summary = "Accent colour of profile pages."
        }

        /// Size and JPEG quality of uploaded avatars.
        public let profileAvatarQuality: ProfileAvatarQualityKey
        /// `function.profile.avatar_quality`: Size and JPEG quality of uploaded avatars.
        public enum ProfileAvatarQualityKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.avatar_quality"
            /// The default value.
            public static let defaultValue: ImageTransferQuality = .init(maxDimension: 640, compression: 0.8)
            /// The details pane's explanation.
            public static let summary = "Size and JPEG quality of uploaded avatars."
        }

        /// Example name shown in the profile editor.
        public let profileDisplayName: ProfileDisplayNameKey
        /// `function.profile.display_name_hint`: Example name shown in the profile editor.
        public enum ProfileDisplayNameKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.profile.display_name_hint"
            /// The default value.
            public static let defaultValue: String = "小林 さくら"
            /// The details pane's explanation.
            public static let summary = "Example name shown in the profile editor."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Profile``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Profile, K>) -> K {
        self[K.self]
    }
}
