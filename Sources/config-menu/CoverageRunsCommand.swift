import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu coverage --runs [--since VERSION|DATE] [--require-both [KEY...]] [--json]`: what the finished runs
/// kept in the store's run history (``ProgramRunHistory``, ``EtcdRunHistory``) read, and with which values; with `--require-both`,
/// whether every value of some Bool or choice keys was read (exit 3 when not).
struct CoverageRunsCommand {
    let invocation: Invocation

    private var json: Bool { invocation.flags.contains("--json") }
    private var requireBoth: Bool { invocation.flags.contains("--require-both") }

    func run() throws {
        let since = try invocation.options["--since"].map { text -> ProgramRunEvidence.Since in
            guard let since = ProgramRunEvidence.Since(text) else {
                throw ToolError.usage(
                    "--since needs a version like 8.2 or a date like 2026-12-01 (UTC), got \""
                        + "\(VisibleText.escaped(text))\"", command: "coverage")
            }
            return since
        }
        let context = try ToolContext(invocation)
        let place = try context.programReportPlace(for: "coverage")
        let listing = place.sweptRuns()
        for problem in listing.problems { CommandLineTool.report("warning: unreadable run \(problem)") }
        let evidence = ProgramRunEvidence(runs: listing.reports, since: since)
        guard !evidence.runs.isEmpty else {
            let which = since.map { " (\($0))" } ?? ""
            throw ToolError(
                code: .failure,
                description:
                    "no finished run\(which) in the run history \(VisibleText.escaped(place.runHistoryLocation)) "
                    + "of the store \(VisibleText.escaped(place.storeDescription)) ("
                    + "\(listing.reports.count) run\(listing.reports.count == 1 ? "" : "s") in all); a run is kept "
                    + "there once its program ends or is found killed")
        }
        let exercises = requireBoth ? try Self.exercises(of: invocation.positional, evidence, context) : nil
        if json {
            try Output.line(
                JSONWriter.string(
                    Self.json(evidence, exercises, since: since, place: place, context: context)
                ))
        } else {
            try Output.line(Self.text(evidence, exercises, since: since, place: place, context: context))
        }
        try context.failIfCorrupt(showsServerValues: false)
        let unexercised = exercises?.checked.filter { !$0.isExercised } ?? []
        guard !unexercised.isEmpty else { return }
        throw ToolError(
            code: .invalidValue,
            description: "--require-both: \(CoverageCommand.count(unexercised.count, "key")) not read with every "
                + "value in \(CoverageCommand.count(evidence.runs.count, "run")): "
                + unexercised.map(Self.describeMissing).joined(separator: "; "))
    }

    // MARK: Both sides

    /// The keys `--require-both` checks and what the runs read of them.
    struct Exercises {
        /// The keys checked.
        var checked: [ProgramRunEvidence.Exercise]
        /// Overridden keys left out (no key named): neither Bool nor choice.
        var skipped: [String]
        /// Whether the keys were named (otherwise: every overridden key).
        var named: Bool
    }

    /// The named keys (each must be a Bool or choice key of the catalog), or every key overridden in the store now
    /// that is one.
    static func exercises(
        of names: [String], _ evidence: ProgramRunEvidence, _ context: ToolContext
    ) throws -> Exercises {
        guard !names.isEmpty else {
            var exercises = Exercises(checked: [], skipped: [], named: false)
            for name in context.service.overrides.keys.sorted() {
                guard let descriptor = context.catalog.descriptor(named: name),
                    let exercise = try? evidence.exercise(of: descriptor)
                else {
                    exercises.skipped.append(name)
                    continue
                }
                exercises.checked.append(exercise)
            }
            return exercises
        }
        var checked: [ProgramRunEvidence.Exercise] = []
        for name in names {
            guard let descriptor = context.catalog.descriptor(named: name) else {
                throw ToolError.usage(
                    "--require-both: \(VisibleText.escaped(name)) is not a key of the \(context.label)",
                    command: "coverage")
            }
            do throws(ProgramRunEvidence.ExerciseProblem) {
                checked.append(try evidence.exercise(of: descriptor))
            } catch .notBoolOrChoice(let control) {
                throw ToolError.usage(
                    "--require-both: \(VisibleText.escaped(name)) is a \(control) key, neither a Bool nor a choice "
                        + "key, so it has no sides to read; name Bool and choice (picker, experiment) keys only",
                    command: "coverage")
            } catch {
                throw ToolError.usage(
                    "--require-both: \(VisibleText.escaped(name)) is a picker without choices", command: "coverage")
            }
        }
        return Exercises(checked: checked, skipped: [], named: true)
    }

    /// A side as people read it: `"N"`, or `"none" or "off"`.
    static func describe(side: [String]) -> String {
        side.map { "\"\(VisibleText.escaped($0))\"" }.joined(separator: " or ")
    }

    /// `function.album.like.enabled (bool) read only as "Y", never as "N"`.
    static func describeMissing(_ exercise: ProgramRunEvidence.Exercise) -> String {
        let name = VisibleText.escaped(exercise.name)
        let missing = exercise.missing.map(describe(side:)).joined(separator: ", ")
        guard !exercise.seen.isEmpty else {
            return exercise.runs == 0
                ? "\(name) (\(exercise.kind.rawValue)) never read"
                : "\(name) (\(exercise.kind.rawValue)) read without its values recorded, never as \(missing)"
        }
        let seen = exercise.seen.map { "\"\(VisibleText.escaped($0))\"" }.joined(separator: ", ")
        return "\(name) (\(exercise.kind.rawValue)) read only as \(seen), never as \(missing)"
    }

    // MARK: Owners

    /// The owner of a key, for the cleanup candidates' owner column (``ConfigurationKeyLifecycle/owner``, or its
    /// scope's); `nil` when none is declared or the key is not in the catalog.
    static func owner(of descriptor: ConfigurationKeyDescriptor?) -> String? {
        descriptor?.lifecycle.owner
    }

    // MARK: Text

    static func text(
        _ evidence: ProgramRunEvidence, _ exercises: Exercises?, since: ProgramRunEvidence.Since?,
        place: ProgramReportPlace, context: ToolContext
    ) -> String {
        let show = VisibleText.escaped
        var lines: [String] = []
        let which = since.map { ", \($0)" } ?? ""
        lines.append(
            "\(CoverageCommand.count(evidence.runs.count, "run")) in \(show(place.runHistoryLocation))\(which):")
        for program in evidence.programs {
            let version = program.version.map { " \(show($0))" } ?? " (no version)"
            lines.append("  \(show(program.name))\(version): \(CoverageCommand.count(program.runs, "run"))")
        }
        if let exercises {
            lines.append("")
            let what = exercises.named ? "" : " (every overridden Bool or choice key)"
            lines.append("both sides\(what):")
            if exercises.checked.isEmpty { lines.append("  no overridden Bool or choice key") }
            for exercise in exercises.checked {
                let seen = exercise.seen.map { "\"\(show($0))\"" }.joined(separator: ", ")
                let verdict =
                    exercise.isExercised
                    ? "every side read (\(seen))"
                    : "missing \(exercise.missing.map(describe(side:)).joined(separator: ", "))"
                        + (exercise.seen.isEmpty ? "" : "; read \(seen)")
                lines.append(
                    "  \(show(exercise.name)) (\(exercise.kind.rawValue)): \(verdict), in "
                        + "\(CoverageCommand.count(exercise.runs, "run"))")
            }
            if !exercises.skipped.isEmpty {
                lines.append(
                    "  not checked (overridden, neither Bool nor choice): "
                        + exercises.skipped.map(show).joined(separator: ", "))
            }
            return lines.joined(separator: "\n")
        }
        lines.append("")
        for run in evidence.runs {
            let version = run.programVersion.map { " \(show($0))" } ?? ""
            let outcome = run.endedAt.map { "ended \(Timestamp.format($0))" } ?? "killed"
            lines.append(
                "  \(show(run.programName))\(version) (pid \(run.processIdentifier)), started "
                    + "\(Timestamp.format(run.startedAt)), \(outcome), \(CoverageCommand.count(run.reads.count, "key")) read"
            )
        }
        let outside = evidence.keys.filter { context.catalog.descriptor(named: $0.name) == nil }.count
        lines.append("")
        lines.append(
            "read (\(evidence.keys.count - outside) of \(context.catalog.keys.count) keys"
                + (outside > 0 ? "; \(CoverageCommand.count(outside, "more key")) not in this catalog" : "") + "):")
        let width = min(60, evidence.keys.map(\.name.count).max() ?? 0)
        for key in evidence.keys {
            var line =
                "  \(show(key.name).padding(toLength: max(width, key.name.count), withPad: " ", startingAt: 0))  "
                + "\(CoverageCommand.count(key.runs, "run"))"
            if !key.values.isEmpty {
                line += ": " + key.values.map { "\"\(show($0.value))\" (\($0.runs))" }.joined(separator: ", ")
            }
            if key.runsWithValuesOmitted > 0 { line += ", more values not kept" }
            if key.runsWithoutValues > 0 { line += " (values not recorded in \(key.runsWithoutValues))" }
            if context.catalog.descriptor(named: key.name) == nil { line += " (not in this catalog)" }
            lines.append(line)
        }
        let neverRead = evidence.neverRead(catalogKeys: context.catalog.keys.map(\.name))
        lines.append("")
        lines.append("never read in these runs (\(neverRead.count)): cleanup candidates")
        let nameWidth = min(neverRead.map { show($0).count }.max() ?? 0, 48)
        for name in neverRead {
            let shown = show(name)
            let owner = owner(of: context.catalog.descriptor(named: name)).map { "  owner: \(show($0))" } ?? ""
            lines.append(
                "  "
                    + (owner.isEmpty
                        ? shown : shown.padding(toLength: max(nameWidth, shown.count), withPad: " ", startingAt: 0))
                    + owner
            )
        }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    static func json(
        _ evidence: ProgramRunEvidence, _ exercises: Exercises?, since: ProgramRunEvidence.Since?,
        place: ProgramReportPlace, context: ToolContext
    ) -> JSONValue {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        let optional = { (value: String?) in value.map(JSONValue.string) ?? .null }
        let sinceJSON: JSONValue =
            switch since {
            case .version(let version)?: .object([("version", .string(version.description))])
            case .date(let date)?: .object([("date", .string(Timestamp.format(date)))])
            case nil: .null
            }
        var members: [(key: String, value: JSONValue)] = [
            ("store", .string(place.storeDescription)),
            ("history", .string(place.runHistoryLocation)),
            ("since", sinceJSON),
            (
                "programs",
                .array(
                    evidence.programs.map {
                        .object([
                            ("name", .string($0.name)), ("version", optional($0.version)),
                            ("runs", .number(String($0.runs))),
                        ])
                    })
            ),
            (
                "runs",
                .array(
                    evidence.runs.map { run in
                        .object([
                            ("program", .string(run.programName)), ("version", optional(run.programVersion)),
                            ("pid", .number(String(run.processIdentifier))), ("host", optional(run.host)),
                            ("startedAt", .string(Timestamp.format(run.startedAt))),
                            ("endedAt", optional(run.endedAt.map(Timestamp.format))),
                            ("outcome", .string(run.endedAt == nil ? "killed" : "ended")),
                            ("keysRead", .number(String(run.reads.count))),
                            ("file", optional(run.fileURL?.path)),
                        ])
                    })
            ),
            (
                "keys",
                .array(
                    evidence.keys.map { key in
                        .object([
                            ("name", .string(key.name)), ("runs", .number(String(key.runs))),
                            (
                                "values",
                                .array(
                                    key.values.map {
                                        .object([("value", .string($0.value)), ("runs", .number(String($0.runs)))])
                                    })
                            ),
                            ("runsWithValuesOmitted", .number(String(key.runsWithValuesOmitted))),
                            ("runsWithoutValues", .number(String(key.runsWithoutValues))),
                            ("inCatalog", .bool(context.catalog.descriptor(named: key.name) != nil)),
                        ])
                    })
            ),
            (
                "neverRead",
                .array(
                    evidence.neverRead(catalogKeys: context.catalog.keys.map(\.name)).map { name in
                        .object([
                            ("name", .string(name)),
                            ("owner", optional(owner(of: context.catalog.descriptor(named: name)))),
                        ])
                    })
            ),
        ]
        if let exercises {
            members.append(
                (
                    "requireBoth",
                    .array(
                        exercises.checked.map { exercise in
                            .object([
                                ("name", .string(exercise.name)), ("kind", .string(exercise.kind.rawValue)),
                                ("sides", .array(exercise.sides.map(strings))), ("seen", strings(exercise.seen)),
                                ("missing", .array(exercise.missing.map(strings))),
                                ("runs", .number(String(exercise.runs))),
                                ("exercised", .bool(exercise.isExercised)),
                            ])
                        })
                ))
            members.append(("notChecked", strings(exercises.skipped)))
        }
        return .object(members)
    }
}

/// The run history beside a store file (``ProgramRunHistory``) or an etcd store (``EtcdRunHistory``).
extension ProgramReportPlace {
    /// Where the history is, for messages: a folder, or etcd keys.
    var runHistoryLocation: String {
        switch self {
        case .folder(let url): ProgramRunHistory(forStoreAt: url).folder.path
        case .etcd(let store): EtcdRunHistory(client: store.client).location
        }
    }

    /// The runs in the history, after sweeping the finished reports published for the store into it. When the
    /// sweep fails (a read-only folder, etcd refusing the write), the finished reports not in the history are
    /// counted as they are.
    func sweptRuns() -> ProgramReportListing {
        let finished = read().reports.filter { $0.status != .running }
        var listing: ProgramReportListing
        var problem: String?
        switch self {
        case .folder(let url):
            let history = ProgramRunHistory(forStoreAt: url)
            do { try history.add(finished) } catch { problem = error.description }
            listing = history.read(forStoreAt: url)
        case .etcd(let store):
            let history = EtcdRunHistory(client: store.client)
            do { try history.add(finished) } catch {
                problem = "cannot add runs to \(history.location): \(error.reason)"
            }
            listing = history.read()
        }
        guard let problem else { return listing }
        CommandLineTool.report("warning: \(problem); finished runs not in the history are counted from their reports")
        let kept = Set(listing.reports.compactMap { $0.fileURL.flatMap(ProgramRunHistory.reportName(of:)) })
        listing.reports += finished.filter { report in
            guard let url = report.fileURL else { return false }
            let name = url.isFileURL ? url.lastPathComponent : url.lastPathComponent + ".json"
            return !kept.contains(name)
        }
        return listing
    }
}
