public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Shared photo albums.
    public struct Album: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "album-team"

        /// Whether album photos show a like button.
        public let albumLikeEnabled: AlbumLikeEnabledKey
        /// `function.album.like.enabled`: Whether album photos show a like button.
        public enum AlbumLikeEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.album.like.enabled"
            /// The default value.
            public static let defaultValue: Bool = false
            /// The details pane's explanation.
            public static let summary = "Whether album photos show a like button."
            /// Who owns the key and when it goes.
            public static let lifecycle = ConfigurationKeyLifecycle(ticket: "ALB-1024", removeBy: .date("2026-10-31"))
        }

        /// A/B test of the like button's placement.
        public let albumLikeButtonTest: AlbumLikeButtonTestKey
        /// `ab.album.like_button`: A/B test of the like button's placement.
        public enum AlbumLikeButtonTestKey: ConfigurationKey {
            /// The wire name.
            public static let name = "ab.album.like_button"
            /// The default value.
            public static let defaultValue: ConfigurationABTest = .none
            /// The details pane's explanation.
            public static let summary = "A/B test of the like button's placement."
            /// Who owns the key and when it goes.
            public static let lifecycle = ConfigurationKeyLifecycle(
                owner: "growth-team", ticket: "EXP-311", removeBy: .version("9.0"))
        }

        /// Most photos one album can hold.
        public let albumMaxPhotos: AlbumMaxPhotosKey
        /// `function.album.max_photos`: Most photos one album can hold.
        public enum AlbumMaxPhotosKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.album.max_photos"
            /// The default value.
            public static let defaultValue: Int = 1000
            /// The details pane's explanation.
            public static let summary = "Most photos one album can hold."
        }

        /// Default order of photos in an album.
        public let albumSortOrder: AlbumSortOrderKey
        /// `function.album.sort_order`: Default order of photos in an album.
        public enum AlbumSortOrderKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.album.sort_order"
            /// The default value.
            public static let defaultValue: AlbumSortOrder = .newestFirst
            /// The details pane's explanation.
            public static let summary = "Default order of photos in an album."
        }

        /// Whether albums can be shared outside the chat.
        public let albumSharingEnabled: AlbumSharingEnabledKey
        /// `function.album.sharing.enabled`: Whether albums can be shared outside the chat.
        public enum AlbumSharingEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.album.sharing.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether albums can be shared outside the chat."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Album``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Album, K>) -> K {
        self[K.self]
    }
}
