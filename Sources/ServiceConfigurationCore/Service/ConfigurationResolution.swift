/// A key's effective value, where it came from, and every candidate that was rejected on the way.
///
/// ```swift
/// let resolution = service.resolution(of: AlbumLikeEnabledKey.self)
/// resolution.value        // false
/// resolution.source       // .default
/// resolution.rejections   // [server value "y" rejected: expected Y or N, got "y"]
/// ```
public struct ConfigurationResolution<Value: Sendable>: Sendable {
    /// The effective value.
    public var value: Value
    /// Where ``value`` came from.
    public var source: ValueOrigin
    /// The wire string ``value`` was decoded from, or `nil` for the default.
    public var rawValue: String?
    /// Candidates from higher-priority sources that failed to decode, highest first.
    public var rejections: [ConfigurationRejection]

    /// Creates a resolution.
    public init(value: Value, source: ValueOrigin, rawValue: String?, rejections: [ConfigurationRejection]) {
        self.value = value
        self.source = source
        self.rawValue = rawValue
        self.rejections = rejections
    }
}

extension ConfigurationResolution: Equatable where Value: Equatable {}

/// A candidate value that could not be used, and why.
public struct ConfigurationRejection: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The source the candidate came from (``ValueOrigin/launch``, ``ValueOrigin/overridden`` or
    /// ``ValueOrigin/server``).
    public var source: ValueOrigin
    /// The candidate's wire string.
    public var rawValue: String
    /// Why it was rejected, for example `expected Y or N, got "y"`.
    public var reason: String

    /// Creates a rejection.
    public init(source: ValueOrigin, rawValue: String, reason: String) {
        self.source = source
        self.rawValue = rawValue
        self.reason = reason
    }

    /// For example `server value rejected: expected Y or N, got "y"`.
    public var description: String { "\(source.rawValue) value rejected: \(reason)" }
}

/// The wire strings that decide a key's value: the launch override, the stored override and the server value (each
/// if any).
struct RawLayers: Sendable, Hashable {
    var launch: String?
    var override: String?
    var server: String?

    init(launch: String? = nil, override: String?, server: String?) {
        self.launch = launch
        self.override = override
        self.server = server
    }
}

extension RawLayers {
    /// The one resolution algorithm, shared by the live service, the mock, snapshots and tools: try the launch
    /// override, then the stored override, then the server value, then the default; record every candidate that
    /// fails to decode.
    func resolve<Value>(
        defaultValue: @autoclosure () -> Value,
        decode: (String) throws -> Value
    ) -> ConfigurationResolution<Value> {
        var rejections: [ConfigurationRejection] = []
        for (source, raw) in [(ValueOrigin.launch, launch), (.overridden, override), (.server, server)] {
            guard let raw else { continue }
            do {
                return ConfigurationResolution(
                    value: try decode(raw),
                    source: source,
                    rawValue: raw,
                    rejections: rejections
                )
            } catch {
                rejections.append(ConfigurationRejection(source: source, rawValue: raw, reason: "\(error)"))
            }
        }
        return ConfigurationResolution(value: defaultValue(), source: .default, rawValue: nil, rejections: rejections)
    }
}
