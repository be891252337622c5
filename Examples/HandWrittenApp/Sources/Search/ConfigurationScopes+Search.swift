import ServiceConfiguration

// The hand-written form: what `@ConfigurationScope` and `@ConfigurationKey` write, spelled out. Everything another
// module reads is `public` (the scope, each property, each key type with its `name` and `defaultValue`), and the
// routing subscript at the bottom is `public` too.

extension ConfigurationScopes {
    /// The search module's keys.
    public struct Search: ConfigurationScope {
        /// Whether search suggests queries as you type.
        public let searchSuggestionsEnabled: SuggestionsEnabledKey
        /// `search.suggestions.enabled`: this server sends `on`/`off`.
        public enum SuggestionsEnabledKey: ConfigurationKey {
            public static let name = "search.suggestions.enabled"
            public static let defaultValue = true
            public static let boolEncoding = ConfigurationBoolEncoding.onOff
            public static let summary = "Whether search suggests queries as you type."
        }

        /// How many results one page shows.
        public let searchPageSize: PageSizeKey
        /// `search.page_size`: from 10 to 100, by 10.
        public enum PageSizeKey: ConfigurationKey {
            public static let name = "search.page_size"
            public static let defaultValue = 20
            public static let summary = "How many results one page shows."
            public static var debugControlType: ConfigurationDebugControlType<Int> {
                .number(range: 10...100, step: 10)
            }
        }

        /// Which ranking the results use.
        public let searchRanking: RankingKey
        /// `search.ranking`: a picker over the cases.
        public enum RankingKey: ConfigurationKey {
            public static let name = "search.ranking"
            public static let defaultValue = SearchRanking.relevance
        }

        /// The index region queries go to, as two lower-case letters.
        public let searchRegion: RegionKey
        /// `search.region`.
        public enum RegionKey: ConfigurationKey {
            public static let name = "search.region"
            public static let defaultValue = "eu"
            public static let valuePattern = ConfigurationValuePattern("[a-z]{2}", format: "two lower-case letters")
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.search…` to the keys of ``ConfigurationScopes/Search``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Search, K>) -> K {
        self[K.self]
    }
}

/// The rankings the server can choose between.
public enum SearchRanking: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Best match first.
    case relevance
    /// Newest first.
    case recency
}

/// What a search page looks like for the current configuration.
public struct SearchPage: Equatable, Sendable {
    /// Results per page.
    public var size: Int
    /// The sort order's name.
    public var order: String
    /// Whether suggestions are shown.
    public var suggests: Bool

    /// The page the service's current values give.
    public init(configuration: some ConfigurationReader) {
        size = configuration.searchPageSize
        order = configuration.searchRanking == .recency ? "newest first" : "best match first"
        suggests = configuration.searchSuggestionsEnabled
    }
}

extension SearchPage {
    /// A page with the given values, for tests.
    public init(size: Int, order: String, suggests: Bool) {
        self.size = size
        self.order = order
        self.suggests = suggests
    }
}
