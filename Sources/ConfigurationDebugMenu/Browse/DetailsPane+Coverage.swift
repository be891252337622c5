import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// What the details pane says about the program reports: whether (and when, and by which program) the selected key
/// was read in this run, and for a key read without being in the catalog, what that means and the fix.
extension DetailsPane {
    /// `Read      by config-demo (pid 4242) at 12:03:04 UTC`, or that the running program has not read it; `nil`
    /// when no program reported its reads.
    static func readLine(_ coverage: ProgramCoverage, name: String, overridden: Bool, theme: MenuTheme) -> Line? {
        guard coverage.recordsReads, let newest = coverage.programs.first else { return nil }
        var line: Line = [("Read      ", theme.muted)]
        if let read = coverage.read(named: name) {
            line.append(("by \(program(read.program)) at \(time(read.read.firstRead))", theme.valid))
            if read.read.currentValueFirstRead == nil {
                line.append(("  ◦ its value changed since; not read again", theme.problem))
            }
        } else {
            let who =
                coverage.programs.count <= 3
                ? coverage.programs.map(program).joined(separator: " or ") : "\(coverage.programs.count) programs"
            let run = coverage.isRunning ? "this run" : "its run"
            line.append(("not read by \(who) in \(run)", overridden ? theme.problem : theme.muted))
            if overridden { line.append(("  (the override was not exercised)", theme.problem)) }
        }
        if !coverage.isRunning { line.append(("  · \(newest.status.rawValue)", theme.muted)) }
        return line
    }

    /// `Launch    "Y" · config-demo (pid 4242) keeps this until it ends; …`: the launch override of this
    /// program (a menu inside it) and of each running program whose report names one (at most three).
    static func launchLines(_ status: ConfigurationKeyStatus, coverage: ProgramCoverage, theme: MenuTheme) -> [Line] {
        var lines: [Line] = []
        if let value = status.launchValue {
            lines.append([
                ("Launch    ", theme.muted), (ValueText.quoted(value), theme.source(.launch)),
                (
                    " · this program keeps this until it ends; changes here apply to later runs",
                    theme.label
                ),
            ])
        }
        for (report, value) in coverage.launchOverrides(of: status.name).prefix(3) {
            lines.append([
                ("Launch    ", theme.muted), (ValueText.quoted(value), theme.source(.launch)),
                (
                    " · \(program(report)) keeps this until it ends; changes here apply after",
                    theme.label
                ),
            ])
        }
        return lines
    }

    /// The details of a key a program read whose scope is not in its catalog.
    static func unregisteredLines(
        _ key: UnregisteredConfigurationKey, coverage: ProgramCoverage, theme: MenuTheme
    ) -> [Line] {
        let scope = key.scopeTypeName.isEmpty ? "no scope" : key.scopeTypeName
        let module = key.moduleName.isEmpty ? "" : " in module \(key.moduleName)"
        let by = coverage.programs.first.map { " by \(program($0))" } ?? ""
        let fix =
            key.scopeTypeName.isEmpty
            ? "declare the key as a property of a ConfigurationScope and add that scope to the ConfigurationCatalog"
            : "add \(key.scopeTypeName).self to the program's ConfigurationCatalog(scopes:)"
        return [
            [(key.name, theme.label), ("  unregistered", theme.problem), ("  \(scope)\(module)", theme.muted)],
            [
                ("Read      ", theme.muted),
                ("\(by.isEmpty ? "" : String(by.dropFirst())) at \(time(key.firstRead))", theme.text),
            ],
            [
                (
                    "The program reads this key, but its scope is not in its catalog: this menu and "
                        + "config-menu cannot show its value or override it.", theme.muted
                )
            ],
            [("Fix       ", theme.muted), (fix, theme.label)],
        ]
    }

    /// `config-demo (pid 4242)`.
    private static func program(_ report: ProgramReport) -> String {
        "\(report.programName) (pid \(report.processIdentifier))"
    }

    /// `12:03:04 UTC`: the time of day of a read (UTC, so screens compare the same everywhere).
    private static func time(_ date: Date) -> String {
        String(Timestamp.format(date).dropFirst(11).prefix(8)) + " UTC"
    }
}
