public import ServiceConfigurationCore

/// Upload limits, carried as JSON.
public struct UploadPolicy: Codable, Hashable, Sendable, ConfigurationValueJSONRepresentable {
    /// Largest file in megabytes.
    public var maxFileSizeMB: Int
    /// Allowed file extensions.
    public var allowedExtensions: [String]
    /// Whether uploads wait for Wi-Fi.
    public var wifiOnly: Bool

    /// 100 MB, common photo and video types, any network.
    public static let standard = UploadPolicy(
        maxFileSizeMB: 100,
        allowedExtensions: ["jpg", "heic", "png", "mp4", "mov"],
        wifiOnly: false
    )

    /// Creates a policy.
    public init(maxFileSizeMB: Int, allowedExtensions: [String], wifiOnly: Bool) {
        self.maxFileSizeMB = maxFileSizeMB
        self.allowedExtensions = allowedExtensions
        self.wifiOnly = wifiOnly
    }
}

/// Quiet hours for notifications, carried as JSON.
public struct QuietHours: Codable, Hashable, Sendable, ConfigurationValueJSONRepresentable {
    /// Start, as `"HH:MM"`.
    public var start: String
    /// End, as `"HH:MM"`.
    public var end: String
    /// Whether quiet hours apply on weekdays only.
    public var weekdaysOnly: Bool

    /// 23:00 to 07:00 every day.
    public static let standard = QuietHours(start: "23:00", end: "07:00", weekdaysOnly: false)

    /// Creates quiet hours.
    public init(start: String, end: String, weekdaysOnly: Bool) {
        self.start = start
        self.end = end
        self.weekdaysOnly = weekdaysOnly
    }
}

/// The order of photos in an album.
public enum AlbumSortOrder: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Newest first.
    case newestFirst = "newest_first"
    /// Oldest first.
    case oldestFirst = "oldest_first"
    /// By who added them.
    case byContributor = "by_contributor"
}

/// The shape of chat bubbles.
public enum ChatBubbleStyle: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Square corners.
    case classic
    /// Round corners.
    case rounded
    /// No bubble.
    case minimal
}

/// Audio codecs for calls.
public enum AudioCodec: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Opus.
    case opus
    /// AAC-ELD.
    case aacEld = "aac_eld"
    /// G.711, for old networks.
    case g711
}

/// How stickers are suggested.
public enum StickerSuggestionMode: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Never.
    case off
    /// When a typed word matches a sticker tag exactly.
    case exact
    /// When a typed word is close to a tag.
    case fuzzy
}

/// The arms of the checkout A/B test; both one-tap and two-tap count as enabled.
public enum CheckoutFlowVariant: String, Sendable, ConfigurationExperimentVariant {
    /// Not in the test.
    case none
    /// The current flow.
    case control
    /// Pay with one tap.
    case oneTap = "one_tap"
    /// Pay with a confirmation tap.
    case twoTap = "two_tap"

    /// `oneTap` and `twoTap`.
    public static let enabledVariants: Set<CheckoutFlowVariant> = [.oneTap, .twoTap]
}

/// Card payment providers, numbered as the server numbers them: an integer raw-value enum.
public enum PaymentProvider: Int, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// The main provider.
    case primary = 1
    /// The fallback provider.
    case secondary = 2
    /// The provider's sandbox.
    case sandbox = 99
}

/// How the timeline orders posts.
public enum TimelineRanking: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Newest first.
    case chronological
    /// Most relevant first.
    case relevance
    /// Relevance with fresh posts boosted.
    case hybrid
}

/// Notification digests.
public enum DigestMode: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Every notification on its own.
    case off
    /// One digest a day.
    case daily
    /// One digest a week.
    case weekly
}

/// Log verbosity.
public enum LogLevel: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    /// Errors only.
    case error
    /// Errors and warnings.
    case warning
    /// Everything notable.
    case info
    /// Everything.
    case debug
}
