import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// One key as `list` and `get` report it, from the library's ``ConfigurationKeyStatus`` (the same status the menu
/// shows). The JSON shape is documented in the README and stable.
struct KeyReport {
    var status: ConfigurationKeyStatus
    var scope: String?
    var title: String?
    var type: String?
    var control: String?
    var defaultValue: String?
    /// The key's owner, ticket and removal (none for an orphan).
    var lifecycle = ConfigurationKeyLifecycle.none
    /// The version `--program-version` gave, to judge a removal due at a version.
    var programVersion: ProgramVersion?
    /// Running programs that refused this key's override (read from their reports beside the store).
    var rejectedByPrograms: [ProgramRejection] = []
    /// Running programs launched with their own value of this key (read from their reports beside the store).
    var launchedPrograms: [ProgramLaunchOverride] = []

    init(descriptor: ConfigurationKeyDescriptor, status: ConfigurationKeyStatus) {
        self.status = status
        scope = descriptor.scopeName
        title = descriptor.title
        type = descriptor.valueTypeName
        control = descriptor.control.kindName
        defaultValue = descriptor.defaultValueString
        lifecycle = descriptor.lifecycle
    }

    /// An override (or an entry kept without being applied) whose key this catalog does not have.
    init(orphan status: ConfigurationKeyStatus) {
        self.status = status
    }

    var name: String { status.name }
    var value: String? { status.override == nil && status.isOrphan ? nil : status.value }
    var source: ValueOrigin { status.override == nil && status.isOrphan ? .default : status.source }
    var server: String? { status.serverValue }
    var override: OverrideEntry? { status.override }
    var rejections: [ConfigurationRejection] { status.rejections }
    var stale: Bool { status.isStale }
    var orphan: Bool { status.isOrphan }
    var storeProblems: [OverrideStoreProblem] { status.storeProblems }
    var isQuarantined: Bool { status.isQuarantined }

    /// Whether `list --problems` lists the key.
    var hasProblem: Bool { status.hasProblem || !rejectedByPrograms.isEmpty }

    /// The menu's marks: `!` server value rejected, `✗` override not applied (here or by a running program), `⊘`
    /// expired (`◷`: it will expire), `~` stale, `=` equal to the server value, `?` orphan, `⚠` a stored field could
    /// not be read, `»` a running program was launched with its own value.
    var flags: String {
        let willExpire = !status.isExpired && status.override.map { !$0.expiry.isNever } == true
        return (status.isServerValueRejected ? "!" : "")
            + (status.isOverrideNotApplied || !rejectedByPrograms.isEmpty ? "✗" : "")
            + (status.isExpired ? "⊘" : willExpire ? "◷" : "") + (stale ? "~" : "") + (status.isRedundant ? "=" : "")
            + (orphan ? "?" : "") + (storeProblems.contains(where: \.isApplied) ? "⚠" : "")
            + (launchedPrograms.isEmpty ? "" : "»")
    }

    var json: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let overrideJSON: JSONValue =
            override.map { entry in
                .object([
                    ("value", .string(entry.value)),
                    ("setAt", optional(entry.setAt.map(Timestamp.format))),
                    ("serverValueWhenSet", optional(entry.serverValueWhenSet)),
                    ("note", optional(entry.note)),
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
            ("owner", optional(lifecycle.owner)),
            ("ticket", optional(lifecycle.ticket)),
            ("removeBy", lifecycle.removeBy.map { .object([($0.kind.rawValue, .string($0.text))]) } ?? .null),
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
            (
                "rejectedByPrograms",
                .array(
                    rejectedByPrograms.map {
                        .object([
                            ("program", .string($0.program.programName)),
                            ("pid", .number(String($0.program.processIdentifier))),
                            ("status", .string($0.program.status.rawValue)), ("reason", .string($0.reason)),
                        ])
                    }
                )
            ),
            (
                "launchOverrides",
                .array(
                    launchedPrograms.map {
                        .object([
                            ("program", .string($0.program.programName)),
                            ("pid", .number(String($0.program.processIdentifier))),
                            ("status", .string($0.program.status.rawValue)), ("value", .string($0.value)),
                        ])
                    }
                )
            ),
            ("stale", .bool(stale)),
            ("orphan", .bool(orphan)),
            ("expiresAt", optional(override?.expiry.expiresAt.map(Timestamp.format))),
            ("expiry", override.map { HistoryReport.expiryJSON($0.expiry) } ?? .null),
            ("expired", .bool(status.isExpired)),
            ("expiredBecause", optional(status.expiration?.kind)),
            ("redundant", .bool(status.isRedundant)),
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
            "flags: ! the server value is rejected, ✗ the override is not applied (here or by a running program), "
                + "⊘ the override has expired (config-menu prune removes it), ◷ it will expire (get KEY says when), "
                + "~ stale override, = the override equals "
                + "the server value, ? orphaned override, ⚠ a stored field could not be read (see get KEY), "
                + "» a running program was launched with its own value (get KEY says which)")
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
            if let facts = lifecycle.summary(at: Date(), version: programVersion) {
                lines.append("  owner     \(facts)")
            }
        }
        var serverLine = "  server    \(quoted(server))"
        if let rejection = rejections.first(where: { $0.source == .server }) {
            serverLine += "  rejected: \(show(rejection.reason))"
        }
        lines.append(serverLine)
        if let override {
            var overrideLine = "  override  \(quoted(override.value))"
            if let setAt = override.setAt { overrideLine += "  set \(Timestamp.format(setAt))" }
            if let note = override.note { overrideLine += "  note: \(show(note))" }
            if let rejection = rejections.first(where: { $0.source == .overridden }) {
                overrideLine += "  not applied: \(show(rejection.reason))"
            }
            lines.append(overrideLine)
            for rejection in rejectedByPrograms {
                lines.append("  rejected by \(rejection.program.label): \(show(rejection.reason))")
            }
            if let expiration = status.expiration {
                lines.append("  expired   \(show(expiration.description)); not applied (config-menu prune removes it)")
            } else if !override.expiry.isNever {
                lines.append("  expires   \(override.expiry.description)")
            }
            if status.isRedundant {
                lines.append(
                    "  redundant: the override equals the server value, so it changes nothing now and will stop "
                        + "following the server; `config-menu set \(show(name)) \(quoted(override.value)) "
                        + "--until-server-changes` makes it follow again, `config-menu reset \(show(name))` removes it")
            }
            if stale {
                lines.append(
                    "  stale: the server sent \(quoted(override.serverValueWhenSet)) when it was set and sends \(quoted(server)) now"
                )
            }
        } else if !isQuarantined {
            lines.append("  override  none")
        }
        for launch in launchedPrograms {
            lines.append(
                "  launch    \(quoted(launch.value))  LAUNCH in \(launch.program.label) until it ends: it was "
                    + "started with this value, so changes made here reach it only after it ends")
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

    private func quoted(_ text: String?) -> String { Self.quoted(text) }

    /// `"value"` with every control and invisible character escaped, or `none`.
    static func quoted(_ text: String?) -> String { text.map { "\"\(VisibleText.escaped($0))\"" } ?? "none" }
}
