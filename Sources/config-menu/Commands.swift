import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration

/// The subcommands. Data goes to standard output, messages and errors to standard error.
struct Commands {
    let invocation: Invocation

    private var json: Bool { invocation.flags.contains("--json") }

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
        let context = try ToolContext(invocation)
        let data = MenuData(
            table: KeyTable(catalog: context.catalog), service: context.service, overrideStore: context.store, label: ""
        )
        let scope = try scopeName.map { name in
            let wanted = try context.scope(named: name).name
            return data.table.scopes.firstIndex { $0.name == wanted }!
        }
        let onlyOverridden = invocation.flags.contains("--overridden")
        let onlyProblems = invocation.flags.contains("--problems")
        var reports: [KeyReport] = []
        for index in scope.map({ data.table.scopes[$0].range }) ?? 0..<data.table.keys.count {
            let status = data.statuses[index]
            if onlyOverridden, status.override == nil { continue }
            if onlyProblems, !status.hasProblem { continue }
            reports.append(KeyReport(descriptor: data.table.keys[index].descriptor, status: status))
        }
        if scope == nil { reports += data.orphans.map(KeyReport.init(orphan:)) }
        if json {
            print(JSONWriter.string(.array(reports.map(\.json))))
        } else {
            print(KeyReport.table(reports))
        }
    }

    func get() throws {
        try invocation.check(allowed: ["--json"])
        let name = try arguments(1...1, "one key name")[0]
        let context = try ToolContext(invocation)
        let data = MenuData(
            table: KeyTable(catalog: context.catalog), service: context.service, overrideStore: context.store, label: ""
        )
        let report: KeyReport
        if let index = data.table.index(of: name) {
            report = KeyReport(descriptor: data.table.keys[index].descriptor, status: data.statuses[index])
        } else if let orphan = data.orphans.first(where: { $0.name == name }) {
            report = KeyReport(orphan: orphan)
        } else {
            throw ConfigurationError.unknownKey(name, suggestions: context.catalog.suggestions(for: name))
        }
        print(json ? JSONWriter.string(report.json) : report.details)
    }

    // MARK: changing overrides

    func set() throws {
        try invocation.check(allowed: ["--note"])
        let arguments = try arguments(2...2, "a key name and a value")
        let context = try ToolContext(invocation)
        let before = context.service.resolution(forKeyNamed: arguments[0])
        try context.service.setOverride(
            rawValue: arguments[1], forKeyNamed: arguments[0], note: invocation.options["--note"])
        let was = before.map { "\($0.value ?? "none") from \($0.source)" } ?? "none"
        print("\(arguments[0]) = \(arguments[1]) (overridden; was \(was))")
    }

    func reset() throws {
        try invocation.check(allowed: ["--scope", "--all"])
        let scope = invocation.options["--scope"]
        let all = invocation.flags.contains("--all")
        let keys = invocation.positional
        guard (keys.isEmpty ? 0 : 1) + (scope == nil ? 0 : 1) + (all ? 1 : 0) == 1, keys.count <= 1 else {
            throw ToolError.usage("reset takes one key, or --scope SCOPE, or --all", command: "reset")
        }
        let context = try ToolContext(invocation)
        let overridden = Set(context.service.overrides.keys)
        let names: [String]
        if all {
            names = overridden.sorted()
        } else if let scope {
            let found = try context.scope(named: scope)
            names = found.keys.map(\.name).filter(overridden.contains)
        } else {
            let name = keys[0]
            guard overridden.contains(name) else {
                if context.catalog.descriptor(named: name) == nil {
                    throw ConfigurationError.unknownKey(name, suggestions: context.catalog.suggestions(for: name))
                }
                print("\(name) has no override")
                return
            }
            names = [name]
        }
        guard !names.isEmpty else {
            print("no overrides to reset")
            return
        }
        try context.service.updateOverrides(Dictionary(uniqueKeysWithValues: names.map { ($0, String?.none) }))
        print("removed \(names.count) override\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))")
    }

    // MARK: profiles and the catalog

    func export() throws {
        try invocation.check(allowed: [])
        let file = try arguments(0...1, "at most one file name").first
        let context = try ToolContext(invocation)
        if let file {
            try context.store.export(to: URL(fileURLWithPath: file))
            CommandLineTool.report("exported \(context.store.entries.count) overrides to \(file)")
        } else {
            FileHandle.standardOutput.write(context.store.exportedProfile())
        }
    }

    func importProfile() throws {
        try invocation.check(allowed: ["--replace", "--dry-run", "--force", "--json"])
        let file = try arguments(1...1, "one profile file")[0]
        let context = try ToolContext(invocation)
        let plan = try context.store.planImport(
            from: URL(fileURLWithPath: file),
            mode: invocation.flags.contains("--replace") ? .replace : .merge,
            catalog: context.catalog
        )
        if json {
            print(JSONWriter.string(Self.json(plan)))
        } else {
            print("\(plan.mode == .replace ? "replace" : "merge") from \(file): \(plan.summary)")
        }
        if invocation.flags.contains("--dry-run") { return }
        if plan.hasProblems, !invocation.flags.contains("--force") {
            throw ToolError(
                code: .invalidValue,
                description: "nothing was imported: the profile has unknown keys or invalid values; fix it, or "
                    + "pass --force to import anyway (unknown keys are kept as orphans, invalid values kept but not applied)"
            )
        }
        try context.store.apply(plan)
        CommandLineTool.report("imported \(plan.incoming.count) overrides into \(context.store.url.path)")
    }

    static func json(_ plan: OverrideImportPlan) -> JSONValue {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        return .object([
            ("mode", .string(plan.mode.rawValue)),
            ("added", strings(plan.added)),
            ("changed", strings(plan.changed)),
            ("removed", strings(plan.removed)),
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
        ])
    }

    func catalog() throws {
        try invocation.check(allowed: [])
        _ = try arguments(0...0, "no arguments")
        let context = try ToolContext(invocation)
        FileHandle.standardOutput.write(context.catalog.manifestJSON())
    }
}
