import ConfigurationDebugMenu
import ServiceConfiguration
import ServiceConfigurationFileStore

/// Overrides that running programs refused (`"20 eur"` where the program's type wants `2000 EUR`), read from the
/// program reports beside the store, so `list` and `get` show what the standalone tool cannot check itself.
struct ProgramRejection {
    /// The program that refused the override (its name, pid and status).
    var program: ProgramReport
    var reason: String

    /// The rejections of each key's current override by the running programs (or the latest one when none runs).
    /// A rejection of a value the override no longer holds is left out: the program has not seen the new value yet.
    static func current(for store: any OverrideStore) -> [String: [ProgramRejection]] {
        guard let place = ProgramReportPlace(store) else { return [:] }
        let coverage = ProgramCoverage(listing: place.read())
        var result: [String: [ProgramRejection]] = [:]
        for (key, entry) in store.entries {
            let rejections = coverage.rejections(of: key, value: entry.value).map {
                ProgramRejection(program: $0.program, reason: $0.reason)
            }
            if !rejections.isEmpty { result[key] = rejections }
        }
        return result
    }
}
