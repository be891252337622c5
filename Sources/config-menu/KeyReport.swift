import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration

/// One key as `list` and `get` report it. The JSON shape is documented in the README and stable.
struct KeyReport {
    var name: String
    var scope: String?
    var title: String?
    var type: String?
    var control: String?
    var value: String?
    var source: ValueSource
    var defaultValue: String?
    var server: String?
    var override: OverrideInfo?
    var rejections: [ConfigurationRejection]
    var stale: Bool
    var orphan: Bool
    /// What is wrong with the key's entry in the store file: quarantined (not applied) or an unreadable field.
    var storeProblems: [OverrideStoreProblem] = []

    init(descriptor: ConfigurationKeyDescriptor, status: KeyStatus, storeProblems: [OverrideStoreProblem] = []) {
        name = descriptor.name
        scope = descriptor.scopeName
        title = descriptor.title
        type = descriptor.valueTypeName
        control = descriptor.control.kindName
        value = status.value
        source = status.source
        defaultValue = descriptor.defaultValueString
        server = status.serverValue
        override = status.override
        rejections = status.rejections
        stale = status.isStale
        orphan = false
        self.storeProblems = storeProblems
    }

    init(orphan: OrphanStatus, storeProblems: [OverrideStoreProblem] = []) {
        name = orphan.name
        value = orphan.override.value
        source = .overridden
        override = orphan.override
        rejections = []
        stale = false
        self.orphan = true
        self.storeProblems = storeProblems
    }

    /// A quarantined entry whose key this catalog does not have: nothing applies, the entry is kept.
    init(quarantined problems: [OverrideStoreProblem]) {
        name = problems[0].key
        source = .default
        rejections = []
        stale = false
        orphan = true
        storeProblems = problems
    }

    /// Whether the key's stored entry is quarantined (kept in the file, not applied).
    var isQuarantined: Bool { storeProblems.contains { !$0.isApplied } }

    var flags: String {
        (rejections.isEmpty ? "" : "!") + (stale ? "~" : "") + (orphan ? "?" : "") + (storeProblems.isEmpty ? "" : "*")
    }

    var json: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let overrideJSON: JSONValue =
            override.map { info in
                .object([
                    ("value", .string(info.value)),
                    ("setAt", optional(info.entry?.setAt.map(Timestamp.format))),
                    ("serverValueWhenSet", optional(info.entry?.serverValueWhenSet)),
                    ("note", optional(info.entry?.note)),
                ])
            } ?? .null
        return .object([
            ("name", .string(name)),
            ("scope", optional(scope)),
            ("title", optional(title)),
            ("type", optional(type)),
            ("control", optional(control)),
            ("value", optional(value)),
            ("source", .string(source.rawValue)),
            ("default", optional(defaultValue)),
            ("server", optional(server)),
            ("override", overrideJSON),
            (
                "rejections",
                .array(
                    rejections.map {
                        .object([
                            ("source", .string($0.source.rawValue)), ("value", .string($0.rawValue)),
                            ("reason", .string($0.reason)),
                        ])
                    }
                )
            ),
            ("stale", .bool(stale)),
            ("orphan", .bool(orphan)),
            (
                "storeProblems",
                .array(
                    storeProblems.map {
                        .object([
                            ("field", optional($0.field)), ("reason", .string($0.reason)),
                            ("stored", .string($0.storedJSON)), ("applied", .bool($0.isApplied)),
                        ])
                    }
                )
            ),
        ])
    }

    /// Several keys as an aligned table.
    static func table(_ reports: [KeyReport]) -> String {
        guard !reports.isEmpty else { return "no keys match" }
        func cell(_ text: String, _ width: Int) -> String {
            let shown = TextWidth.truncate(VisibleText.escaped(text), to: width)
            return shown + String(repeating: " ", count: max(0, width - TextWidth.of(shown)))
        }
        let scopeWidth = min(16, max(5, reports.map { TextWidth.of($0.scope ?? "(orphan)") }.max() ?? 5))
        let nameWidth = min(48, max(3, reports.map { TextWidth.of($0.name) }.max() ?? 3))
        let valueWidth = 28
        var lines = [
            [cell("SCOPE", scopeWidth), cell("KEY", nameWidth), cell("VALUE", valueWidth), cell("SOURCE", 10), "FLAGS"]
                .joined(separator: "  ")
        ]
        for report in reports {
            let line = [
                cell(report.scope ?? "(orphan)", scopeWidth), cell(report.name, nameWidth),
                cell(report.value ?? "—", valueWidth), cell(report.source.description, 10), report.flags,
            ]
            lines.append(
                line.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression))
        }
        lines.append("")
        lines.append(
            "flags: ! rejected value, ~ stale override, ? orphaned override, * stored entry not applied or with an "
                + "unreadable field (see get KEY)")
        return lines.joined(separator: "\n")
    }

    /// One key in full, for `get`. Every value, note, title and name is escaped.
    var details: String {
        let show = VisibleText.escaped
        var lines = ["\(show(name)) = \(value.map(show) ?? "—") (\(source))"]
        if orphan {
            lines.append(
                "  orphaned override: this catalog has no such key; config-menu reset \(show(name)) removes it")
        } else {
            lines.append(
                "  \(show(title ?? name)) · \(show(scope ?? "")) · \(show(type ?? "")) · \(show(control ?? ""))")
            lines.append("  default   \(quoted(defaultValue))")
        }
        var serverLine = "  server    \(quoted(server))"
        if let rejection = rejections.first(where: { $0.source == .server }) {
            serverLine += "  rejected: \(show(rejection.reason))"
        }
        lines.append(serverLine)
        if let override {
            var overrideLine = "  override  \(quoted(override.value))"
            if let setAt = override.entry?.setAt { overrideLine += "  set \(Timestamp.format(setAt))" }
            if let note = override.entry?.note { overrideLine += "  note: \(show(note))" }
            if let rejection = rejections.first(where: { $0.source == .overridden }) {
                overrideLine += "  not applied: \(show(rejection.reason))"
            }
            lines.append(overrideLine)
            if stale {
                lines.append(
                    "  stale: the server sent \(quoted(override.entry?.serverValueWhenSet)) when it was set and sends \(quoted(server)) now"
                )
            }
        } else if !isQuarantined {
            lines.append("  override  none")
        }
        for problem in storeProblems {
            if let field = problem.field {
                lines.append(
                    "  stored field \"\(show(field))\" ignored: \(show(problem.reason)); kept in the file as \(show(problem.storedJSON))"
                )
            } else {
                lines.append("  stored    \(show(problem.storedJSON))  not applied: \(show(problem.reason))")
                lines.append(
                    "            the entry is kept in the file as found; fix it there, or set or reset the key")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func quoted(_ text: String?) -> String { text.map { "\"\(VisibleText.escaped($0))\"" } ?? "none" }
}
