import Foundation
import ServiceConfiguration

/// Overrides that running programs refused (`"20 eur"` where the program's type wants `2000 EUR`), read from the
/// program reports beside the store, so `list` and `get` show what the standalone tool cannot check itself.
struct ProgramRejection: Hashable {
    var programName: String
    var processIdentifier: Int32
    /// `running`, `ended` or `stale`.
    var status: String
    var reason: String

    /// For example `MyApp (pid 4242, running)`, escaped for a terminal.
    var label: String { "\(VisibleText.escaped(programName)) (pid \(processIdentifier), \(status))" }

    /// The rejections of each key's current override by the running programs (or the latest one when none runs).
    /// A rejection of a value the override no longer holds is left out: the program has not seen the new value yet.
    static func current(for store: any OverrideStore) -> [String: [ProgramRejection]] {
        guard let storeURL = store.localFileURL else { return [:] }
        let overrides = store.entries
        var result: [String: [ProgramRejection]] = [:]
        for report in ProgramReports.read(forStoreAt: storeURL).runningOrLatest {
            for rejected in report.rejectedOverrides where overrides[rejected.name]?.value == rejected.value {
                result[rejected.name, default: []].append(
                    ProgramRejection(
                        programName: report.programName, processIdentifier: report.processIdentifier,
                        status: report.status.rawValue, reason: rejected.reason))
            }
        }
        return result
    }
}

extension ToolContext {
    /// The store's file, for commands that read what lies beside it (program reports); an etcd store has none, which
    /// `command` reports as a usage error.
    func localStoreURL(for command: String) throws -> URL {
        guard let url = store.localFileURL else {
            throw ToolError.usage(
                "\(command) reads the reports programs write beside a store file; \(VisibleText.escaped(store.location)) "
                    + "is not a file (programs on an etcd store publish no report)",
                command: command)
        }
        return url
    }

    /// Where the history journal is, for messages: `the journal is FILE.journal`, or that the store keeps none.
    var journalDescription: String {
        store.localFileURL.map { "the journal is " + VisibleText.escaped($0.path) + ".journal" }
            ?? "\(VisibleText.escaped(store.location)) keeps no history"
    }
}
