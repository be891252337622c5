public import Foundation

/// Why an override has expired (and no longer applies).
///
/// ```swift
/// if let expiration = service.expiredOverrides["function.album.like.enabled"] {
///     print(expiration)   // expired at 2026-11-29 16:05 UTC (set for a while)
/// }
/// ```
public enum OverrideExpiryReason: Sendable, Hashable, CustomStringConvertible {
    /// Its time came.
    case time(Date)
    /// The server sends another value than when it was set.
    case serverValueChanged(from: String?, to: String?)
    /// The program runs `running`, at or after the version the override was set until.
    case programVersion(until: ProgramVersion, running: ProgramVersion)

    /// For people; values are escaped.
    public var description: String {
        func quoted(_ value: String?) -> String { value.map { "\"\(VisibleText.escaped($0))\"" } ?? "none" }
        switch self {
        case .time(let date): return "expired at \(OverrideExpiry.time(date))"
        case .serverValueChanged(let from, let to):
            return "expired when the server value changed from \(quoted(from)) to \(quoted(to))"
        case .programVersion(let until, let running):
            return "expired: set until version \(until), and the program runs \(running)"
        }
    }

    /// A short machine-readable word: `time`, `serverChanged`, `version`.
    public var kind: String {
        switch self {
        case .time: "time"
        case .serverValueChanged: "serverChanged"
        case .programVersion: "version"
        }
    }
}

/// The former name of ``OverrideExpiryReason``, renamed so it is not confused with ``OverrideExpiry``, the rule that makes an override expire.
@available(*, deprecated, renamed: "OverrideExpiryReason")
public typealias OverrideExpiration = OverrideExpiryReason
