public import Foundation

/// When an override stops applying by itself: at a time, when the key's server value changes, or from a program
/// version on. The rules combine: the override expires as soon as one of them is met.
///
/// ```swift
/// try service.setOverride(rawValue: "Y", forKeyNamed: "function.album.like.enabled", note: nil,
///                         expiry: OverrideExpiry(expiresAt: Date().addingTimeInterval(2 * 3600)))
/// OverrideExpiry(untilServerChanges: true)     // follow the server again once it sends something new
/// OverrideExpiry(untilVersion: ProgramVersion("14.2"))   // a workaround until the fixed version ships
/// ```
///
/// An expired override stays in the store (shown as expired, not applied) until it is removed: `config-menu prune`,
/// `P` in the debug menu, or ``ConfigurationService/pruneExpiredOverrides()``. In the store file each rule is an
/// optional field of the entry (`expiresAt`, `untilServerChanges`, `untilVersion`); an entry without them never
/// expires.
public struct OverrideExpiry: Sendable, Hashable {
    /// The moment the override stops applying (`config-menu set … --for 2h` stores now + 2 h).
    public var expiresAt: Date?
    /// Whether the override stops applying once the server sends a value other than the one it sent when the override
    /// was set (``OverrideEntry/serverValueWhenSet``).
    public var untilServerChanges: Bool
    /// The program version from which the override stops applying (the program tells its service its version).
    public var untilVersion: ProgramVersion?

    /// An expiry made of the given rules; without any, the override never expires.
    public init(expiresAt: Date? = nil, untilServerChanges: Bool = false, untilVersion: ProgramVersion? = nil) {
        self.expiresAt = expiresAt.map(Timestamp.truncatedToMilliseconds)
        self.untilServerChanges = untilServerChanges
        self.untilVersion = untilVersion
    }

    /// No rule: the override applies until it is removed.
    public static let never = OverrideExpiry()

    /// Whether no rule is set.
    public var isNever: Bool { expiresAt == nil && !untilServerChanges && untilVersion == nil }

    /// When it expires, for people (after "expires"): `at 2026-11-29 16:05 UTC, or when the server value changes,
    /// or from version 14.2`; `never` without a rule.
    public var description: String {
        var parts: [String] = []
        if let expiresAt { parts.append("at \(Self.time(expiresAt))") }
        if untilServerChanges { parts.append("when the server value changes") }
        if let untilVersion { parts.append("from version \(untilVersion)") }
        return parts.isEmpty ? "never" : parts.joined(separator: ", or ")
    }

    /// A time as `2026-11-29 16:05 UTC` (seconds shown when not zero).
    static func time(_ date: Date) -> String {
        let text = Timestamp.format(date)  // 2026-11-29T16:05:00.000Z
        let seconds = text.dropFirst(17).prefix(2)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
            + (seconds == "00" ? "" : ":" + seconds) + " UTC"
    }
}
