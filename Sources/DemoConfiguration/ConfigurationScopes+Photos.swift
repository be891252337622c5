public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Photo capture, upload and transfer quality.
    public struct Photos: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "media-team"

        /// Size and JPEG quality of medium images sent in chats and albums.
        public let imageMedium: ImageMediumKey
        /// `function.media.image_medium`: Size and JPEG quality of medium images sent in chats and albums.
        public enum ImageMediumKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.image_medium"
            /// The default value.
            public static let defaultValue: ImageTransferQuality = .standard
            /// The details pane's explanation.
            public static let summary =
                "Size and JPEG quality of medium images sent in chats and albums."
        }

        /// Size and JPEG quality of full-resolution images.
        public let imageLarge: ImageLargeKey
        /// `function.media.image_large`: Size and JPEG quality of full-resolution images.
        public enum ImageLargeKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.image_large"
            /// The default value.
            public static let defaultValue: ImageTransferQuality = .init(maxDimension: 2560, compression: 0.85)
            /// The details pane's explanation.
            public static let summary = "Size and JPEG quality of full-resolution images."
        }

        /// How many photos upload at the same time.
        public let uploadConcurrency: UploadConcurrencyKey
        /// `function.media.upload_concurrency`: How many photos upload at the same time.
        public enum UploadConcurrencyKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.upload_concurrency"
            /// The default value.
            public static let defaultValue: Int = 3
            /// The details pane's explanation.
            public static let summary = "How many photos upload at the same time."
        }

        /// Whether HDR photos are kept as HDR when sent.
        public let hdrEnabled: HdrEnabledKey
        /// `function.media.hdr.enabled`: Whether HDR photos are kept as HDR when sent.
        public enum HdrEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.hdr.enabled"
            /// The default value.
            public static let defaultValue: Bool = false
            /// The details pane's explanation.
            public static let summary = "Whether HDR photos are kept as HDR when sent."
        }

        /// Longest video that can be sent, in seconds.
        public let videoMaxDuration: VideoMaxDurationKey
        /// `function.media.video_max_duration_sec`: Longest video that can be sent, in seconds.
        public enum VideoMaxDurationKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.video_max_duration_sec"
            /// The default value.
            public static let defaultValue: Int = 300
            /// The details pane's explanation.
            public static let summary = "Longest video that can be sent, in seconds."
        }

        /// Which files may be uploaded and how large they may be.
        public let uploadPolicy: UploadPolicyKey
        /// `function.media.upload_policy`: Which files may be uploaded and how large they may be.
        public enum UploadPolicyKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.media.upload_policy"
            /// The default value.
            public static let defaultValue: UploadPolicy = .standard
            /// The details pane's explanation.
            public static let summary = "Which files may be uploaded and how large they may be."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Photos``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Photos, K>) -> K {
        self[K.self]
    }
}
