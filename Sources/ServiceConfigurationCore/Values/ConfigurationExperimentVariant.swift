/// The value of an A/B test key: a fixed set of variants, some of which count as "enabled".
///
/// Servers commonly send a variant name rather than a flag, so that analytics can tell users outside the test
/// (`none`) from the control group (`off`) and the treatment group (`on`). Code asks the one question it cares
/// about, ``isEnabled``, and the debug menu shows every variant in a picker with the enabled ones marked.
///
/// ```swift
/// enum LikeButtonTestKey: ConfigurationKey {
///     static let name = "ab.album.like_button"
///     static let defaultValue = ConfigurationABTest.none
/// }
/// if service.likeButtonTest.isEnabled { showLikeButton() }
/// ```
///
/// Declare your own variants when a test has more arms:
///
/// ```swift
/// enum CheckoutTest: String, ConfigurationExperimentVariant {
///     case none, control, oneTap, twoTap
///     static let enabledVariants: Set<CheckoutTest> = [.oneTap, .twoTap]
/// }
/// ```
public protocol ConfigurationExperimentVariant: ConfigurationValueStringRepresentable, CaseIterable, Hashable {
    /// The variants for which the feature under test is on.
    static var enabledVariants: Set<Self> { get }
}

extension ConfigurationExperimentVariant {
    /// Whether this variant counts as enabled.
    public var isEnabled: Bool { Self.enabledVariants.contains(self) }
}

extension ConfigurationKey where Value: ConfigurationExperimentVariant {
    /// A picker over every variant; enabled variants are titled `"<variant> (enabled)"`.
    public static var debugControlType: ConfigurationDebugControlType<Value> {
        .picker(
            Value.allCases.map { variant in
                ConfigurationDebugChoice(
                    variant,
                    title: variant.isEnabled ? "\(variant.configurationValueString) (enabled)" : nil
                )
            }
        )
    }
}

/// The common three-way A/B test: not in the test, control group, treatment group. Only ``on`` is enabled.
public enum ConfigurationABTest: String, ConfigurationExperimentVariant, Codable {
    /// The user is not part of the test.
    case none
    /// The user is in the control group: the feature stays off.
    case off
    /// The user is in the treatment group: the feature is on.
    case on

    /// `[.on]`.
    public static let enabledVariants: Set<ConfigurationABTest> = [.on]
}
