import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu audit [--json] [--fail-past-due] [--due-within DAYS] [--older-than DAYS]`: the flags that rot and the
/// overrides left behind. Keys past their removal date or version, keys due soon, keys without an owner where the
/// catalog requires one; overrides older than N days, equal to the server value or the default, on keys past due,
/// or of keys the catalog does not know, each group with the command that removes it.
struct AuditCommand {
    let invocation: Invocation

    /// The command's own options.
    static let options: Set<String> = ["--json", "--fail-past-due", "--due-within", "--older-than", "--last-runs"]

    func run() throws {
        try invocation.check(allowed: Self.options)
        guard invocation.positional.isEmpty else { throw ToolError.usage("audit takes no arguments", command: "audit") }
        let dueWithin = try days("--due-within", default: 30)
        let olderThan = try days("--older-than", default: 30)
        let runCount = try runsToJudge()
        let context = try ToolContext(invocation)
        context.noteServerValues()
        let audit = LifecycleAudit(
            catalog: context.catalog, layers: ConfigurationLayersReading(service: context.service), now: Date(),
            version: context.service.programVersion, dueWithin: dueWithin, olderThan: olderThan,
            recentRuns: recentRuns(context, count: runCount))
        let reset = resetCommand()
        if invocation.flags.contains("--json") {
            try Output.line(JSONWriter.string(audit.json(resetCommand: reset)))
        } else {
            try Output.line(audit.text(resetCommand: reset))
        }
        try context.failIfCorrupt()
        if invocation.flags.contains("--fail-past-due"), !audit.pastDue.isEmpty {
            throw ToolError(
                code: .invalidValue,
                description: "--fail-past-due: \(CoverageCommand.count(audit.pastDue.count, "key")) past due: "
                    + audit.pastDue.map { VisibleText.escaped($0.key.name) }.joined(separator: ", "))
        }
    }

    /// A whole number of days from 0 to 3650 given to `option`, or `fallback`.
    private func days(_ option: String, default fallback: Int) throws -> Int {
        guard let text = invocation.options[option] else { return fallback }
        guard let days = Int(text), (0...3650).contains(days) else {
            throw ToolError.usage(
                "\(option) needs a number of days from 0 to 3650, got \"\(VisibleText.escaped(text))\"",
                command: "audit")
        }
        return days
    }

    /// How many of the newest finished runs `--last-runs` judges (default 10).
    private func runsToJudge() throws -> Int {
        guard let text = invocation.options["--last-runs"] else { return 10 }
        guard let count = Int(text), (1...ProgramRunHistory.keptRuns).contains(count) else {
            throw ToolError.usage(
                "--last-runs needs a number of runs from 1 to \(ProgramRunHistory.keptRuns), got \"\(VisibleText.escaped(text))\"",
                command: "audit")
        }
        return count
    }

    /// The newest `count` finished runs of the store's run history (killed ones swept in, as `coverage --runs` does),
    /// newest first; `nil` for a store without one (a served store).
    private func recentRuns(_ context: ToolContext, count: Int) -> [ProgramReport]? {
        guard let place = ProgramReportPlace(context.store) else { return nil }
        let listing = place.sweptRuns()
        for problem in listing.problems { CommandLineTool.report("warning: unreadable run \(problem)") }
        let newest = listing.reports.sorted { ($0.endedAt ?? $0.writtenAt) > ($1.endedAt ?? $1.writtenAt) }
        return Array(newest.prefix(count))
    }

    /// `config-menu reset` with the options that chose this store and catalog, for the lines that say how to remove
    /// a group: `keys` are appended, each quoted for the shell.
    private func resetCommand() -> ([String]) -> String {
        let prefix =
            ["config-menu", "reset"]
            + ["--store", "--manifest", "--simulator", "--device", "--app-name"].flatMap { option in
                invocation.options[option].map { [option, $0] } ?? []
            }
        return { keys in (prefix + keys).map(ShellWord.quoted).joined(separator: " ") }
    }
}

/// What `config-menu audit` found: the keys whose lifecycle needs attention and the overrides to clean up.
struct LifecycleAudit {
    /// Keys past their removal due.
    var pastDue: [(key: ConfigurationKeyDescriptor, standing: ConfigurationRemovalDue.Standing)] = []
    /// Keys due within the window, by day.
    var dueSoon: [(key: ConfigurationKeyDescriptor, standing: ConfigurationRemovalDue.Standing)] = []
    /// Keys due at a version, when the program's version is not given.
    var dueAtVersion: [ConfigurationKeyDescriptor] = []
    /// Keys that name no owner, when the catalog requires one.
    var withoutOwner: [ConfigurationKeyDescriptor] = []
    /// The groups of overrides to clean up, each with the keys in it.
    var overrideGroups: [OverrideGroup] = []
    let requiresOwners: Bool
    let dueWithin: Int
    let olderThan: Int
    let now: Date
    let version: ProgramVersion?

    /// One reason overrides should go, and the overrides it holds.
    struct OverrideGroup {
        /// The group's identity in JSON: `old`, `redundant`, `equalsDefault`, `pastDueKey`, `orphan`.
        let id: String
        /// The group's heading.
        let title: String
        /// The keys, each with a detail (`set 2026-10-01 · 64 days ago`).
        var overrides: [(name: String, detail: String)] = []
    }

    /// How many recent runs the `unread` group judged (0: no run history, the group is not judged).
    let judgedRuns: Int

    init(
        catalog: ConfigurationCatalog, layers: ConfigurationLayersReading, now: Date, version: ProgramVersion?,
        dueWithin: Int, olderThan: Int, recentRuns: [ProgramReport]?
    ) {
        judgedRuns = recentRuns?.count ?? 0
        let readInRuns = Set((recentRuns ?? []).flatMap { $0.reads.map(\.name) })
        requiresOwners = catalog.requiresOwners
        self.dueWithin = dueWithin
        self.olderThan = olderThan
        self.now = now
        self.version = version
        var old = OverrideGroup(id: "old", title: "Overrides set more than \(olderThan) days ago")
        var redundant = OverrideGroup(
            id: "redundant", title: "Overrides equal to the server value (they change nothing)")
        var equalsDefault = OverrideGroup(
            id: "equalsDefault", title: "Overrides equal to the default while the server sends nothing")
        var onPastDue = OverrideGroup(id: "pastDueKey", title: "Overrides of keys past their removal")
        var unread = OverrideGroup(
            id: "unread", title: "Overrides no program read in the last \(judgedRuns) run\(judgedRuns == 1 ? "" : "s")")
        for key in catalog.keys {
            let standing = key.lifecycle.removeBy?.standing(at: now, version: version)
            switch standing {
            case .pastDue?, .pastDueVersion?: pastDue.append((key, standing!))
            case .dueIn(let days)? where days < dueWithin: dueSoon.append((key, standing!))
            case .versionUnknown?: dueAtVersion.append(key)
            default: break
            }
            if requiresOwners, key.lifecycle.owner == nil { withoutOwner.append(key) }
            let status = layers.status(of: key)
            guard let entry = status.override else { continue }
            if let setAt = entry.setAt, now.timeIntervalSince(setAt) > Double(olderThan) * 86_400 {
                let days = Int(now.timeIntervalSince(setAt) / 86_400)
                old.overrides.append((key.name, "set \(Timestamp.format(setAt).prefix(10)) · \(days) days ago"))
            }
            if status.isRedundant {
                redundant.overrides.append((key.name, "= \(KeyReport.quoted(status.serverValue))"))
            } else if status.serverValue == nil, entry.value == key.defaultValueString {
                equalsDefault.overrides.append((key.name, "= \(KeyReport.quoted(entry.value))"))
            }
            if standing?.isPastDue == true {
                onPastDue.overrides.append((key.name, "remove by \(key.lifecycle.removeBy!.description)"))
            }
            if judgedRuns > 0, !readInRuns.contains(key.name) {
                unread.overrides.append((key.name, "= \(KeyReport.quoted(entry.value))"))
            }
        }
        var orphans = OverrideGroup(id: "orphan", title: "Overrides of keys this catalog does not know")
        for orphan in layers.orphans(isKnown: { catalog.descriptor(named: $0) != nil }) {
            orphans.overrides.append((orphan.name, "= \(KeyReport.quoted(orphan.override?.value))"))
        }
        overrideGroups = [old, redundant, equalsDefault, onPastDue, unread, orphans]
    }

    /// The number of findings.
    var count: Int {
        pastDue.count + dueSoon.count + withoutOwner.count + overrideGroups.reduce(0) { $0 + $1.overrides.count }
    }

    /// The report for a person.
    func text(resetCommand: ([String]) -> String) -> String {
        var lines: [String] = []
        func section(_ title: String, _ keys: [(name: String, detail: String)]) {
            guard !keys.isEmpty else { return }
            lines.append("\(title) (\(keys.count)):")
            let width = min(keys.map { VisibleText.escaped($0.name).count }.max() ?? 0, 48)
            for (name, detail) in keys {
                let name = VisibleText.escaped(name)
                lines.append(
                    "  " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0) + "  " + detail)
            }
            lines.append("")
        }
        let facts = { (key: ConfigurationKeyDescriptor) in
            (key.name, key.lifecycle.summary(at: now, version: version) ?? "")
        }
        section("Keys past their removal", pastDue.map { facts($0.key) })
        section("Keys due within \(dueWithin) days", dueSoon.map { facts($0.key) })
        section("Keys due at a version, not judged without --program-version", dueAtVersion.map(facts))
        if !withoutOwner.isEmpty {
            lines.append("Keys without an owner (\(withoutOwner.count); the catalog requires one):")
            var byScope: [(String, [String])] = []
            for key in withoutOwner {
                if byScope.last?.0 == key.scopeName {
                    byScope[byScope.count - 1].1.append(key.name)
                } else {
                    byScope.append((key.scopeName, [key.name]))
                }
            }
            for (scope, names) in byScope {
                lines.append(
                    "  \(VisibleText.escaped(scope)): " + names.map(VisibleText.escaped).joined(separator: ", "))
            }
            lines.append(
                "  fix: name an owner in each key's declaration, or for a whole scope (static let owner = \"team\")")
            lines.append("")
        }
        for group in overrideGroups where !group.overrides.isEmpty {
            section(group.title, group.overrides)
            lines.insert("  remove: " + resetCommand(group.overrides.map(\.name)), at: lines.count - 1)
        }
        let nothing = lines.isEmpty
        if judgedRuns == 0 {
            lines.append(
                "(no finished run in the store's run history: overrides no program read are not judged; a run is kept "
                    + "once its program ends)")
        }
        lines.append(
            nothing
                ? "nothing to clean up: no key past due or due within \(dueWithin) days, no stale override"
                : summaryLine)
        return lines.joined(separator: "\n")
    }

    /// `2 past due, 1 due within 30 days, 9 without an owner, 3 overrides to clean up`.
    var summaryLine: String {
        let overrides = Set(overrideGroups.flatMap { $0.overrides.map(\.name) }).count
        var parts = ["\(pastDue.count) past due", "\(dueSoon.count) due within \(dueWithin) days"]
        if requiresOwners { parts.append("\(withoutOwner.count) without an owner") }
        parts.append(CoverageCommand.count(overrides, "override") + " to clean up")
        return parts.joined(separator: ", ")
    }

    /// The report as JSON (documented in `config-menu audit --help`).
    func json(resetCommand: ([String]) -> String) -> JSONValue {
        func keyJSON(_ key: ConfigurationKeyDescriptor, _ standing: ConfigurationRemovalDue.Standing?) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("name", .string(key.name)), ("scope", .string(key.scopeName)),
                ("owner", key.lifecycle.owner.map(JSONValue.string) ?? .null),
                ("ticket", key.lifecycle.ticket.map(JSONValue.string) ?? .null),
            ]
            if let due = key.lifecycle.removeBy {
                members.append(
                    ("removeBy", .object([(due.kind.rawValue, .string(due.text))])))
            }
            switch standing {
            case .pastDue(let days)?: members.append(("daysPastDue", .number(String(days))))
            case .dueIn(let days)?: members.append(("daysLeft", .number(String(days))))
            default: break
            }
            return .object(members)
        }
        return .object([
            ("time", .string(Timestamp.format(now))),
            ("programVersion", version.map { .string($0.description) } ?? .null),
            ("dueWithinDays", .number(String(dueWithin))),
            ("olderThanDays", .number(String(olderThan))),
            ("judgedRuns", .number(String(judgedRuns))),
            ("pastDue", .array(pastDue.map { keyJSON($0.key, $0.standing) })),
            ("dueSoon", .array(dueSoon.map { keyJSON($0.key, $0.standing) })),
            ("dueAtVersion", .array(dueAtVersion.map { keyJSON($0, nil) })),
            ("requiresOwners", .bool(requiresOwners)),
            ("withoutOwner", .array(withoutOwner.map { keyJSON($0, nil) })),
            (
                "overrides",
                .object(
                    overrideGroups.map { group in
                        (
                            group.id,
                            .object([
                                ("keys", .array(group.overrides.map { .string($0.name) })),
                                (
                                    "remove",
                                    group.overrides.isEmpty ? .null : .string(resetCommand(group.overrides.map(\.name)))
                                ),
                            ])
                        )
                    })
            ),
        ])
    }
}
