import Foundation
import ServiceConfiguration

/// `set`'s expiry options: `--for DURATION`, `--until-server-changes`, `--until-version VERSION`; and the global
/// `--program-version VERSION` (the version the tool judges "until version" rules by).
enum ExpiryOptions {
    /// The options `set` takes for expiry.
    static let setOptions: Set<String> = ["--for", "--until-server-changes", "--until-version"]

    /// The expiry the options ask for, from `now`; `nil` when none is given.
    static func expiry(_ invocation: Invocation, now: Date) throws -> OverrideExpiry? {
        let duration = try invocation.options["--for"].map(parseDuration)
        let version = try invocation.options["--until-version"].map { text -> ProgramVersion in
            guard let version = ProgramVersion(text) else {
                throw ToolError.usage(
                    "--until-version needs a version like 14.2 (numbers and dots), got \"\(VisibleText.escaped(text))\"",
                    command: invocation.command)
            }
            return version
        }
        let untilServerChanges = invocation.flags.contains("--until-server-changes")
        guard duration != nil || version != nil || untilServerChanges else { return nil }
        return OverrideExpiry(
            expiresAt: duration.map { now.addingTimeInterval($0) }, untilServerChanges: untilServerChanges,
            untilVersion: version)
    }

    /// The program version `--program-version` gives, if any.
    static func programVersion(_ invocation: Invocation) throws -> ProgramVersion? {
        try invocation.options["--program-version"].map { text in
            guard let version = ProgramVersion(text) else {
                throw ToolError.usage(
                    "--program-version needs a version like 14.2 (numbers and dots), got \"\(VisibleText.escaped(text))\""
                )
            }
            return version
        }
    }

    /// The longest duration `--for` takes: ten years.
    static let longestDuration: TimeInterval = 10 * 366 * 86_400

    /// A duration such as `90m`, `2h`, `1h30m`, `45s`, `3d`, `1w` (units s, m, h, d, w; several may follow each
    /// other).
    static func parseDuration(_ text: String) throws -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var total: TimeInterval = 0
        var digits = ""
        var parts = 0
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let number = Double(digits), digits.count <= 9 {
                total += number * unit
                digits = ""
                parts += 1
            } else {
                throw invalid(text)
            }
        }
        guard digits.isEmpty, parts > 0, total > 0 else { throw invalid(text) }
        guard total <= longestDuration else {
            throw ToolError.usage("--for is at most ten years, got \"\(VisibleText.escaped(text))\"", command: "set")
        }
        return total
    }

    private static func invalid(_ text: String) -> ToolError {
        ToolError.usage(
            "--for needs a duration such as 30m, 2h, 1h30m, 3d or 1w, got \"\(VisibleText.escaped(text))\"",
            command: "set")
    }

    /// A duration for people: `2 h`, `1 h 30 min`, `3 d`, `45 s`.
    static func describe(_ seconds: TimeInterval) -> String {
        var rest = Int(seconds.rounded())
        var parts: [String] = []
        for (size, name) in [(86_400, "d"), (3600, "h"), (60, "min"), (1, "s")] where rest >= size {
            parts.append("\(rest / size) \(name)")
            rest %= size
        }
        return parts.isEmpty ? "0 s" : parts.prefix(2).joined(separator: " ")
    }
}
