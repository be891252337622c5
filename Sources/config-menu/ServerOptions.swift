import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// `--server-url URL` and `--sync-interval SECONDS`: where server values come from, for the menu and the commands.
///
/// Without `--server-url` (and without `--server-values FILE`) the tools show the server values a running program
/// persisted in `server-snapshot.json` beside the override store, live.
enum ServerOptions {
    /// The server URL given, checked: a scheme a source exists for and a host.
    static func serverURL(_ invocation: Invocation) throws -> URL? {
        guard let text = invocation.options["--server-url"] else {
            try checkContext(invocation)
            return nil
        }
        if invocation.options["--server-values"] != nil {
            throw ToolError.usage("--server-url and --server-values are alternatives: give one")
        }
        guard var url = URL(string: text), url.scheme != nil else {
            throw ToolError.usage("--server-url needs a URL such as http://127.0.0.1:8000/values.json, got \"\(text)\"")
        }
        do {
            url = try OFREPServerValuesSource.url(
                url, targetingKey: invocation.options["--targeting-key"],
                context: invocation.repeated["--context"] ?? [])
        } catch {
            throw ToolError.usage(error.reason)
        }
        do {
            let source = try ServerValuesSources.source(
                for: url, environment: try ToolContext.etcdEnvironment(invocation))
            // An OFREP URL as its source writes it (the context in one order), so it matches the snapshot's source.
            if let ofrep = source as? OFREPServerValuesSource, let canonical = URL(string: ofrep.location) {
                return canonical
            }
        } catch let error as ServerSyncError {
            throw ToolError.usage("--server-url: \(error.reason)")
        }
        return url
    }

    /// Refuses `--context` and `--targeting-key` without `--server-url` (they say who an OFREP server evaluates for).
    static func checkContext(_ invocation: Invocation) throws {
        if invocation.options["--server-url"] == nil {
            for option in ["--context", "--targeting-key"] where invocation.options[option] != nil {
                throw ToolError.usage("\(option) needs --server-url ofrep://HOST:PORT (an OFREP server)")
            }
        }
    }

    /// The sync interval given, checked; a usage error without `--server-url`.
    static func interval(_ invocation: Invocation) throws -> Duration? {
        try checkContext(invocation)
        guard let text = invocation.options["--sync-interval"] else { return nil }
        guard invocation.options["--server-url"] != nil else {
            throw ToolError.usage("--sync-interval needs --server-url")
        }
        guard let seconds = Double(text), seconds >= 0.1, seconds <= 86_400 else {
            throw ToolError.usage("--sync-interval needs a number of seconds from 0.1 to 86400, got \"\(text)\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `server-snapshot.json` beside the store the options select.
    static func snapshotURL(_ invocation: Invocation) throws -> URL {
        ServerSnapshotLocation.url(besideStoreAt: try ToolContext.storeURL(invocation))
    }

    /// The server values a tool starts from, as the menu would show them before it fetches anything: with
    /// `--server-url`, that source's last-known values (the snapshot beside the store, when it is that source's),
    /// and a note saying so when none were fetched yet; without it, the snapshot's values when a program persisted
    /// one, else `nil` (the caller's default). And why the snapshot there cannot be used (corrupt, writable by
    /// others, ...), if so.
    static func initialServerValues(
        _ invocation: Invocation
    ) throws -> (values: [String: String]?, note: String?, problem: String?) {
        _ = try interval(invocation)
        let snapshotURL = try snapshotURL(invocation)
        guard let url = try serverURL(invocation) else {
            let follower = ServerSnapshotFollower(
                snapshotURL: snapshotURL, service: nil, confinedTo: invocation.confinement)
            return (follower.values, nil, follower.status.snapshotProblem)
        }
        // The sync the menu starts, read without starting it: it loads the snapshot of this source, if any.
        let known = ServerValuesSync(
            source: try ServerValuesSources.source(for: url, environment: try ToolContext.etcdEnvironment(invocation)),
            service: nil, snapshotURL: snapshotURL, environment: .live, snapshotConfinement: invocation.confinement)
        let status = known.status
        if case .cached = status.state { return (known.values, nil, nil) }
        let why =
            status.snapshotProblem.map { " (\($0))" }
            ?? " (\(snapshotURL.path) \(status.lastError == nil ? "does not exist" : "records no good sync"))"
        return (
            [:],
            "no server values fetched from \(status.source) yet\(why): every key shows its override or default; "
                + "`config-menu sync --server-url \(status.source)` fetches them",
            status.snapshotProblem
        )
    }

    /// What the menu shows in its server line: a sync of `--server-url` (started), or the program's snapshot
    /// (followed live); `nil` with `--server-values FILE`.
    static func menuSync(
        _ invocation: Invocation, service: LiveConfigurationService, catalog: ConfigurationCatalog? = nil
    ) throws -> (
        any ServerSyncMonitor
    )? {
        if let url = try serverURL(invocation) {
            let sync = ServerValuesSync(
                source: try ServerValuesSources.source(
                    for: url, environment: try ToolContext.etcdEnvironment(invocation), catalog: catalog),
                service: service,
                snapshotURL: try snapshotURL(invocation),
                interval: try interval(invocation), environment: .live, snapshotConfinement: invocation.confinement)
            sync.start()
            return sync
        }
        _ = try interval(invocation)
        guard invocation.options["--server-values"] == nil else { return nil }
        let follower = ServerSnapshotFollower(
            snapshotURL: try snapshotURL(invocation), service: service, confinedTo: invocation.confinement,
            environment: try ToolContext.etcdEnvironment(invocation), sources: ServerValuesSources.source)
        follower.startWatching()
        return follower
    }
}

/// Runs `body` to completion from synchronous code (the command-line tool's main thread is not part of the
/// concurrency pool, so waiting here blocks nothing the task needs).
func runBlocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let result = Locked<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}
