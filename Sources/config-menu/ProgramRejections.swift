import ConfigurationDebugMenu
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Overrides that running programs refused (`"20 eur"` where the program's type wants `2000 EUR`), read from the
/// program reports beside the store, so `list` and `get` show what the standalone tool cannot check itself.
struct ProgramRejection {
    /// The program that refused the override (its name, pid and status).
    var program: ProgramReport
    var reason: String
}

/// A running program launched with its own value for a key (`-configOverride`, `CONFIG_OVERRIDES_JSON`,
/// `CONFIG_SCENARIO`): it uses that value (source LAUNCH) until it ends, whatever the store says.
struct ProgramLaunchOverride {
    /// The program (its name, pid and status).
    var program: ProgramReport
    /// The wire string it was launched with.
    var value: String
}

/// What the programs using a store report about its keys, read once from their reports for `list` and `get`.
struct ProgramNotes {
    /// The rejections of each key's current override by the running programs (or the latest one when none runs). A
    /// rejection of a value the override no longer holds is left out: the program has not seen the new value yet.
    var rejections: [String: [ProgramRejection]] = [:]
    /// The running programs launched with a value of each key.
    var launchOverrides: [String: [ProgramLaunchOverride]] = [:]

    /// The notes of the programs whose reports are beside `store` (none for a store without reports).
    static func current(for store: any OverrideStore) -> ProgramNotes {
        guard let place = ProgramReportPlace(store) else { return ProgramNotes() }
        let coverage = ProgramCoverage(listing: place.read())
        var notes = ProgramNotes()
        // Only keys some program refused can have rejections: looked up one by one, not the whole store.
        let refused = Set(coverage.programs.flatMap { $0.rejectedOverrides.map(\.name) })
        for key in refused {
            guard let entry = store.entry(forKey: key) else { continue }
            let rejections = coverage.rejections(of: key, value: entry.value).map {
                ProgramRejection(program: $0.program, reason: $0.reason)
            }
            if !rejections.isEmpty { notes.rejections[key] = rejections }
        }
        for program in coverage.programs {
            for key in program.launchOverrides.keys {
                notes.launchOverrides[key] = coverage.launchOverrides(of: key).map {
                    ProgramLaunchOverride(program: $0.program, value: $0.value)
                }
            }
        }
        notes.launchOverrides = notes.launchOverrides.filter { !$0.value.isEmpty }
        return notes
    }

    /// `report` with the notes about its key.
    func annotate(_ report: KeyReport) -> KeyReport {
        var report = report
        report.rejectedByPrograms = rejections[report.name] ?? []
        report.launchedPrograms = launchOverrides[report.name] ?? []
        return report
    }
}
