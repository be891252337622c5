public import ServiceConfigurationCore

extension ConfigurationScopes {
    /// Demo scope: Voice and video calls.
    public struct Calls: ConfigurationScope {
        /// The team that owns the scope's keys.
        public static let owner = "calls-team"

        /// Whether video calls can be started.
        public let callsVideoEnabled: CallsVideoEnabledKey
        /// `function.calls.video.enabled`: Whether video calls can be started.
        public enum CallsVideoEnabledKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.calls.video.enabled"
            /// The default value.
            public static let defaultValue: Bool = true
            /// The details pane's explanation.
            public static let summary = "Whether video calls can be started."
        }

        /// Most people in one group call.
        public let callsMaxParticipants: CallsMaxParticipantsKey
        /// `function.calls.group.max_participants`: Most people in one group call.
        public enum CallsMaxParticipantsKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.calls.group.max_participants"
            /// The default value.
            public static let defaultValue: Int = 500
            /// The details pane's explanation.
            public static let summary = "Most people in one group call."
        }

        /// Preferred audio codec.
        public let callsAudioCodec: CallsAudioCodecKey
        /// `function.calls.audio_codec`: Preferred audio codec.
        public enum CallsAudioCodecKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.calls.audio_codec"
            /// The default value.
            public static let defaultValue: AudioCodec = .opus
            /// The details pane's explanation.
            public static let summary = "Preferred audio codec."
        }

        /// Target video bitrate, in kbit/s.
        public let callsBitrate: CallsBitrateKey
        /// `function.calls.video_bitrate_kbps`: Target video bitrate, in kbit/s.
        public enum CallsBitrateKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.calls.video_bitrate_kbps"
            /// The default value.
            public static let defaultValue: Int = 1200
            /// The details pane's explanation.
            public static let summary = "Target video bitrate, in kbit/s."
        }

        /// A/B test of the new noise suppression.
        public let callsNoiseSuppressionTest: CallsNoiseSuppressionTestKey
        /// `ab.calls.noise_suppression`: A/B test of the new noise suppression.
        public enum CallsNoiseSuppressionTestKey: ConfigurationKey {
            /// The wire name.
            public static let name = "ab.calls.noise_suppression"
            /// The default value.
            public static let defaultValue: ConfigurationABTest = .none
            /// The details pane's explanation.
            public static let summary = "A/B test of the new noise suppression."
        }

        /// STUN server used to find the public address.
        public let callsStunServer: CallsStunServerKey
        /// `function.calls.stun_server`: STUN server used to find the public address.
        public enum CallsStunServerKey: ConfigurationKey {
            /// The wire name.
            public static let name = "function.calls.stun_server"
            /// The default value.
            public static let defaultValue: String = "stun:stun.example.com:3478"
            /// The details pane's explanation.
            public static let summary = "STUN server used to find the public address."
        }
    }
}

extension ConfigurationDynamicLookup {
    /// Routes `service.<key>` to the keys of ``ConfigurationScopes/Calls``.
    public subscript<K: ConfigurationKey>(dynamicMember keyPath: KeyPath<ConfigurationScopes.Calls, K>) -> K {
        self[K.self]
    }
}
