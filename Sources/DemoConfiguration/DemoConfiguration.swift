public import ServiceConfigurationCore

/// The built-in demo catalog: ten scopes of a messaging app, 55 keys covering every control type, two A/B keys,
/// JSON keys and a custom string value, plus a server snapshot with two deliberately invalid values.
///
/// ```swift
/// let service = LiveConfigurationService(
///     serverValues: DemoConfiguration.serverValues,
///     catalog: try DemoConfiguration.makeCatalog()
/// )
/// service.albumLikeEnabled                                   // false: the server sent "y", which is rejected
/// service.resolution(of: ConfigurationScopes.Album.AlbumLikeEnabledKey.self).rejections
/// ```
public enum DemoConfiguration {
    /// The demo's scopes, in menu order.
    public static let scopes: [any ConfigurationScope.Type] = [
        ConfigurationScopes.Photos.self,
        ConfigurationScopes.Album.self,
        ConfigurationScopes.Chat.self,
        ConfigurationScopes.Calls.self,
        ConfigurationScopes.Stickers.self,
        ConfigurationScopes.Payments.self,
        ConfigurationScopes.Timeline.self,
        ConfigurationScopes.Notifications.self,
        ConfigurationScopes.Profile.self,
        ConfigurationScopes.Network.self,
    ]

    /// The demo catalog. It requires every key to name an owner (``ConfigurationCatalog/requiresOwners``): eight
    /// scopes name one for their keys, Network and Notifications do not, so `config-menu audit` has something to say.
    public static func makeCatalog() throws(ConfigurationError) -> ConfigurationCatalog {
        try ConfigurationCatalog(scopes: scopes, requiresOwners: true)
    }

    /// A server snapshot as a sync would deliver it: mostly valid, with two values the keys reject
    /// (`"y"` for a Bool and `"500,000"` for an Int) and one key the demo does not know.
    public static let serverValues: [String: String] = [
        "function.media.image_medium": "1600,75",
        "function.media.upload_concurrency": "4",
        "function.media.hdr.enabled": "Y",
        "function.album.like.enabled": "y",
        "ab.album.like_button": "on",
        "function.album.max_photos": "2000",
        "function.chat.typing_interval_ms": "2500",
        "function.chat.reaction_set": #"["👍","❤️","😂","😮","😢","🙏","🎉"]"#,
        "function.chat.bubble_style": "rounded",
        "function.calls.group.max_participants": "300",
        "ab.calls.noise_suppression": "off",
        "function.stickers.animation_scale": "1.25",
        "function.payments.enabled": "Y",
        "function.payments.daily_limit": "500,000",
        "ab.payments.checkout_flow": "one_tap",
        "function.payments.provider": "2",
        "function.timeline.ranking": "relevance",
        "function.notifications.quiet_hours": #"{"end":"08:00","start":"22:30","weekdaysOnly":true}"#,
        "function.network.log_level": "info",
        "function.legacy.sticker_preview.enabled": "Y",
    ]
}
