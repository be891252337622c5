public import ServiceConfigurationCore

/// How large an image may be and how strongly it is compressed when sent: a custom string value.
///
/// On the wire it is `"<max side in px>,<JPEG quality in percent>"`, for example `"1280,70"`.
public struct ImageTransferQuality: ConfigurationValueStringRepresentable, Hashable, Sendable {
    /// The longest side in pixels.
    public var maxDimension: Int
    /// JPEG quality from 0 (smallest) to 1 (best).
    public var compression: Double

    /// 1280 px at quality 0.7.
    public static let standard = ImageTransferQuality(maxDimension: 1280, compression: 0.7)

    /// Creates a quality setting.
    public init(maxDimension: Int, compression: Double) {
        self.maxDimension = maxDimension
        self.compression = compression
    }

    /// Parses `"1280,70"`: a positive size, a comma, a quality from 1 to 100.
    public init?(configurationValueString string: String) {
        let parts = string.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let size = Int(parts[0]), size > 0, let quality = Int(parts[1]),
            (1...100).contains(quality)
        else { return nil }
        self.init(maxDimension: size, compression: Double(quality) / 100)
    }

    /// `"1280,70"`.
    public var configurationValueString: String { "\(maxDimension),\(Int((compression * 100).rounded()))" }

    /// Explains the format in error messages.
    public static var configurationValueFormat: String { "MAX_SIDE,QUALITY such as 1280,70 (quality 1-100)" }

    /// The shape of the wire string, carried in the catalog manifest so `config-menu --manifest` refuses what this
    /// type refuses (a size from 1, a quality from 1 to 100).
    public static let configurationValuePattern = ConfigurationValuePattern(
        "[1-9][0-9]{0,8},([1-9][0-9]?|100)", format: configurationValueFormat)
}
