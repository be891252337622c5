public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: The home timeline.
    public struct Timeline: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "timeline-team"

        /// Whether videos play automatically while scrolling.
        public let timelineAutoplayVideos: TimelineAutoplayVideosKey
        /// `function.timeline.autoplay_videos.enabled`: Whether videos play automatically while scrolling.
        public enum TimelineAutoplayVideosKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.timeline.autoplay_videos.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether videos play automatically while scrolling."
        }

        /// Posts fetched per page.
        public let timelinePageSize: TimelinePageSizeKey
        /// `function.timeline.page_size`: Posts fetched per page.
        public enum TimelinePageSizeKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.timeline.page_size"
            /// The default value.
            public static let defaultValue: Int = 20
            /// The details pane's explanation.
            public static let summary = "Posts fetched per page."
        }

        /// How posts are ordered.
        public let timelineRanking: TimelineRankingKey
        /// `function.timeline.ranking`: How posts are ordered.
        public enum TimelineRankingKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.timeline.ranking"
            /// The default value.
            public static let defaultValue: TimelineRanking = .hybrid
            /// The details pane's explanation.
            public static let summary = "How posts are ordered."
        }

        /// One ad every this many posts.
        public let timelineAdFrequency: TimelineAdFrequencyKey
        /// `function.timeline.ad_frequency`: One ad every this many posts.
        public enum TimelineAdFrequencyKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.timeline.ad_frequency"
            /// The default value.
            public static let defaultValue: Int = 8
            /// The details pane's explanation.
            public static let summary = "One ad every this many posts."
        }

        /// How many screens ahead the timeline prefetches.
        public let timelinePrefetchDistance: TimelinePrefetchDistanceKey
        /// `function.timeline.prefetch_distance`: How many screens ahead the timeline prefetches.
        public enum TimelinePrefetchDistanceKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.timeline.prefetch_distance"
            /// The default value.
            public static let defaultValue: Double = 2.5
            /// The details pane's explanation.
            public static let summary = "How many screens ahead the timeline prefetches."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Timeline``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Timeline, K>) -> K {
        self[K.self]
    }
}
