import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore
import ServiceConfigurationFiles

/// `config-menu at TIME get KEY|list [SCOPE] [--json]` and `config-menu at TIME export FILE [--with-server-values]`:
/// the effective values and their sources as they were at TIME (see ``PastLayers``), reported as `get` and `list`
/// report them now, or written as a profile that `import` turns back into that state.
struct AtCommand {
    let invocation: Invocation

    /// The command's own options.
    static let options: Set<String> = ["--json", "--with-server-values"]
    /// TIME, the verb, and its argument.
    static let arguments: ClosedRange<Int> = 2...3

    private var json: Bool { invocation.flags.contains("--json") }

    func run() throws {
        let arguments = invocation.positional
        let time = try PastTime.parse(arguments[0], now: Date())
        let verb = arguments[1]
        let rest = Array(arguments.dropFirst(2))
        switch verb {
        case "get" where rest.count == 1, "list" where rest.count <= 1:
            if invocation.flags.contains("--with-server-values") {
                throw ToolError.usage("--with-server-values is for at TIME export FILE", command: "at")
            }
        case "export" where rest.count == 1 && !rest[0].isEmpty:
            if json { throw ToolError.usage("at TIME export writes a profile; it takes no --json", command: "at") }
        default:
            throw ToolError.usage(
                "at TIME takes get KEY, list [SCOPE] or export FILE, got \"\(VisibleText.escaped(arguments.dropFirst().joined(separator: " ")))\"",
                command: "at")
        }
        let context = try ToolContext(invocation)
        let past = try PastLayers(context: context, invocation: invocation, time: time)
        let reading = ConfigurationLayersReading(service: past.service)
        switch verb {
        case "get": try get(rest[0], past: past, reading: reading, context: context)
        case "list": try list(scope: rest.first, past: past, reading: reading, context: context)
        default: try export(to: rest[0], past: past, reading: reading, context: context)
        }
    }

    // MARK: get and list

    private func get(
        _ name: String, past: PastLayers, reading: ConfigurationLayersReading, context: ToolContext
    ) throws {
        let report = try KeyReport(named: name, catalog: context.catalog, reading: reading)
        if json {
            try Output.line(JSONWriter.string(.object(past.jsonMembers + [("key", keyJSON(report, past))])))
        } else {
            var details = report.details
            if !past.overridesKnown {
                details = details.replacingOccurrences(
                    of: "\n  override  none", with: "\n  override  unknown at this time (see above)")
            }
            try Output.line(past.header + "\n\n" + details)
        }
        try context.failIfCorrupt()
    }

    private func list(
        scope name: String?, past: PastLayers, reading: ConfigurationLayersReading, context: ToolContext
    ) throws {
        let scope = try name.map { try context.scope(named: $0) }
        var reports = (scope?.keys ?? context.catalog.keys).map {
            KeyReport(descriptor: $0, status: reading.status(of: $0))
        }
        if scope == nil {
            reports += reading.orphans { context.catalog.descriptor(named: $0) != nil }.map(KeyReport.init(orphan:))
        }
        if json {
            try Output.line(
                JSONWriter.string(.object(past.jsonMembers + [("keys", .array(reports.map { keyJSON($0, past) }))])))
        } else {
            try Output.line(past.header + "\n\n" + KeyReport.table(reports))
        }
        try context.failIfCorrupt()
    }

    /// A key as `get --json` shows it; when the overrides at the time are unknown, its value and source are too
    /// (`null`, `"unknown"`), and so is its override.
    private func keyJSON(_ report: KeyReport, _ past: PastLayers) -> JSONValue {
        guard !past.overridesKnown, case .object(let members) = report.json else { return report.json }
        let unknown: [String: JSONValue] = ["value": .null, "source": .string("unknown"), "override": .null]
        return .object(members.map { member in (member.key, unknown[member.key] ?? member.value) })
    }

    // MARK: export

    /// Writes the overrides in effect at the time (expired and rejected ones left out), and with
    /// `--with-server-values` every server value then in effect pinned as an override, as a profile.
    private func export(
        to file: String, past: PastLayers, reading: ConfigurationLayersReading, context: ToolContext
    ) throws {
        let when = Timestamp.format(past.time)
        if case .unknown(let why) = past.overrides {
            throw ToolError(
                code: .failure, description: "at \(when): the overrides then are unknown (\(why)); nothing was written")
        }
        let pinsServer = invocation.flags.contains("--with-server-values")
        // A store or snapshot that cannot be read would export as if it held nothing.
        try context.failIfCorrupt(showsServerValues: pinsServer)
        if pinsServer, !past.serverValuesKnown {
            throw ToolError(
                code: .failure,
                description: "at \(when): --with-server-values, but the server values then are not known "
                    + "(\(past.serverNote)); nothing was written")
        }
        let statuses =
            context.catalog.keys.map(reading.status(of:))
            + reading.orphans { context.catalog.descriptor(named: $0) != nil }
        var entries: [String: OverrideEntry] = [:]
        var pinned = 0
        for status in statuses {
            if status.source == .overridden, let entry = status.override {
                entries[status.name] = OverrideEntry(value: entry.value, setAt: nil, note: entry.note)
            } else if pinsServer, status.source == .server, let server = status.serverValue {
                entries[status.name] = OverrideEntry(
                    value: server, setAt: nil, note: "the server value at \(when), pinned by config-menu at")
                pinned += 1
            }
        }
        do throws(StoreFile.Failure) {
            try StoreFile.export(FileOverrideStore.profileBytes(entries), to: file)
        } catch {
            throw OverrideStoreError(url: URL(fileURLWithPath: file), kind: error.kind, problem: error.problem)
        }
        let overridden = entries.count - pinned
        CommandLineTool.report(
            "wrote \(overridden) override\(overridden == 1 ? "" : "s") in effect at \(when)"
                + (pinsServer ? " and \(pinned) server value\(pinned == 1 ? "" : "s") pinned" : "")
                + " to \(VisibleText.escaped(file)); `config-menu import \(VisibleText.escaped(file)) --replace` "
                + "reproduces them")
    }
}

extension KeyReport {
    /// The key `name` as `reading` has it: a catalog key, or else an orphaned override; an unknown name throws with
    /// the nearest names.
    init(named name: String, catalog: ConfigurationCatalog, reading: ConfigurationLayersReading) throws {
        if let descriptor = catalog.descriptor(named: name) {
            self.init(descriptor: descriptor, status: reading.status(of: descriptor))
        } else if let orphan = reading.orphans(isKnown: { $0 != name }).first {
            self.init(orphan: orphan)
        } else {
            throw ConfigurationError.unknownKey(name, suggestions: catalog.suggestions(for: name))
        }
    }
}
