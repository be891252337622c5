import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// Where the programs using a store publish their reports: beside its file, or in etcd beside its prefix.
enum ProgramReportPlace {
    /// The `programs` folder beside the store file at `store`.
    case folder(store: URL)
    /// The keys beside the etcd store's prefix (`PREFIX.programs/`).
    case etcd(EtcdOverrideStore)

    /// The place for `store`, or `nil` for a kind of store whose programs publish no report (a served store).
    init?(_ store: any OverrideStore) {
        if let url = store.localFileURL {
            self = .folder(store: url)
        } else if let etcd = store as? EtcdOverrideStore {
            self = .etcd(etcd)
        } else {
            return nil
        }
    }

    /// The reports found there now.
    func read() -> ProgramReportListing {
        switch self {
        case .folder(let url): ProgramReports.read(forStoreAt: url)
        case .etcd(let store): EtcdProgramReportReader(client: store.client).read()
        }
    }

    /// Where the reports are, for messages: a folder, or etcd keys.
    var description: String {
        switch self {
        case .folder(let url): ProgramReports.folder(forStoreAt: url).path
        case .etcd(let store):
            EtcdProgramReports.url(
                ofKey: EtcdProgramReports.prefix(for: store.client.endpoint), for: store.client.endpoint
            ).absoluteString
        }
    }

    /// The store as reports name it: the file's resolved path, or the etcd location.
    var storeDescription: String {
        switch self {
        case .folder(let url): ProgramReports.resolvedStorePath(url).path
        case .etcd(let store): store.location
        }
    }
}

extension ToolContext {
    /// Where the store's programs publish their reports, for commands that read them; a store whose programs publish
    /// none (a served one) is a usage error of `command`.
    func programReportPlace(for command: String) throws -> ProgramReportPlace {
        guard let place = ProgramReportPlace(store) else {
            throw ToolError.usage(
                "\(command) reads the reports programs publish beside a store file or an etcd store; "
                    + "\(VisibleText.escaped(store.location)) is neither (read the coverage where that store is served)",
                command: command)
        }
        return place
    }

    /// Where the history journal is, for messages: `the journal is FILE.journal`, or that the store keeps none.
    var journalDescription: String {
        (store as? FileOverrideStore).map { "the journal is " + VisibleText.escaped($0.journalURL.path) }
            ?? (store.history().isKept
                ? "the history is kept in \(VisibleText.escaped(store.location))"
                : "\(VisibleText.escaped(store.location)) keeps no history")
    }
}
