import ServiceConfigurationMacros

extension ConfigurationScopes {
    /// The profile module's keys. Properties start with `profile`, so none can collide with another module's.
    @ConfigurationScope
    public struct Profile {
        /// The longest bio, in characters.
        @ConfigurationKey("function.profile.bio.max_length")  // derived title: "Bio Max Length"
        public static let profileBioMaxLength = 160

        /// Whether people can upload an avatar.
        @ConfigurationKey("function.profile.avatar_upload.enabled", boolEncoding: .oneZero)  // this server sends 1/0
        public static let profileAvatarUploadEnabled = true

        /// The profile page's accent colour.
        @ConfigurationKey(
            "function.profile.theme_color",
            pattern: ConfigurationValuePattern("#[0-9A-F]{6}", format: "#RRGGBB in capitals such as #06C755"))
        public static let profileThemeColor = "#06C755"

        /// How far avatars are scaled down before upload.
        @ConfigurationKey("function.profile.avatar_scale") public static let profileAvatarScale = 0.5

        /// Who sees a profile by default.
        @ConfigurationKey("function.profile.default_visibility")
        public static let profileDefaultVisibility = ProfileVisibility.friends

        /// The avatar's pixel size.
        @ConfigurationKey("function.profile.avatar_size")  // "256x256" on the wire
        public static let profileAvatarSize = AvatarSize(width: 256, height: 256)

        /// Badges shown on profiles, by minimum number of orders.
        @ConfigurationKey("function.profile.badges")  // a JSON array
        public static let profileBadges = [Badge(title: "Regular", minimumOrders: 10)]

        /// The A/B test of the new profile editor.
        @ConfigurationKey("ab.profile.editor") public static let profileEditorTest = EditorVariant.control
    }
}

/// Routes `service.profile…` to the keys of ``ConfigurationScopes/Profile``.
@Routes(ConfigurationScopes.Profile.self) extension ConfigurationDynamicLookup {}
