public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Push notifications and badges.
    public struct Notifications: ConfigurationScope {
        /// When notifications stay silent.
        public let notificationsQuietHours: NotificationsQuietHoursKey
        /// `function.notifications.quiet_hours`: When notifications stay silent.
        public enum NotificationsQuietHoursKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.notifications.quiet_hours"
            /// The default value.
            public static let defaultValue: QuietHours = .standard
            /// The details pane's explanation.
            public static let summary = "When notifications stay silent."
        }

        /// Whether the app icon shows an unread count.
        public let notificationsBadgeEnabled: NotificationsBadgeEnabledKey
        /// `function.notifications.badge.enabled`: Whether the app icon shows an unread count.
        public enum NotificationsBadgeEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.notifications.badge.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether the app icon shows an unread count."
        }

        /// Whether notifications are bundled into a digest.
        public let notificationsDigestMode: NotificationsDigestModeKey
        /// `function.notifications.digest_mode`: Whether notifications are bundled into a digest.
        public enum NotificationsDigestModeKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.notifications.digest_mode"
            /// The default value.
            public static let defaultValue: DigestMode = .off
            /// The details pane's explanation.
            public static let summary = "Whether notifications are bundled into a digest."
        }

        /// Most notifications shown per hour.
        public let notificationsMaxPerHour: NotificationsMaxPerHourKey
        /// `function.notifications.max_per_hour`: Most notifications shown per hour.
        public enum NotificationsMaxPerHourKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.notifications.max_per_hour"
            /// The default value.
            public static let defaultValue: Int = 20
            /// The details pane's explanation.
            public static let summary = "Most notifications shown per hour."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Notifications``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Notifications, K>) -> K {
        self[K.self]
    }
}
