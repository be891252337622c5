import ServiceConfiguration

extension ConfigurationScopes {
    /// The profile module's keys. Properties start with `profile`, so none can collide with another module's.
    public struct Profile: ConfigurationScope {
        /// The longest bio, in characters. Derived title: "Bio Max Length" (the segment before a generic last one is
        /// kept).
        public let profileBioMaxLength: BioMaxLengthKey
        /// `function.profile.bio.max_length`.
        public enum BioMaxLengthKey: ConfigurationKey {
            public static let name = "function.profile.bio.max_length"
            public static let defaultValue = 160
            public static let summary = "The longest bio, in characters."
        }

        /// Whether people can upload an avatar. This server sends `1`/`0`.
        public let profileAvatarUploadEnabled: AvatarUploadEnabledKey
        /// `function.profile.avatar_upload.enabled`.
        public enum AvatarUploadEnabledKey: ConfigurationKey {
            public static let name = "function.profile.avatar_upload.enabled"
            public static let defaultValue = true
            public static let boolEncoding = ConfigurationBoolEncoding.oneZero
        }

        /// The profile page's accent colour: a String key with its own pattern.
        public let profileThemeColor: ThemeColorKey
        /// `function.profile.theme_color`.
        public enum ThemeColorKey: ConfigurationKey {
            public static let name = "function.profile.theme_color"
            public static let defaultValue = "#06C755"
            public static let valuePattern = ConfigurationValuePattern(
                "#[0-9A-F]{6}", format: "#RRGGBB in capitals such as #06C755")
        }

        /// How far avatars are scaled down before upload.
        public let profileAvatarScale: AvatarScaleKey
        /// `function.profile.avatar_scale`.
        public enum AvatarScaleKey: ConfigurationKey {
            public static let name = "function.profile.avatar_scale"
            public static let defaultValue = 0.5
        }

        /// Who sees a profile by default.
        public let profileDefaultVisibility: DefaultVisibilityKey
        /// `function.profile.default_visibility`.
        public enum DefaultVisibilityKey: ConfigurationKey {
            public static let name = "function.profile.default_visibility"
            public static let defaultValue = ProfileVisibility.friends
        }

        /// The avatar's pixel size, as `"256x256"`.
        public let profileAvatarSize: AvatarSizeKey
        /// `function.profile.avatar_size`.
        public enum AvatarSizeKey: ConfigurationKey {
            public static let name = "function.profile.avatar_size"
            public static let defaultValue = AvatarSize(width: 256, height: 256)
        }

        /// Badges shown on profiles, by minimum number of orders.
        public let profileBadges: BadgesKey
        /// `function.profile.badges`: a JSON array.
        public enum BadgesKey: ConfigurationKey {
            public static let name = "function.profile.badges"
            public static let defaultValue = [Badge(title: "Regular", minimumOrders: 10)]
        }

        /// The A/B test of the new profile editor.
        public let profileEditorTest: EditorTestKey
        /// `ab.profile.editor`.
        public enum EditorTestKey: ConfigurationKey {
            public static let name = "ab.profile.editor"
            public static let defaultValue = EditorVariant.control
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.profile…` to the keys of ``ConfigurationScopes/Profile``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Profile, K>) -> K {
        self[K.self]
    }
}
