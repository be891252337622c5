// config-demo: a small program that reads the demo's keys through ServiceConfiguration and prints a line whenever
// an effective value changes. Run it in one terminal and the debug menu (or `config-menu set ...`) in another:
// a change made there shows up here within a second, without a restart.
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationRemoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// Prints a line with every control and invisible character escaped: values come from files other people edit.
func say(_ line: String) {
    let shown = line.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }
    let bytes = Array((shown.joined(separator: "\n") + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
        if count < 0, errno == EINTR { continue }
        // Nobody reads any more (a closed pipe) or the output cannot be written: stop quietly.
        if count <= 0 { exit(errno == EPIPE ? 141 : 4) }
        written += count
    }
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("config-demo: \(VisibleText.escaped(message))\n".utf8))
    exit(status)
}

signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
    say(
        """
        usage: config-demo [--store FILE|URL] [--etcd-ca-file FILE] [--poll] [--report-lifetime SECONDS]
                           [--program-version VERSION]
                           [--server-url URL [--sync-interval SECONDS]
                            [--targeting-key ID] [--context KEY=VALUE]...]
                           [-configOverride KEY=VALUE]...

        Reads the demo's keys through ServiceConfiguration and prints a line whenever an effective value
        changes, and when its store or its server stops answering and when it works again. It shares its override store with config-menu (same default location, or --store FILE, or
        $CONFIG_OVERRIDES_STORE, or $CONFIG_OVERRIDES_FILE), so changes made in the menu or with
        `config-menu set` appear here live.

        What it read is published beside the store (programs/config-demo-PID-ID.json; on an etcd
        store, the key PREFIX.programs/config-demo-PID-ID on a lease) for `config-menu coverage`
        and the menu: the start screen's keys are read at start, the profile
        screen's only when you press Enter, and one key (function.lab.welcome_banner.enabled) comes
        from a scope deliberately left out of the catalog, so it shows as unregistered. Ctrl-C or
        SIGTERM ends the report (the tools then say "ended"; a killed demo's report says "stale").

          --store FILE              the override store (default: as config-menu)
          --store etcd://HOST:PORT/PREFIX
                                    overrides shared through etcd by every machine that reaches it
                                    (etcds:// for HTTPS); anything else that looks like a URL
                                    (etcd:/x, etc://...) is refused
          --etcd-ca-file FILE       for etcds://: trust the certificate authorities in FILE (PEM)
                                    instead of the system's, as $CONFIG_ETCD_CA_FILE does
          --poll                    notice changes by polling the file every 250 ms instead of inotify
          --program-version VERSION the version the demo runs as (8.2; numbers and dots): its
                                    report and its run in the store's run history name it, for
                                    `config-menu coverage --runs --since VERSION`
          --report-lifetime SECONDS on an etcd store: how long the report outlives a demo killed
                                    without ending it (its lease; default 30)
          --server-url URL          sync the server values from URL (a JSON object of key names to
                                    strings, or etcd://HOST:PORT/PREFIX: one key per value, watched)
                                    instead of using the demo's built-in ones; the last
                                    values are kept in server-snapshot.json beside the store, where
                                    config-menu shows them
                                    or from an OpenFeature server: ofrep://HOST:PORT[/BASE] (OFREP
                                    bulk evaluation over HTTP; ofreps:// over TLS)
          --sync-interval SECONDS   sync every SECONDS (default: at start only)
          --targeting-key ID        with ofrep://: who the flags are evaluated for (targetingKey)
          --context KEY=VALUE       with ofrep://: an attribute of the evaluation context
                                    (country=JP, osVersion=18.2); repeatable

        overrides at launch, for this run only (as a UI test starts an app; never written to the store):
          -configOverride KEY=VALUE a launch override (VALUE is a wire string, everything after the
                                    first =); repeatable, every occurrence counts, the later wins for
                                    one key
          $CONFIG_OVERRIDES_JSON    a JSON object of key names to wire strings, for example
                                    {"function.album.like.enabled": "Y"} (values must be strings)
          $CONFIG_SCENARIO          the name of a saved scenario: scenarios/NAME.json beside the store
                                    (the menu's scenarios view, s)
        -configOverride wins over $CONFIG_OVERRIDES_JSON, which wins over $CONFIG_SCENARIO. In this
        run a launch override wins over the store's override of its key, which wins over the server
        value, which wins over the default: `config-menu set` of such a key changes nothing here
        until the demo is started again without it. At start the demo prints each one it applied
        ("launch override KEY = "VALUE" (FROM)"); an unknown key (with the nearest names) or a value
        the key refuses is not applied and is reported on standard error. Its report beside the store
        lists them ("launchOverrides"), so config-menu get and the menu show them (source LAUNCH).

        exit codes: 0 stopped normally, 2 usage error (also a malformed -configOverride or
                    $CONFIG_OVERRIDES_JSON, a $CONFIG_SCENARIO that does not exist), 4 the store
                    cannot be used (a folder, another user's file, ...), 141 standard output was closed
        """
    )
    exit(0)
}
var storePath: String?
if let index = arguments.firstIndex(of: "--store") {
    guard index + 1 < arguments.count else { fail("--store needs a file", status: 2) }
    storePath = arguments[index + 1]
    guard storePath != "" else {
        fail("--store needs a file name, got an empty string (is a variable unset?)", status: 2)
    }
}
/// Where etcd stores and sources read their settings: this process's environment, with `--etcd-ca-file`.
let etcdEnvironment: [String: String] = {
    var environment = ProcessInfo.processInfo.environment
    guard let file = DemoServerSync.value(of: "--etcd-ca-file", in: arguments) else { return environment }
    guard !file.isEmpty, FileManager.default.isReadableFile(atPath: file) else {
        fail("--etcd-ca-file needs a readable PEM file, got \"\(file)\"", status: 2)
    }
    environment[EtcdEndpoint.certificateAuthorityVariable] = file
    return environment
}()
// A file, overrides shared through etcd (`--store etcd://HOST:PORT/PREFIX`), or a config-menu serve's store
// (`--store http://HOST:PORT`), or $CONFIG_OVERRIDES_STORE. A location that looks like a URL but is not one of these
// is a usage error, never a local file.
let store: any OverrideStore
do {
    store =
        try storePath.map { path in
            if let problem = OverrideStores.problem(withLocation: path) {
                fail("--store \(path) \(problem)", status: 2)
            }
            return OverrideStores.isRemote(path)
                ? try OverrideStores.store(for: path, environment: etcdEnvironment)
                : FileOverrideStore(url: URL(fileURLWithPath: path))
        } ?? OverrideStores.defaultStore(appName: DemoConfiguration.appName, environment: etcdEnvironment)
} catch {
    fail("\(error)", status: 2)
}
let catalog = try DemoConfiguration.makeCatalog()

/// The overrides of this run (`-configOverride KEY=VALUE`, $CONFIG_OVERRIDES_JSON, $CONFIG_SCENARIO), the scenario
/// read from a file store; a malformed one, or a scenario that does not exist, is a usage error naming it.
let launchOverrides: ConfigurationLaunchOverrides = {
    do {
        let launch = try ConfigurationLaunchOverrides(
            arguments: arguments, environment: ProcessInfo.processInfo.environment)
        // Other stores keep no scenarios: the service reports that as a warning.
        return try (store as? FileOverrideStore)?.resolvingLaunchScenario(launch) ?? launch
    } catch {
        fail("\(error)", status: 2)
    }
}()

/// The service's options: the defaults, with `--report-lifetime` and the launch overrides.
func demoOptions() -> LiveConfigurationService.Options {
    var options = LiveConfigurationService.Options()
    options.launchOverrides = launchOverrides
    if let text = DemoServerSync.value(of: "--report-lifetime", in: arguments) {
        guard let seconds = Int(text), seconds > 0 else {
            DemoServerSync.usage("--report-lifetime needs a whole number of seconds above 0, got \(text)")
        }
        options.programReportLifetime = .seconds(seconds)
    }
    return options
}
/// `--program-version`: the version the demo says it runs as.
let programVersion: ProgramVersion? = DemoServerSync.value(of: "--program-version", in: arguments).map { text in
    guard let version = ProgramVersion(text) else {
        DemoServerSync.usage(
            "--program-version needs a version like 8.2 (numbers and dots), got \"\(VisibleText.escaped(text))\"")
    }
    return version
}
let service = LiveConfigurationService(
    serverValues: DemoServerSync.url(in: arguments) == nil ? DemoConfiguration.serverValues : [:],
    catalog: catalog,
    overrideStore: store,
    watchMode: arguments.contains("--poll") ? .polling(interval: .milliseconds(250)) : .automatic,
    overridePolicy: .allBuilds,  // a debug tool: overrides are its purpose, in a release build too
    options: demoOptions(),
    programVersion: programVersion
)
if let problem = store.lastError {
    // etcd or a served store out of reach is no reason to stop: the store's watch connects when it is back.
    guard problem.kind == .corrupt || store is EtcdOverrideStore || store is HTTPOverrideStore else {
        fail("\(problem)", status: 4)
    }
    say("warning: \(problem)")
}
let notApplied = store.problems.filter { !$0.isApplied }
if !notApplied.isEmpty {
    say("warning: \(notApplied.count) stored override\(notApplied.count == 1 ? " is" : "s are") not applied:")
    for problem in notApplied { say("  \(problem)") }
}

func describe(_ name: String) -> String {
    guard let resolution = service.resolution(forKeyNamed: name) else { return "(unknown key)" }
    var text = "\(resolution.value ?? "—") (\(resolution.source))"
    if let rejection = resolution.rejections.first { text += "; \(rejection)" }
    return text
}

// Listening, and the values as they are, before the sync starts: its first change (which a nearby server delivers
// in milliseconds) must not go unseen.
let changes = service.changedKeyNames()
var shown = Dictionary(uniqueKeysWithValues: catalog.keys.map { ($0.name, describe($0.name)) })
say("config-demo: watching \(store.location) (Ctrl-C stops)")
for name in service.launchOverrides.keys.sorted() {
    let from = launchOverrides.origins[name].map { " (\($0))" } ?? ""
    say("launch override \(name) = \"\(service.launchOverrides[name] ?? "")\"\(from): this run only, over the store")
}
// Kept for the life of the program: the sync runs while it is referenced.
let serverSync = DemoServerSync.start(
    arguments: arguments, environment: etcdEnvironment, service: service, catalog: catalog, say: say)
let signalSources = DemoScreens.endReportOnSignals(service, say: say)
let storeHealth = DemoStoreHealth.start(store, say: say)
for line in DemoScreens.start(service) { say("  " + line) }
say("")
say("press Enter to open the profile screen (it reads 3 more keys); `config-menu coverage` shows what was read")
say("")
DemoScreens.openProfileOnEnter(service, say: say)

let clock = DateFormatter()
clock.dateFormat = "HH:mm:ss"
for await names in changes {
    for name in names.sorted() {
        let now = describe(name)
        say("\(clock.string(from: Date())) \(name): \(shown[name] ?? "—") -> \(now)")
        shown[name] = now
    }
    for line in DemoScreens.start(service) { say("  " + line) }
}
