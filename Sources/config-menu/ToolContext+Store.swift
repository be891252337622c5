import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

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
        (store as? FileOverrideStore).map { "the journal is " + VisibleText.escaped($0.journalURL.path) }
            ?? (store.history().isKept
                ? "the history is kept in \(VisibleText.escaped(store.location))"
                : "\(VisibleText.escaped(store.location)) keeps no history")
    }
}
