public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Messaging.
    public struct Chat: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "chat-team"

        /// Whether the "is typing" indicator is sent and shown.
        public let chatTypingIndicatorEnabled: ChatTypingIndicatorEnabledKey
        /// `function.chat.typing_indicator.enabled`: Whether the "is typing" indicator is sent and shown.
        public enum ChatTypingIndicatorEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.typing_indicator.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether the \"is typing\" indicator is sent and shown."
        }

        /// How often the typing indicator is refreshed, in milliseconds.
        public let chatTypingInterval: ChatTypingIntervalKey
        /// `function.chat.typing_interval_ms`: How often the typing indicator is refreshed, in milliseconds.
        public enum ChatTypingIntervalKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.typing_interval_ms"
            /// The default value.
            public static let defaultValue: Int = 3000
            /// The details pane's explanation.
            public static let summary =
                "How often the typing indicator is refreshed, in milliseconds."
        }

        /// Longest text message, in characters.
        public let chatMessageMaxLength: ChatMessageMaxLengthKey
        /// `function.chat.message_max_length`: Longest text message, in characters.
        public enum ChatMessageMaxLengthKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.message_max_length"
            /// The default value.
            public static let defaultValue: Int = 10000
            /// The details pane's explanation.
            public static let summary = "Longest text message, in characters."
        }

        /// Whether messages can get emoji reactions.
        public let chatReactionsEnabled: ChatReactionsEnabledKey
        /// `function.chat.reactions.enabled`: Whether messages can get emoji reactions.
        public enum ChatReactionsEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.reactions.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether messages can get emoji reactions."
            /// Who owns the key and when it goes.
            public static let lifecycle = ConfigurationKeyLifecycle(ticket: "CHAT-88", removeBy: .date("2027-06-30"))
        }

        /// The reactions offered, in order.
        public let chatReactionSet: ChatReactionSetKey
        /// `function.chat.reaction_set`: The reactions offered, in order.
        public enum ChatReactionSetKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.reaction_set"
            /// The default value.
            public static let defaultValue: [String] = ["👍", "❤️", "😂", "😮", "😢", "🙏"]
            /// The details pane's explanation.
            public static let summary = "The reactions offered, in order."
        }

        /// How long after sending a message can be unsent, in minutes.
        public let chatUnsendWindow: ChatUnsendWindowKey
        /// `function.chat.unsend_window_min`: How long after sending a message can be unsent, in minutes.
        public enum ChatUnsendWindowKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.unsend_window_min"
            /// The default value.
            public static let defaultValue: Int = 1440
            /// The details pane's explanation.
            public static let summary = "How long after sending a message can be unsent, in minutes."
        }

        /// Language messages are translated into by default.
        public let chatTranslationLanguage: ChatTranslationLanguageKey
        /// `function.chat.translation.default_language`: Language messages are translated into by default.
        public enum ChatTranslationLanguageKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.translation.default_language"
            /// The default value.
            public static let defaultValue: String = "en"
            /// The details pane's explanation.
            public static let summary = "Language messages are translated into by default."
        }

        /// Shape of message bubbles.
        public let chatBubbleStyle: ChatBubbleStyleKey
        /// `function.chat.bubble_style`: Shape of message bubbles.
        public enum ChatBubbleStyleKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.chat.bubble_style"
            /// The default value.
            public static let defaultValue: ChatBubbleStyle = .rounded
            /// The details pane's explanation.
            public static let summary = "Shape of message bubbles."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Chat``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Chat, K>) -> K {
        self[K.self]
    }
}
