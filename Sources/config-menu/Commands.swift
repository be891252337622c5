import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// The subcommands. Data goes to standard output, messages and errors to standard error.
struct Commands {
    let invocation: Invocation

    private var json: Bool { invocation.flags.contains("--json") }

    /// What each command accepts: its own options, how many arguments, and how to say so.
    static let shapes: [String: (options: Set<String>, arguments: ClosedRange<Int>, names: String)] = [
        "list": (["--json", "--overridden", "--problems"], 0...1, "at most one scope name"),
        "get": (["--json"], 1...1, "one key name"),
        "set": (Set(["--note"]).union(ExpiryOptions.setOptions), 2...2, "a key name and a value"),
        "reset": (["--scope", "--all"], 0...Int.max, "keys, or --scope SCOPE, or --all"),
        "export": ([], 0...1, "at most one file name"),
        "import": (["--replace", "--dry-run", "--force", "--json", "--yes"], 1...1, "one profile file"),
        "catalog": ([], 0...0, "no arguments"),
        "coverage": (CoverageCommand.options, 0...10_000, "key names only after --require-both"),
        "audit": (AuditCommand.options, 0...0, "no arguments"),
        "serve": (ServeCommand.options, 0...0, "no arguments"),
        "at": (AtCommand.options, AtCommand.arguments, "TIME and get KEY, list [SCOPE] or export FILE"),
    ].merging(HistoryCommands.shapes) { $1 }

    /// Refuses (usage error) options the command does not take and a wrong number of arguments, before anything is
    /// read or written.
    static func checkShape(of invocation: Invocation) throws {
        guard let command = invocation.command, let shape = shapes[command] else { return }
        try invocation.check(allowed: shape.options)
        guard shape.arguments.contains(invocation.positional.count) else {
            throw ToolError.usage("\(command) takes \(shape.names)", command: command)
        }
    }

    private func arguments(_ count: ClosedRange<Int>, _ names: String) throws -> [String] {
        guard count.contains(invocation.positional.count) else {
            throw ToolError.usage("\(invocation.command!) takes \(names)", command: invocation.command)
        }
        return invocation.positional
    }

    // MARK: list and get

    func list() throws {
        try invocation.check(allowed: ["--json", "--overridden", "--problems"])
        let scopeName = try arguments(0...1, "at most one scope name").first
        // A scope's listing reads only its keys (an unknown name reads all, and is refused below).
        let context = try ToolContext(invocation, selecting: scopeName.map(ManifestSelection.scope))
        context.noteServerValues()
        let scope = try scopeName.map { try context.scope(named: $0) }
        let onlyOverridden = invocation.flags.contains("--overridden")
        let onlyProblems = invocation.flags.contains("--problems")
        let snapshot = ConfigurationLayersReading(service: context.service)
        let notes = ProgramNotes.current(for: context.store)
        var reports: [KeyReport] = []
        for descriptor in scope?.keys ?? context.catalog.keys {
            let status = snapshot.status(of: descriptor)
            if onlyOverridden, status.override == nil, status.storeProblems.isEmpty { continue }
            let report = notes.annotate(KeyReport(descriptor: descriptor, status: status))
            if onlyProblems, !report.hasProblem { continue }
            reports.append(report)
        }
        if scope == nil {
            reports += snapshot.orphans { context.catalog.descriptor(named: $0) != nil }.map(KeyReport.init(orphan:))
        }
        if json {
            try Output.line(JSONWriter.string(.array(reports.map(\.json))))
        } else {
            try Output.line(KeyReport.table(reports))
        }
        try context.failIfCorrupt()
    }

    func get() throws {
        try invocation.check(allowed: ["--json"])
        let name = try arguments(1...1, "one key name")[0]
        let context = try ToolContext(invocation, selecting: .keys([name]))
        context.noteServerValues()
        let snapshot = ConfigurationLayersReading(service: context.service)
        var report = try KeyReport(named: name, catalog: context.catalog, reading: snapshot)
        report.programVersion = context.service.programVersion
        report = ProgramNotes.current(for: context.store).annotate(report)
        try Output.line(json ? JSONWriter.string(report.json) : report.details)
        try context.failIfCorrupt()
    }

    // MARK: changing overrides

    func set() throws {
        try invocation.check(allowed: Set(["--note"]).union(ExpiryOptions.setOptions))
        let arguments = try arguments(2...2, "a key name and a value")
        try invocation.requireValidUTF8()
        let now = Date()
        let expiry = try ExpiryOptions.expiry(invocation, now: now)
        let context = try ToolContext(invocation, selecting: .keys([arguments[0]]))
        context.warnIfCorrupt()
        let before = context.service.resolution(forKeyNamed: arguments[0])
        try context.service.setOverride(
            rawValue: arguments[1], forKeyNamed: arguments[0], note: invocation.options["--note"], expiry: expiry)
        context.reportMovedAside()
        let show = VisibleText.escaped
        let was = before.map { "\($0.value.map(show) ?? "none") from \($0.source)" } ?? "none"
        var expires = ""
        if let expiry {
            expires = "; expires " + expiry.description
            if let at = expiry.expiresAt { expires += " (in \(ExpiryOptions.describe(at.timeIntervalSince(now))))" }
        }
        try Output.line("\(show(arguments[0])) = \(show(arguments[1])) (overridden; was \(was)\(expires))")
        if let descriptor = context.catalog.descriptor(named: arguments[0]),
            ConfigurationLayersReading(service: context.service).status(of: descriptor).isRedundant
        {
            CommandLineTool.report(
                "note: this override equals the server value, so it changes nothing now and will not follow the "
                    + "server when it changes; set it with --until-server-changes to follow the server, or reset it")
        }
    }

    func reset() throws {
        try invocation.check(allowed: ["--scope", "--all"])
        let scope = invocation.options["--scope"]
        let all = invocation.flags.contains("--all")
        let keys = invocation.positional
        guard (keys.isEmpty ? 0 : 1) + (scope == nil ? 0 : 1) + (all ? 1 : 0) == 1 else {
            throw ToolError.usage("reset takes keys, or --scope SCOPE, or --all", command: "reset")
        }
        try invocation.requireValidUTF8()
        // Keys or a scope read only their part of the catalog and the store; --all reads everything.
        let context = try ToolContext(
            invocation, selecting: all ? nil : scope.map(ManifestSelection.scope) ?? .keys(Set(keys)))
        context.warnIfCorrupt()
        // Quarantined entries are overrides too: reset removes them from the file.
        let overridden = Set(context.service.overrides.keys).union(context.store.problems.map(\.key))
        var names: [String]
        if all {
            names = overridden.sorted()
        } else if let scope {
            let found = try context.scope(named: scope)
            names = found.keys.map(\.name).filter(overridden.contains)
        } else {
            // Every name is checked before anything is removed: a typo removes nothing.
            for name in keys where !overridden.contains(name) && context.catalog.descriptor(named: name) == nil {
                throw ConfigurationError.unknownKey(name, suggestions: context.catalog.suggestions(for: name))
            }
            names = []
            for name in keys where !names.contains(name) {
                if overridden.contains(name) {
                    names.append(name)
                } else {
                    try Output.line("\(VisibleText.escaped(name)) has no override")
                }
            }
            if names.isEmpty { return }
        }
        guard !names.isEmpty else {
            try Output.line("no overrides to reset")
            return
        }
        if all {
            try context.service.removeAllOverrides()
        } else if names.count == 1 {
            try context.service.removeOverride(forKeyNamed: names[0])
        } else {
            try context.service.updateOverrides(Dictionary(uniqueKeysWithValues: names.map { ($0, String?.none) }))
        }
        context.reportMovedAside()
        try Output.line(
            "removed \(names.count) override\(names.count == 1 ? "" : "s"): "
                + names.map(VisibleText.escaped).joined(separator: ", "))
    }

    // MARK: profiles and the catalog

    func export() throws {
        try invocation.check(allowed: [])
        let file = try arguments(0...1, "at most one file name").first
        if let file, file.isEmpty { throw ToolError.usage("export needs a file name, got an empty string") }
        let context = try ToolContext(invocation)
        if let file {
            try context.store.export(to: URL(fileURLWithPath: file))
            CommandLineTool.report("exported \(context.store.entries.count) overrides to \(file)")
        } else {
            try Output.data(try context.store.exportedProfileBytes())
        }
    }

    func importProfile() throws {
        try invocation.check(allowed: ["--replace", "--dry-run", "--force", "--json", "--yes"])
        let file = try arguments(1...1, "one profile file")[0]
        guard !file.isEmpty else { throw ToolError.usage("import needs a file name, got an empty string") }
        let context = try ToolContext(invocation)
        context.warnIfCorrupt()
        let plan = try context.store.planImport(
            from: URL(fileURLWithPath: file),
            mode: invocation.flags.contains("--replace") ? .replace : .merge,
            catalog: context.catalog
        )
        if json {
            try Output.line(JSONWriter.string(Self.json(plan)))
        } else {
            try Output.line(Self.preview(plan, file: file).joined(separator: "\n"))
        }
        // A dry run stops where the import would stop, with the same error and exit code.
        if plan.hasProblems, !invocation.flags.contains("--force") {
            throw ToolError(
                code: .invalidValue,
                description: "nothing was imported: the profile has unknown keys or invalid values; fix it, or "
                    + "pass --force to import anyway (unknown keys are kept as orphans, invalid values kept but not applied)"
            )
        }
        try context.store.checkApplicable(plan)
        if invocation.flags.contains("--dry-run") {
            CommandLineTool.report("dry run: nothing was imported")
            return
        }
        // In a terminal a person sees the diff and answers; scripts (no terminal, or --json) are not asked.
        if !json, !invocation.flags.contains("--yes"), TerminalQuestion.canAsk {
            guard TerminalQuestion.ask("Import into \(VisibleText.escaped(context.store.location))?") else {
                throw ToolError(code: .failure, description: "nothing was imported")
            }
        }
        try context.store.apply(plan)
        context.reportMovedAside()
        CommandLineTool.report(
            "imported \(VisibleText.escaped(file)) into \(VisibleText.escaped(context.store.location)): \(plan.counts)")
    }

    /// What importing `plan` does, for people: `merge from FILE: 1 added, 0 changed, 4 unchanged; …`, the
    /// problems, then each change (`+ KEY = "v"`, `~ KEY: "a" -> "b"`, `- KEY = "v"`). `diff PROFILE` prints the
    /// same.
    static func preview(_ plan: OverrideImportPlan, file: String) -> [String] {
        ["\(plan.mode == .replace ? "replace" : "merge") from \(VisibleText.escaped(file)): \(plan.summary)"]
            + HistoryReport.changeLines(plan.diff)
    }

    static func json(_ plan: OverrideImportPlan) -> JSONValue {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        return .object([
            ("mode", .string(plan.mode.rawValue)),
            ("added", strings(plan.added)),
            ("changed", strings(plan.changed)),
            ("removed", strings(plan.removed)),
            ("unchanged", strings(plan.unchanged)),
            ("kept", strings(plan.kept)),
            ("unknownKeys", strings(plan.unknownKeys)),
            (
                "invalidValues",
                .array(
                    plan.invalidValues.compactMap { diagnostic in
                        guard case .invalid(let key, let value, let reason) = diagnostic else { return nil }
                        return .object([("key", .string(key)), ("value", .string(value)), ("reason", .string(reason))])
                    }
                )
            ),
            (
                "entryProblems",
                .array(
                    plan.entryProblems.map {
                        .object([
                            ("key", .string($0.key)), ("field", $0.field.map(JSONValue.string) ?? .null),
                            ("reason", .string($0.reason)), ("stored", .string($0.storedJSON)),
                        ])
                    }
                )
            ),
        ])
    }

    func catalog() throws {
        try invocation.check(allowed: [])
        _ = try arguments(0...0, "no arguments")
        let context = try ToolContext(invocation)
        try Output.data(context.catalog.manifestBytes())
    }
}
