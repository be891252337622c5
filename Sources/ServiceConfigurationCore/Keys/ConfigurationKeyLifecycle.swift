public import Foundation

/// Who owns a key, the ticket that tracks it, and when it should be gone: the facts that keep a flag from rotting,
/// written in the key's one declaration.
///
/// ```swift
/// @ConfigurationKey("function.album.like.enabled", owner: "album-team", ticket: "ALB-1024", removeBy: .date("2027-03-31"))
/// public static let albumLikeEnabled = false
///
/// // Hand-written:
/// public enum AlbumLikeEnabledKey: ConfigurationKey {
///     public static let name = "function.album.like.enabled"
///     public static let defaultValue = false
///     public static let lifecycle = ConfigurationKeyLifecycle(owner: "album-team", removeBy: .version("8.4"))
/// }
/// ```
///
/// The catalog manifest and the debug menu's details carry them; `config-menu audit` lists keys past due or due
/// soon, and keys without an owner when the catalog requires one (``ConfigurationCatalog/requiresOwners``);
/// `ConfigurationCatalog.expectNoKeyPastDue(…)` in ServiceConfigurationTesting fails a test run for a key past due.
/// A key that declares none has ``none``.
public struct ConfigurationKeyLifecycle: Sendable, Hashable {
    /// Who answers for the key: a team or a person, as your organisation names them. `nil`: nobody declared.
    public var owner: String?
    /// The ticket that tracks the key's removal or rollout, for example `"ALB-1024"` or a URL.
    public var ticket: String?
    /// When the key should be gone from the code. `nil`: the key is meant to stay.
    public var removeBy: ConfigurationRemovalDue?

    /// Nothing declared: no owner, no ticket, no removal due.
    public static let none = ConfigurationKeyLifecycle()

    /// Declares the key's lifecycle; every part is optional.
    public init(owner: String? = nil, ticket: String? = nil, removeBy: ConfigurationRemovalDue? = nil) {
        self.owner = owner.flatMap { $0.isEmpty ? nil : $0 }
        self.ticket = ticket.flatMap { $0.isEmpty ? nil : $0 }
        self.removeBy = removeBy
    }

    /// Whether nothing is declared.
    public var isEmpty: Bool { owner == nil && ticket == nil && removeBy == nil }

    /// Why the declaration cannot work as written (a removal date that is not a date, an owner with a line break),
    /// or `nil`. ``ConfigurationCatalog`` refuses such a key, naming it.
    public var problem: String? {
        // Each field on its own: a list of the two cost an allocation for every key of a manifest.
        Self.lineProblem("owner", owner) ?? Self.lineProblem("ticket", ticket) ?? removeBy?.problem
    }

    /// Why `text`, the field named `label`, cannot be written on one line, or `nil`.
    private static func lineProblem(_ label: String, _ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return nil
        }
        return "\(label) \"\(VisibleText.escaped(text))\" holds a control character; write it on one line"
    }
}

/// When a key should be gone: by a calendar day, or by an app version.
///
/// A day is written `YYYY-MM-DD` and read in UTC: the key is **due** from the start of that day (00:00 UTC) and
/// past due from then on. A version is due once the program runs as that version or a later one
/// (``ProgramVersion`` order: `8.10` is after `8.9`).
///
/// ```swift
/// ConfigurationRemovalDue.date("2027-03-31")
/// ConfigurationRemovalDue.version("8.4")
/// ```
public struct ConfigurationRemovalDue: Sendable, Hashable, CustomStringConvertible {
    /// Which kind of due this is.
    public enum Kind: String, Sendable, Hashable {
        /// A calendar day, `YYYY-MM-DD` (UTC).
        case date
        /// An app version, as ``ProgramVersion`` reads it.
        case version
    }

    /// A day or a version.
    public let kind: Kind
    /// The day or version as written.
    public let text: String

    /// Due on a calendar day, written `YYYY-MM-DD` (UTC). A text that is not such a day makes ``problem`` say so.
    public static func date(_ text: String) -> Self { Self(kind: .date, text: text) }

    /// Due once the program runs as `version` or later (`"8.4"`). A text that is not a version makes ``problem``
    /// say so.
    public static func version(_ version: String) -> Self { Self(kind: .version, text: version) }

    /// Creates a due of `kind` from its text.
    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }

    /// `2027-03-31` for a day, `version 8.4` for a version.
    public var description: String { kind == .date ? text : "version \(text)" }

    /// The start of the day (00:00 UTC) for a valid day; `nil` for a version or an invalid text.
    public var dueDate: Date? {
        guard kind == .date else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }

    /// The version for a valid version; `nil` for a day or an invalid text.
    public var dueVersion: ProgramVersion? { kind == .version ? ProgramVersion(text) : nil }

    /// Why the text is not a day or a version, or `nil`.
    public var problem: String? {
        let shown = "\"\(VisibleText.escaped(text))\""
        switch kind {
        case .date where dueDate == nil:
            return "removeBy date \(shown) is not a day; write YYYY-MM-DD, for example 2027-03-31"
        case .version where dueVersion == nil:
            return "removeBy version \(shown) is not a version; write numbers and dots, for example 8.4"
        default:
            return nil
        }
    }

    /// Where the due stands at `now` for a program at `version` (`nil`: unknown).
    public func standing(at now: Date, version: ProgramVersion?) -> Standing {
        switch kind {
        case .date:
            guard let due = dueDate else { return .invalid }
            if now >= due { return .pastDue(days: Int((now.timeIntervalSince(due) / 86_400).rounded(.down))) }
            return .dueIn(days: Int((due.timeIntervalSince(now) / 86_400).rounded(.down)))
        case .version:
            guard let due = dueVersion else { return .invalid }
            guard let version else { return .versionUnknown }
            return version >= due ? .pastDueVersion : .notYetVersion
        }
    }

    /// Where a due stands at a moment.
    public enum Standing: Sendable, Hashable {
        /// The day has come: `days` whole days after its start (0 on the day itself).
        case pastDue(days: Int)
        /// The day is ahead: `days` whole days remain before its start (0: it starts within a day).
        case dueIn(days: Int)
        /// The program runs as the due version or later.
        case pastDueVersion
        /// The program runs as an earlier version.
        case notYetVersion
        /// A version due, but the program's version is not known.
        case versionUnknown
        /// The due's text is invalid (see ``ConfigurationRemovalDue/problem``).
        case invalid

        /// Whether the key should already be gone.
        public var isPastDue: Bool {
            switch self {
            case .pastDue, .pastDueVersion: true
            default: false
            }
        }
    }
}

extension ConfigurationRemovalDue.Standing: CustomStringConvertible {
    /// `past due by 3 days`, `due today`, `due in 12 days`, `past due (runs as 8.4 or later)`, `due at a later version`,
    /// `version not known`, `invalid`.
    public var description: String {
        switch self {
        case .pastDue(let days):
            days == 0 ? "past due today" : "past due by \(days) day\(days == 1 ? "" : "s")"
        case .dueIn(let days):
            days == 0 ? "due within a day" : "due in \(days) day\(days == 1 ? "" : "s")"
        case .pastDueVersion: "past due: the program runs as this version or later"
        case .notYetVersion: "due at a later version"
        case .versionUnknown: "due at that version"
        case .invalid: "not a valid day or version"
        }
    }
}

extension ConfigurationKeyLifecycle {
    /// One line for a person: `album-team · ALB-1024 · remove by 2027-03-31 (past due by 3 days)`; `nil` when
    /// nothing is declared. Without `now` the standing is left out.
    public func summary(at now: Date?, version: ProgramVersion?) -> String? {
        var parts: [String] = []
        if let owner { parts.append(VisibleText.escaped(owner)) } else { parts.append("no owner") }
        if let ticket { parts.append(VisibleText.escaped(ticket)) }
        if let removeBy {
            let standing = now.map { " (\(removeBy.standing(at: $0, version: version)))" } ?? ""
            parts.append("remove by \(VisibleText.escaped(removeBy.description))\(standing)")
        }
        return isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension ConfigurationCatalog {
    /// The keys whose removal is past due at `now` for a program running as `version` (a version due counts only
    /// when `version` is given), in catalog order, each with where it stands.
    public func keysPastDue(
        at now: Date = Date(), version: ProgramVersion? = nil
    ) -> [(key: ConfigurationKeyDescriptor, standing: ConfigurationRemovalDue.Standing)] {
        keys.compactMap { key in
            guard let standing = key.lifecycle.removeBy?.standing(at: now, version: version), standing.isPastDue
            else { return nil }
            return (key, standing)
        }
    }
}
