import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu coverage [--json] [--require-read]`: which keys the program using the store read, which it never
/// read (overridden ones apart), and which it read without their scope being in its catalog, from the program
/// reports running programs publish beside the store.
struct CoverageCommand {
    let invocation: Invocation

    /// The command's own options.
    static let options: Set<String> = ["--json", "--require-read", "--runs", "--since", "--require-both"]
    /// The options that read the run history (``CoverageRunsCommand``).
    static let runsOptions: Set<String> = ["--runs", "--since", "--require-both"]

    private var json: Bool { invocation.flags.contains("--json") }

    func run() throws {
        try invocation.check(allowed: Self.options)
        let runs = !Self.runsOptions.isDisjoint(with: invocation.flags.union(invocation.options.keys))
        if runs, invocation.flags.contains("--require-read") {
            throw ToolError.usage(
                "--require-read checks the running program; with the run history use --require-both",
                command: "coverage")
        }
        guard invocation.positional.isEmpty || invocation.flags.contains("--require-both") else {
            throw ToolError.usage("coverage takes key names only after --require-both", command: "coverage")
        }
        if runs { return try CoverageRunsCommand(invocation: invocation).run() }
        let context = try ToolContext(invocation)
        let place = try context.programReportPlace(for: "coverage")
        let coverage = ProgramCoverage(listing: place.read())
        for problem in coverage.problems { CommandLineTool.report("warning: unreadable program report \(problem)") }
        guard !coverage.isEmpty else {
            throw ToolError(
                code: .failure,
                description: "no program has published a report for the store "
                    + "\(VisibleText.escaped(place.storeDescription)) (looked in \(VisibleText.escaped(place.description))); "
                    + "start the program with this store and read some keys, then run this again")
        }
        for program in coverage.programs where !program.omitted.isEmpty {
            CommandLineTool.report(
                "warning: the report of \(program.label) is incomplete (\(program.omitted.description)): it was too "
                    + "large to publish whole; keys left out count as never read here")
        }
        let overridden = Set(context.service.overrides.keys)
        let summary = coverage.summary(catalogKeys: context.catalog.keys.map(\.name), overridden: overridden)
        if !summary.readOutsideCatalog.isEmpty {
            CommandLineTool.report(
                "warning: \(Self.count(summary.readOutsideCatalog.count, "key")) the program read "
                    + "\(summary.readOutsideCatalog.count == 1 ? "is" : "are") not in this catalog (is it the "
                    + "program's? see --manifest): "
                    + summary.readOutsideCatalog.prefix(5).map(VisibleText.escaped).joined(separator: ", ")
                    + (summary.readOutsideCatalog.count > 5 ? ", ..." : ""))
        }
        if json {
            try Output.line(JSONWriter.string(Self.json(coverage, summary, store: place, context: context)))
        } else {
            try Output.line(Self.text(coverage, summary, context: context))
        }
        try context.failIfCorrupt(showsServerValues: false)
        guard invocation.flags.contains("--require-read") else { return }
        guard coverage.recordsReads else {
            throw ToolError(
                code: .failure,
                description: "--require-read: the program does not record reads (LiveConfigurationService.Options."
                    + "recordsReads is off), so whether its overrides were read is unknown")
        }
        if !summary.overriddenUnread.isEmpty {
            throw ToolError(
                code: .invalidValue,
                description: "--require-read: \(Self.count(summary.overriddenUnread.count, "overridden key")) never "
                    + "read: " + summary.overriddenUnread.map(VisibleText.escaped).joined(separator: ", "))
        }
    }

    static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    // MARK: Text

    static func text(_ coverage: ProgramCoverage, _ summary: ProgramCoverage.Summary, context: ToolContext) -> String {
        let show = VisibleText.escaped
        var lines: [String] = []
        let which = coverage.isRunning ? "running program" : "last program (none runs now)"
        lines.append(coverage.programs.count == 1 ? "\(which):" : "\(coverage.programs.count) \(which)s:")
        for program in coverage.programs {
            let machine = program.host.map { " on \(show($0))" } ?? ""
            lines.append(
                "  \(show(program.programName)) (pid \(program.processIdentifier)\(machine)), "
                    + ProgramCoverage.describeStatus(of: program))
            lines.append(
                "    started \(Timestamp.format(program.startedAt)), report written \(Timestamp.format(program.writtenAt))"
            )
            if !program.recordsReads { lines.append("    records no reads (Options.recordsReads is off)") }
            if let file = program.fileURL {
                lines.append("    report: \(show(file.isFileURL ? file.path : file.absoluteString))")
            }
            if !program.omitted.isEmpty { lines.append("    incomplete: \(program.omitted.description) (too large)") }
        }
        let total = context.catalog.keys.count
        lines.append("")
        // Only the catalog's keys count against its total; the others are listed, marked, after the count.
        let outside = summary.readOutsideCatalog.count
        lines.append(
            "read (\(summary.read.count - outside) of \(total) keys"
                + (outside > 0 ? "; \(Self.count(outside, "more key")) not in this catalog" : "") + "):")
        let width = min(60, (summary.read + summary.overriddenUnread).map(\.count).max() ?? 0)
        for name in summary.read {
            guard let read = coverage.read(named: name) else { continue }
            var line =
                "  \(show(name).padding(toLength: max(width, name.count), withPad: " ", startingAt: 0))  "
                + "first read \(Timestamp.format(read.read.firstRead))"
            if read.read.currentValueFirstRead == nil { line += " (its value changed since; not read again)" }
            if coverage.programs.count > 1 { line += " by \(show(read.program.programName))" }
            if context.catalog.descriptor(named: name) == nil { line += " (not in this catalog)" }
            lines.append(line)
        }
        lines.append("")
        if !coverage.recordsReads {
            lines.append("never read: unknown (the program records no reads)")
        } else {
            lines.append("never read (\(summary.unread.count)):")
            lines += summary.unread.map { "  " + show($0) }
            lines.append("")
            lines.append("overridden but never read (\(summary.overriddenUnread.count)):")
            for name in summary.overriddenUnread {
                let value = context.service.overrides[name].map { " = \"\(show($0))\"" } ?? ""
                lines.append("  \(show(name))\(value)")
            }
        }
        lines.append("")
        lines.append(
            "unregistered (read, but their scope is not in the program's catalog) (\(summary.unregistered.count)):")
        for key in summary.unregistered {
            let scope = key.scopeTypeName.isEmpty ? "no scope" : "scope \(show(key.scopeTypeName))"
            lines.append("  \(show(key.name))  (\(scope), first read \(Timestamp.format(key.firstRead)))")
            lines.append("    fix: \(Self.fix(for: key))")
        }
        return lines.joined(separator: "\n")
    }

    /// The fix for an unregistered key, in one sentence.
    static func fix(for key: UnregisteredConfigurationKey) -> String {
        let show = VisibleText.escaped
        guard !key.scopeTypeName.isEmpty else {
            return "declare the key as a property of a ConfigurationScope and add that scope to the catalog"
        }
        let module = key.moduleName.isEmpty ? "" : " (module \(show(key.moduleName)))"
        return "add \(show(key.scopeTypeName)).self\(module) to the scopes the ConfigurationCatalog is built from"
    }

    // MARK: JSON

    static func json(
        _ coverage: ProgramCoverage, _ summary: ProgramCoverage.Summary, store: ProgramReportPlace,
        context: ToolContext
    ) -> JSONValue {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        let newest = coverage.programs[0]
        var members: [(key: String, value: JSONValue)] = [
            ("program", programJSON(newest)),
            ("time", .string(Timestamp.format(newest.writtenAt))),
            ("running", .bool(coverage.isRunning)),
            ("recordsReads", .bool(coverage.recordsReads)),
            ("store", .string(store.storeDescription)),
            ("read", strings(summary.read)),
            ("unread", strings(summary.unread)),
            ("overriddenUnread", strings(summary.overriddenUnread)),
            ("unregistered", strings(summary.unregistered.map(\.name))),
        ]
        members.append(
            (
                "reads",
                .array(
                    summary.read.compactMap { name in
                        guard let read = coverage.read(named: name) else { return nil }
                        return .object([
                            ("name", .string(name)),
                            ("firstRead", .string(Timestamp.format(read.read.firstRead))),
                            ("currentValueRead", .bool(read.read.currentValueFirstRead != nil)),
                            ("program", .string(read.program.programName)),
                            ("pid", .number(String(read.program.processIdentifier))),
                            ("inCatalog", .bool(context.catalog.descriptor(named: name) != nil)),
                            ("values", strings(read.read.values)),
                        ])
                    })
            ))
        members.append(
            (
                "unregisteredKeys",
                .array(
                    summary.unregistered.map { key in
                        .object([
                            ("name", .string(key.name)), ("scope", .string(key.scopeTypeName)),
                            ("keyType", .string(key.keyTypeName)), ("module", .string(key.moduleName)),
                            ("firstRead", .string(Timestamp.format(key.firstRead))), ("fix", .string(fix(for: key))),
                        ])
                    })
            ))
        members.append(("programs", .array(coverage.programs.map(programJSON))))
        return .object(members)
    }

    static func programJSON(_ report: ProgramReport) -> JSONValue {
        .object([
            ("name", .string(report.programName)),
            ("version", report.programVersion.map { .string($0) } ?? .null),
            ("pid", .number(String(report.processIdentifier))),
            ("status", .string(report.status.rawValue)),
            ("startedAt", .string(Timestamp.format(report.startedAt))),
            ("writtenAt", .string(Timestamp.format(report.writtenAt))),
            ("endedAt", report.endedAt.map { .string(Timestamp.format($0)) } ?? .null),
            ("recordsReads", .bool(report.recordsReads)),
            ("file", report.fileURL.map { .string($0.isFileURL ? $0.path : $0.absoluteString) } ?? .null),
            ("host", report.host.map { .string($0) } ?? .null),
            (
                "omitted",
                .object([
                    ("reads", .number(String(report.omitted.reads))),
                    ("unregistered", .number(String(report.omitted.unregistered))),
                    ("rejectedOverrides", .number(String(report.omitted.rejectedOverrides))),
                ])
            ),
        ])
    }
}
