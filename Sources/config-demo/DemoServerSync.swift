import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// `--server-url URL [--sync-interval SECONDS]`: the demo syncs its server values from a real server, persists
/// them beside its override store (where `config-menu` reads them), and says when their status changes.
enum DemoServerSync {
    /// The value after `option`, if the option is given; exits with a usage error when the value is missing.
    static func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option) else { return nil }
        guard index + 1 < arguments.count else { usage("\(option) needs a value") }
        return arguments[index + 1]
    }

    static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(Data("config-demo: \(message) (see config-demo --help)\n".utf8))
        exit(2)
    }

    /// Every value given after `option` (an option that may be repeated), in order.
    static func values(of option: String, in arguments: [String]) -> [String] {
        var values: [String] = []
        for (index, argument) in arguments.enumerated() where argument == option {
            guard index + 1 < arguments.count else { usage("\(option) needs a value") }
            values.append(arguments[index + 1])
        }
        return values
    }

    /// The server URL given, if any (checked), with the OFREP context of `--targeting-key` and `--context`.
    static func url(in arguments: [String]) -> URL? {
        let targetingKey = value(of: "--targeting-key", in: arguments)
        let context = values(of: "--context", in: arguments)
        guard let text = value(of: "--server-url", in: arguments) else {
            if value(of: "--sync-interval", in: arguments) != nil { usage("--sync-interval needs --server-url") }
            if targetingKey != nil || !context.isEmpty {
                usage("--context and --targeting-key need --server-url ofrep://HOST:PORT (an OFREP server)")
            }
            return nil
        }
        guard let url = URL(string: text), url.scheme != nil else {
            usage("--server-url needs a URL such as http://127.0.0.1:8000/values.json, got \"\(text)\"")
        }
        do {
            return try OFREPServerValuesSource.url(url, targetingKey: targetingKey, context: context)
        } catch {
            usage(error.reason)
        }
    }

    /// Starts syncing `service` from `--server-url`, if given; `say` prints a line.
    static func start(
        arguments: [String], environment: [String: String], service: LiveConfigurationService,
        catalog: ConfigurationCatalog?,
        say: @escaping @Sendable (String) -> Void
    ) -> (sync: ServerValuesSync, observation: ConfigurationObservation)? {
        guard let url = url(in: arguments) else { return nil }
        var interval: Duration?
        if let text = value(of: "--sync-interval", in: arguments) {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 86_400 else {
                usage("--sync-interval needs a number of seconds from 0.1 to 86400, got \"\(text)\"")
            }
            interval = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        let source: any ServerValuesSource
        do {
            source = try ServerValuesSources.source(for: url, environment: environment, catalog: catalog)
        } catch {
            usage("--server-url: \(error.reason)")
        }
        // Beside a store file; with overrides on etcd, where the file would be (config-menu looks there too).
        let snapshot: ServerSnapshotLocation =
            service.overrideStore is FileOverrideStore ? .besideStore : .standard(appName: DemoConfiguration.appName)
        let sync = ServerValuesSync(source: source, service: service, snapshot: snapshot, interval: interval)
        let every =
            interval.map { interval -> String in
                let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
                return seconds == seconds.rounded() ? " every \(Int(seconds)) s" : " every \(seconds) s"
            } ?? (source.pushesChanges ? ", watched" : " at start")
        say(
            "config-demo: server values from \(VisibleText.escaped(source.location))\(every); snapshot "
                + VisibleText.escaped(sync.snapshotURL?.path ?? "none") + "; " + describe(sync.status))
        let last = Locked<(state: String, change: Date?)>((describe(sync.status), sync.status.lastChange?.at))
        let observation = sync.observeStatus { status in
            let text = describe(status)
            let (stateChanged, changed) = last.withLock { last -> (Bool, Bool) in
                defer { last = (text, status.lastChange?.at) }
                return (last.state != text, status.lastChange?.at != last.change)
            }
            if stateChanged { say("\(clock()) server: \(text)") }
            if changed, let count = status.lastChange?.previousValues.count {
                say("\(clock()) server: \(keys(count)) changed in this sync")
            }
        }
        sync.start()
        return (sync, observation)
    }

    /// The status in words, without the ever-changing time of a fresh sync.
    static func describe(_ status: ServerSyncStatus) -> String {
        switch status.state {
        case .waiting: "waiting for the first sync"
        case .fresh: "fresh (\(keys(status.keyCount)))"
        case .cached(let since): "cached values from \(Timestamp.format(since)) (\(keys(status.keyCount)))"
        case .stale(_, let reason): "stale: \(VisibleText.escaped(reason)); the last good values stay"
        case .error(let reason): "error: \(VisibleText.escaped(reason))"
        }
    }

    static func keys(_ count: Int) -> String { count == 1 ? "1 key" : "\(count) keys" }

    static func clock() -> String {
        let text = Timestamp.format(Date())
        return String(text.dropFirst(11).prefix(8))
    }
}
