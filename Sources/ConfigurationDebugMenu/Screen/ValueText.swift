import Foundation
import ServiceConfiguration

/// How values are written on screen (control and invisible characters are escaped by the grid itself).
enum ValueText {
    /// A value in the key list: toggles as `[x] Y` / `[ ] N`, others as their wire string.
    static func short(_ value: String?, of descriptor: ConfigurationKeyDescriptor) -> String {
        guard let value else { return "—" }
        if descriptor.control == .toggle { return (value == descriptor.toggleStrings.on ? "[x] " : "[ ] ") + value }
        return value
    }

    /// A wire string in quotes (cut after 120 characters), or "none".
    static func quoted(_ value: String?) -> String {
        guard let value else { return "none" }
        return "\"" + (value.count > 120 ? String(value.prefix(119)) + "…" : value) + "\""
    }

    /// A UTC time to the minute: `2026-11-29 14:05 UTC` (no clocks that change on screen).
    static func time(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }

    /// A UTC time to the second, without the zone (the history's column): `2026-11-29 14:05:12`.
    static func seconds(_ date: Date) -> String {
        let text = Timestamp.format(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }
}
