public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Sticker shop and suggestions.
    public struct Stickers: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "stickers-team"

        /// Whether the sticker shop is reachable.
        public let stickersShopEnabled: StickersShopEnabledKey
        /// `function.stickers.shop.enabled`: Whether the sticker shop is reachable.
        public enum StickersShopEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.stickers.shop.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether the sticker shop is reachable."
        }

        /// How many recently used stickers are kept.
        public let stickersRecentLimit: StickersRecentLimitKey
        /// `function.stickers.recent_limit`: How many recently used stickers are kept.
        public enum StickersRecentLimitKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.stickers.recent_limit"
            /// The default value.
            public static let defaultValue: Int = 30
            /// The details pane's explanation.
            public static let summary = "How many recently used stickers are kept."
        }

        /// Speed factor of animated stickers.
        public let stickersAnimationScale: StickersAnimationScaleKey
        /// `function.stickers.animation_scale`: Speed factor of animated stickers.
        public enum StickersAnimationScaleKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.stickers.animation_scale"
            /// The default value.
            public static let defaultValue: Double = 1.0
            /// The details pane's explanation.
            public static let summary = "Speed factor of animated stickers."
        }

        /// How stickers are suggested while typing.
        public let stickersSuggestionMode: StickersSuggestionModeKey
        /// `function.stickers.suggestion_mode`: How stickers are suggested while typing.
        public enum StickersSuggestionModeKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.stickers.suggestion_mode"
            /// The default value.
            public static let defaultValue: StickerSuggestionMode = .exact
            /// The details pane's explanation.
            public static let summary = "How stickers are suggested while typing."
        }

        /// Where sticker images are downloaded from.
        public let stickersCDNBaseURL: StickersCDNBaseURLKey
        /// `function.stickers.cdn_base_url`: Where sticker images are downloaded from.
        public enum StickersCDNBaseURLKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.stickers.cdn_base_url"
            /// The default value.
            public static let defaultValue: String = "https://stickers.example.com/v2/"
            /// The details pane's explanation.
            public static let summary = "Where sticker images are downloaded from."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Stickers``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Stickers, K>) -> K {
        self[K.self]
    }
}
