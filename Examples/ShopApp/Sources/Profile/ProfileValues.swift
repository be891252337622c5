import ServiceConfiguration

/// Who sees a profile.
public enum ProfileVisibility: String, CaseIterable, Sendable, ConfigurationValueStringRepresentable {
    case everyone, friends, nobody
}

/// The arms of the profile editor test; two of them show the new editor.
public enum EditorVariant: String, Sendable, ConfigurationExperimentVariant {
    case control, compact, full
    /// The variants that show the new editor.
    public static let enabledVariants: Set<EditorVariant> = [.compact, .full]
}

/// A pixel size on the wire as `"<width>x<height>"`.
public struct AvatarSize: Hashable, Sendable, ConfigurationValueStringRepresentable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `"256x256"`.
    public init?(configurationValueString string: String) {
        let parts = string.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// `"256x256"`.
    public var configurationValueString: String { "\(width)x\(height)" }

    /// For error messages.
    public static let configurationValueFormat = "WIDTHxHEIGHT such as 256x256"

    /// Checked by the program and by tools reading the manifest.
    public static let configurationValuePattern = ConfigurationValuePattern(
        "[1-9][0-9]{0,4}x[1-9][0-9]{0,4}", format: configurationValueFormat)
}

/// A badge earned after a number of orders.
public struct Badge: Codable, Hashable, Sendable {
    /// The badge's title.
    public var title: String
    /// Orders needed.
    public var minimumOrders: Int

    /// Creates a badge.
    public init(title: String, minimumOrders: Int) {
        self.title = title
        self.minimumOrders = minimumOrders
    }
}
