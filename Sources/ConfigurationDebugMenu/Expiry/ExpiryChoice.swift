package import Foundation
package import ServiceConfiguration
import ServiceConfigurationFileStore

/// An expiry the menu offers for an override: never, for a while (counted from the moment it is saved), until the
/// server value changes, or until a program version.
package enum ExpiryChoice: Equatable, Sendable {
    /// No rule: the override applies until it is removed.
    case never
    /// For this many seconds from the save.
    case duration(TimeInterval)
    /// Until the key's server value changes.
    case untilServerChanges
    /// Until the program runs this version or later.
    case untilVersion(ProgramVersion)

    /// The choices of the expiry menu (`x`), in order; a version is asked for separately.
    package static let presets: [ExpiryChoice] = [
        .never, .duration(3600), .duration(2 * 3600), .duration(8 * 3600), .duration(86_400), .duration(7 * 86_400),
        .untilServerChanges,
    ]

    /// What Ctrl-T in an editor steps through after "as before": the expiry menu's choices (`x`), never last (a
    /// version is typed in the expiry menu, after saving).
    package static let editorCycle: [ExpiryChoice] = Array(presets.dropFirst()) + [.never]

    /// For people: `never`, `for 2 h`, `until the server value changes`, `until version 14.2`.
    package var title: String {
        switch self {
        case .never: "never (applies until removed)"
        case .duration(let seconds): "for \(Self.describe(seconds))"
        case .untilServerChanges: "until the server value changes"
        case .untilVersion(let version): "until version \(version)"
        }
    }

    /// The rule to store, for a save at `now`.
    package func expiry(now: Date) -> OverrideExpiry {
        switch self {
        case .never: .never
        case .duration(let seconds): OverrideExpiry(expiresAt: now.addingTimeInterval(seconds))
        case .untilServerChanges: OverrideExpiry(untilServerChanges: true)
        case .untilVersion(let version): OverrideExpiry(untilVersion: version)
        }
    }

    /// The choice that describes a stored rule, where one does (a time is not a choice: it is shown as it is).
    package init?(_ expiry: OverrideExpiry) {
        switch (expiry.expiresAt, expiry.untilServerChanges, expiry.untilVersion) {
        case (nil, false, nil): self = .never
        case (nil, true, nil): self = .untilServerChanges
        case (nil, false, let version?): self = .untilVersion(version)
        default: return nil
        }
    }

    /// How long until `date` from `now`, for people: `in 59 min`, `in 3 h`, `in 2 days`, `in less than a minute`.
    package static func relative(_ date: Date, from now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        guard seconds >= 60 else { return seconds > 0 ? "in less than a minute" : "now" }
        let minutes = Int(seconds / 60)
        if minutes < 120 { return "in \(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return "in \(hours) h" }
        return "in \(hours / 24) days"
    }

    /// `1 h`, `8 h`, `1 day`, `1 week`, `90 min`.
    static func describe(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        if whole % 604_800 == 0 { return whole == 604_800 ? "1 week" : "\(whole / 604_800) weeks" }
        if whole % 86_400 == 0 { return whole == 86_400 ? "1 day" : "\(whole / 86_400) days" }
        if whole % 3600 == 0 { return "\(whole / 3600) h" }
        return "\(whole / 60) min"
    }
}
