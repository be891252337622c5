import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `history`, `undo`, `redo`, `prune` and `diff`: the store's recorded changes, undoing the last one (whoever made
/// it) and redoing what was undone, removing expired overrides, and comparing profiles. Every change goes through the
/// service.
struct HistoryCommands {
    let invocation: Invocation

    private var json: Bool { invocation.flags.contains("--json") }

    /// What each command accepts.
    static let shapes: [String: (options: Set<String>, arguments: ClosedRange<Int>, names: String)] = [
        "history": (["--json", "--limit"], 0...1, "at most one key name"),
        "undo": (["--yes", "--json"], 0...0, "no arguments"),
        "redo": (["--yes", "--json"], 0...0, "no arguments"),
        "prune": (["--dry-run", "--json"], 0...0, "no arguments"),
        "diff": (["--json", "--replace"], 1...2, "one or two profile files"),
    ]

    // MARK: history

    func history() throws {
        let key = invocation.positional.first
        let limit = try invocation.options["--limit"].map { try ToolContext.positive($0, for: "--limit") }
        // One key's history needs only that key of the catalog and the store (its expiry).
        let context = try ToolContext(invocation, selecting: key.map { .keys([$0]) })
        let history = context.store.history()
        var records = history.records.filter { record in key == nil || record.changes.contains { $0.key == key } }
        records.reverse()
        if let limit { records = Array(records.prefix(limit)) }
        let unrecorded = history.unrecorded.flatMap { record in
            key == nil || record.changes.contains { $0.key == key } ? record : nil
        }
        let expired = context.service.expiredOverrides.filter { key == nil || $0.key == key }
            .sorted { $0.key < $1.key }
        if json {
            try Output.line(
                JSONWriter.string(
                    .object([
                        ("journal", (context.store as? FileOverrideStore).map { .string($0.journalURL.path) } ?? .null),
                        ("records", .array(records.map(HistoryReport.json))),
                        ("unrecorded", unrecorded.map(HistoryReport.json) ?? .null),
                        (
                            "expired",
                            .array(
                                expired.map { name, expiration in
                                    .object([
                                        ("key", .string(name)),
                                        ("entry", HistoryReport.json(context.store.entry(forKey: name))),
                                        ("because", .string(expiration.kind)),
                                        ("description", .string(expiration.description)),
                                    ])
                                })
                        ),
                        ("unreadableLines", .number(String(history.unreadableLines))),
                        ("problem", history.problem.map(JSONValue.string) ?? .null),
                    ])))
            try Self.failIfUnreadable(history)
            return
        }
        var lines: [String] = []
        for (name, expiration) in expired {
            lines.append(
                "expired now   \(VisibleText.escaped(name)) = \(HistoryReport.quoted(context.store.entry(forKey: name))) "
                    + "(\(expiration); not applied; config-menu prune removes it)")
        }
        if let unrecorded {
            lines += HistoryReport.lines(unrecorded, key: key, marker: "not yet recorded: ")
        }
        for record in records { lines += HistoryReport.lines(record, key: key) }
        if lines.isEmpty {
            lines.append(
                key.map { "no recorded changes of \(VisibleText.escaped($0))" } ?? "no recorded changes"
                    + " (\(context.journalDescription))")
        }
        try Output.line(lines.joined(separator: "\n"))
        if history.unreadableLines > 0 {
            CommandLineTool.report(
                "warning: \(history.unreadableLines) journal line\(history.unreadableLines == 1 ? "" : "s") could "
                    + "not be read (cut short by a stopped writer, or written by a newer build) and were skipped")
        }
        try Self.failIfUnreadable(history)
    }

    /// After the output: a journal that could not be read is not an empty history (exit 4), as for `undo`.
    private static func failIfUnreadable(_ history: OverrideHistory) throws {
        guard let problem = history.problem else { return }
        throw ToolError(
            code: .ioFailure,
            description: "history: \(VisibleText.escaped(problem)); the changes above may not be all of them")
    }

    // MARK: undo

    func undo() throws {
        try apply(redoing: false)
    }

    /// `redo`: reverses the newest undo not redone yet, as long as no other change came after it.
    func redo() throws {
        try apply(redoing: true)
    }

    /// An undo, or with `redoing` a redo: shows what it puts back, asks, applies it through the service.
    private func apply(redoing: Bool) throws {
        let command = redoing ? "redo" : "undo"
        let done = redoing ? "redone" : "undone"
        let context = try ToolContext(invocation)
        let history = context.store.history()
        let current = context.store.entries
        guard
            let proposal = redoing ? history.redoProposal(current: current) : history.undoProposal(current: current)
        else {
            if let problem = history.problem {
                // An unreadable history is not an empty one: say so, and do not succeed.
                throw ToolError(
                    code: .ioFailure,
                    description: "cannot tell the last change: \(VisibleText.escaped(problem)); nothing was \(done)")
            }
            let why =
                redoing
                ? (history.changes.contains { $0.reason.action == .undo }
                    ? "no undo to redo since the last change" : "nothing was undone")
                : (history.changes.isEmpty ? "no change is recorded" : "every recorded change is undone")
            try Output.line("nothing to \(command): \(why) (\(context.journalDescription))")
            return
        }
        let record = proposal.record
        let heading = redoing ? "the last undo" : "the last change"
        var lines = ["\(heading): \(HistoryReport.time(record.time)) by \(record.origin): \(record.summary)"]
        guard record.canBeUndone else {
            throw ToolError(
                code: .failure,
                description: lines[0] + "\nit was too large to be recorded in full, so it cannot be \(done)")
        }
        lines.append(redoing ? "redoing it puts back what it undid:" : "undoing it puts back:")
        for key in proposal.restores.keys.sorted() {
            lines.append("  \(VisibleText.escaped(key)) = \(HistoryReport.quoted(proposal.restores[key] ?? nil))")
        }
        for key in proposal.changedSince {
            lines.append(
                "warning: \(VisibleText.escaped(key)) changed since (now \(HistoryReport.quoted(proposal.expected[key] ?? nil))); "
                    + "\(redoing ? "redoing" : "undoing") replaces that too")
        }
        if !json { try Output.line(lines.joined(separator: "\n")) }
        if !invocation.flags.contains("--yes") {
            guard TerminalQuestion.canAsk else {
                throw ToolError.usage(
                    "\(command) asks before it changes anything, and there is no terminal to ask on: pass --yes",
                    command: command)
            }
            guard TerminalQuestion.ask(redoing ? "Redo it?" : "Undo it?") else {
                throw ToolError(code: .failure, description: "nothing was \(done)")
            }
        }
        context.warnIfCorrupt()
        try context.service.undoOverrideChange(proposal)
        context.reportMovedAside()
        if json {
            try Output.line(JSONWriter.string(.object([(done, HistoryReport.json(record))])))
        } else {
            try Output.line("\(done): \(record.summary)")
        }
    }

    // MARK: prune

    func prune() throws {
        let context = try ToolContext(invocation)
        let expired = context.service.expiredOverrides.sorted { $0.key < $1.key }
        let entries = context.store.entries
        func describe(_ name: String, _ expiration: OverrideExpiryReason) -> String {
            "\(VisibleText.escaped(name)) = \(HistoryReport.quoted(entries[name])) (\(expiration))"
        }
        guard !invocation.flags.contains("--dry-run") else {
            if json {
                try Output.line(JSONWriter.string(.object([("expired", .array(expired.map { .string($0.key) }))])))
            } else {
                try Output.line(
                    expired.isEmpty
                        ? "no expired overrides"
                        : (["would remove \(expired.count) expired override\(expired.count == 1 ? "" : "s"):"]
                            + expired.map { "  " + describe($0.key, $0.value) }).joined(separator: "\n"))
            }
            return
        }
        context.warnIfCorrupt()
        let removed = try context.service.pruneExpiredOverrides()
        context.reportMovedAside()
        if json {
            try Output.line(
                JSONWriter.string(.object([("removed", .array(removed.keys.sorted().map(JSONValue.string)))])))
        } else if removed.isEmpty {
            try Output.line("no expired overrides")
        } else {
            try Output.line(
                (["removed \(removed.count) expired override\(removed.count == 1 ? "" : "s"):"]
                    + removed.keys.sorted().map { name in
                        let why = expired.first { $0.key == name }.map { " (\($0.value))" } ?? ""
                        return "  \(VisibleText.escaped(name)) = \(HistoryReport.quoted(removed[name]))" + why
                    }).joined(separator: "\n"))
        }
    }

    // MARK: diff

    func diff() throws {
        let files = invocation.positional
        guard files.allSatisfy({ !$0.isEmpty }) else {
            throw ToolError.usage("diff needs file names, got an empty string", command: "diff")
        }
        guard files.count == 1 else {
            if invocation.flags.contains("--replace") {
                throw ToolError.usage(
                    "--replace is for diff PROFILE (what import --replace would do); diff A B compares two files",
                    command: "diff")
            }
            let diff = OverrideDiff(from: try Self.readProfile(files[0]), to: try Self.readProfile(files[1]))
            if json {
                try Output.line(JSONWriter.string(HistoryReport.json(diff, from: files[0], to: files[1])))
            } else {
                try Output.line(HistoryReport.lines(diff, from: files[0], to: files[1]).joined(separator: "\n"))
            }
            return
        }
        // What `import PROFILE` would do, from the same plan: merge by default, replace with --replace.
        let context = try ToolContext(invocation)
        if let error = context.store.lastError, error.kind == .corrupt {
            CommandLineTool.report("warning: \(error)")
        }
        let plan = try context.store.planImport(
            from: URL(fileURLWithPath: files[0]), mode: invocation.flags.contains("--replace") ? .replace : .merge,
            catalog: context.catalog)
        if json {
            try Output.line(JSONWriter.string(HistoryReport.json(plan.diff, from: "current overrides", to: files[0])))
        } else {
            try Output.line(Commands.preview(plan, file: files[0]).joined(separator: "\n"))
        }
        if plan.hasProblems {
            CommandLineTool.report(
                "note: import refuses this profile (exit 3): it has unknown keys or invalid values; --force imports it")
        }
    }

    /// A profile's usable entries; a file that cannot be read at all is an I/O error (exit 4).
    static func readProfile(_ path: String) throws -> [String: OverrideEntry] {
        let (entries, problems) = try FileOverrideStore.readProfile(URL(fileURLWithPath: path))
        for problem in problems where !problem.isApplied {
            CommandLineTool.report("warning: \(path): \(problem)")
        }
        return entries
    }
}
