import ConfigurationDebugMenu
import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore
import ServiceConfigurationRemoteStore

/// Exit codes, documented in `config-menu --help` and the README.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
    case invalidValue = 3
    case ioFailure = 4
    /// Standard output was closed by its reader (`config-menu list | head -1`): the tool stops quietly with the
    /// status a shell reports for a program stopped by SIGPIPE, as `cat` or `grep` would.
    case brokenPipe = 141
}

/// A failure with its exit code; the message goes to standard error.
struct ToolError: Error, CustomStringConvertible {
    var code: ExitCode
    var description: String

    /// A usage error pointing at the relevant help.
    static func usage(_ message: String, command: String? = nil) -> ToolError {
        let hint = command.map { "config-menu \($0) --help" } ?? "config-menu --help"
        return ToolError(code: .usage, description: "\(message) (see \(hint))")
    }
}

/// The parsed command line: global options, the subcommand, its arguments and options.
struct Invocation {
    var command: String?
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of an option that may be repeated (``repeatable``), in order; ``options`` holds the last.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []
    /// Positional arguments (by position) and options (by name) whose bytes were not valid UTF-8 on the command line;
    /// Swift's `CommandLine.arguments` silently turned the bad bytes into U+FFFD.
    var malformedPositional: Set<Int> = []
    var malformedOptions: Set<String> = []
    /// The folder the store (and every file beside it) must stay inside, following no symbolic link in it: the
    /// simulator app's data container with `--simulator` (see `SimulatorStore`); `nil` otherwise.
    var confinement: URL?

    /// Options that take a value.
    static let valued: Set<String> = [
        "--store", "--manifest", "--server-values", "--synthetic-keys", "--synthetic-scopes", "--note", "--scope",
        "--server-url", "--sync-interval", "--for", "--until-version", "--program-version", "--profiles", "--limit",
        "--etcd-ca-file", "--simulator", "--device", "--app-name",  // SimulatorStore.options
        "--context", "--targeting-key", "--listen", "--token-file", "--due-within", "--older-than", "--since",
        "--last-runs",
    ]
    /// Valued options that may be given more than once.
    static let repeatable: Set<String> = ["--context"]
    /// Options every command accepts.
    static let global: Set<String> = [
        "--store", "--manifest", "--server-values", "--synthetic-keys", "--synthetic-scopes", "--help",
        "--server-url", "--sync-interval", "--program-version", "--etcd-ca-file",
        "--simulator", "--device", "--app-name",  // SimulatorStore.options
        "--context", "--targeting-key",
    ]

    /// Parses `arguments`; `malformed` holds the indices of arguments that were not valid UTF-8.
    init(_ arguments: [String], malformed: Set<Int> = []) throws {
        var remaining = arguments.enumerated()[...]
        var optionsEnded = false
        while let (index, argument) = remaining.popFirst() {
            if !optionsEnded, argument == "--" {
                optionsEnded = true
            } else if !optionsEnded, argument == "-h" {
                flags.insert("--help")
            } else if !optionsEnded, argument.hasPrefix("--") {
                var name = argument
                var value: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    value = String(argument[argument.index(after: equals)...])
                }
                if Self.valued.contains(name) {
                    var given = value
                    var givenIndex = index
                    if given == nil, let next = remaining.popFirst() {
                        (givenIndex, given) = next
                    }
                    guard let given else { throw ToolError.usage("\(name) needs a value") }
                    options[name] = given
                    if Self.repeatable.contains(name) { repeated[name, default: []].append(given) }
                    if malformed.contains(givenIndex) { malformedOptions.insert(name) }
                } else {
                    guard value == nil else { throw ToolError.usage("\(name) takes no value") }
                    flags.insert(name)
                }
            } else if command == nil {
                command = argument
            } else {
                if malformed.contains(index) { malformedPositional.insert(positional.count) }
                positional.append(argument)
            }
        }
    }

    /// Refuses (exit 3) positional arguments and option values that were not valid UTF-8: they would otherwise be
    /// stored with U+FFFD in place of the bytes given.
    func requireValidUTF8() throws {
        if let position = malformedPositional.min() {
            throw ToolError(
                code: .invalidValue,
                description:
                    "argument \(position + 1) (\"\(positional[position])\") is not valid UTF-8; nothing was changed")
        }
        if let name = malformedOptions.sorted().first {
            throw ToolError(
                code: .invalidValue, description: "the value of \(name) is not valid UTF-8; nothing was changed")
        }
    }

    /// Refuses options the command does not take.
    func check(allowed: Set<String>) throws {
        for option in Set(options.keys).union(flags).sorted()
        where !allowed.contains(option) && !Self.global.contains(option) {
            throw ToolError.usage("\(command ?? "the menu") does not take \(option)", command: command)
        }
    }
}

enum CommandLineTool {
    /// Runs the tool; `malformed` holds the indices of arguments whose bytes were not valid UTF-8.
    static func main(_ arguments: [String], malformed: Set<Int> = []) -> Int32 {
        do {
            try run(try Invocation(arguments, malformed: malformed))
            return ExitCode.success.rawValue
        } catch is Output.BrokenPipe {
            return ExitCode.brokenPipe.rawValue
        } catch {
            report(message(for: error))
            return exitCode(for: error).rawValue
        }
    }

    /// The documented exit code for an error.
    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case is Output.BrokenPipe: .brokenPipe
        case let error as ToolError: error.code
        case is TerminalUnavailable: .failure
        case let error as ConfigurationError:
            switch error {
            case .invalidValue, .unknownKey, .unencodableValue: .invalidValue
            default: .failure
            }
        case let error as OverrideStoreError: error.kind == .limitExceeded ? .invalidValue : .ioFailure
        case is ConfigurationManifestError: .ioFailure
        default: .failure
        }
    }

    /// The message for an error, for standard error.
    static func message(for error: any Error) -> String {
        String(describing: error)
    }

    /// A message on standard error, with every control character escaped.
    static func report(_ message: String) {
        Output.message(message)
    }

    static func run(_ invocation: Invocation) throws {
        guard let command = invocation.command else {
            if invocation.flags.contains("--help") { return try Output.line(Help.overview) }
            try invocation.check(allowed: ["--no-mouse", "--profiles"])
            return try openMenu(SimulatorStore.resolve(invocation))
        }
        if command == CompletionCommands.hiddenCommand {
            return try CompletionCommands(invocation: invocation).complete()
        }
        if command == "help" {
            guard let topic = invocation.positional.first else { return try Output.line(Help.overview) }
            guard let text = Help.commands[topic] else { throw ToolError.usage("no help for \"\(topic)\"") }
            return try Output.line(text)
        }
        guard let help = Help.commands[command] else {
            let suggestion = NameSuggestions.nearest(to: command, in: Help.commands.keys, limit: 1).first
            throw ToolError.usage("unknown command \"\(command)\"" + (suggestion.map { "; did you mean \($0)?" } ?? ""))
        }
        if invocation.flags.contains("--help") { return try Output.line(help) }
        // --simulator BUNDLE_ID becomes --store <the app's store in the simulator> (not for `simulators` itself).
        let invocation = command == "simulators" ? invocation : try SimulatorStore.resolve(invocation)
        try Commands.checkShape(of: invocation)
        let commands = Commands(invocation: invocation)
        switch command {
        case "list": try commands.list()
        case "get": try commands.get()
        case "set": try commands.set()
        case "reset": try commands.reset()
        case "export": try commands.export()
        case "import": try commands.importProfile()
        case "catalog": try commands.catalog()
        case "sync": try SyncCommands(invocation: invocation).sync()
        case "status": try SyncCommands(invocation: invocation).status()
        case "history": try HistoryCommands(invocation: invocation).history()
        case "undo": try HistoryCommands(invocation: invocation).undo()
        case "redo": try HistoryCommands(invocation: invocation).redo()
        case "prune": try HistoryCommands(invocation: invocation).prune()
        case "diff": try HistoryCommands(invocation: invocation).diff()
        case "simulators": try SimulatorCommands(invocation: invocation).simulators()
        case "completion": try CompletionCommands(invocation: invocation).completion()
        case "coverage": try CoverageCommand(invocation: invocation).run()
        case "audit": try AuditCommand(invocation: invocation).run()
        case "serve": try ServeCommand(invocation: invocation).run()
        case "at": try AtCommand(invocation: invocation).run()
        default: throw ToolError.usage("unknown command \"\(command)\"")
        }
    }

    static func openMenu(_ invocation: Invocation) throws {
        let context = try ToolContext(invocation, watch: true)
        try ConfigurationDebugMenu(
            catalog: context.catalog,
            service: context.service,
            serverSync: try ServerOptions.menuSync(invocation, service: context.service, catalog: context.catalog),
            options: .init(
                mouse: !invocation.flags.contains("--no-mouse"), label: context.label,
                scenariosFolder: invocation.options["--profiles"].map { URL(fileURLWithPath: $0, isDirectory: true) })
        ).run()
    }
}

/// The catalog, server values, store and service the options select.
struct ToolContext {
    let catalog: ConfigurationCatalog
    let serverValues: [String: String]
    /// Why there are no server values from the `--server-url` given (none fetched yet), for the commands to say.
    let serverValuesNote: String?
    let store: any OverrideStore
    let service: LiveConfigurationService
    let label: String
    /// Why the server snapshot beside the store cannot be used (its values are then not shown), if so.
    let snapshotProblem: String?

    /// Reads the options' catalog, server values and store. A store that cannot be used at all (a folder, another
    /// user's file) throws; a corrupt one is left to the command (``failIfCorrupt()``, ``warnIfCorrupt()``);
    /// quarantined entries and unreadable fields are reported as warnings. The menu (`watch`) records its changes as
    /// the menu's, commands as the command line's. A command that reads or changes only some keys, or one scope's,
    /// names them with `selection`: its service then sees only their overrides (``KeyLimitedOverrideStore``), and
    /// its catalog holds only them when it comes from a manifest that has them
    /// (``ConfigurationCatalog/init(manifestAt:selecting:)``; a name the manifest lacks reads it whole, for the
    /// nearest names and orphans), so the command costs what those keys cost, however many the catalog and the store
    /// hold.
    init(_ invocation: Invocation, watch: Bool = false, selecting selection: ManifestSelection? = nil) throws {
        let store = try Self.store(invocation, origin: watch ? .menu : .cli)
        // A store file is read and parsed on a second thread while this one builds the catalog (at 100,000 overrides
        // each takes tens of milliseconds); the service's own first read then finds the file already read, as a
        // reload of an unchanged file reads nothing. Reading changes nothing on disk, and the store keeps what it
        // read exactly as the service's read would have. A command that applies every override (no selection: the
        // menu, `list`, `export`) has their entries made there too; one that names keys makes only theirs.
        let storeRead = DispatchGroup()
        if let file = store as? FileOverrideStore {
            DispatchQueue.global(qos: .userInitiated).async(group: storeRead) {
                file.reload()
                if selection == nil { _ = file.entries }
            }
        }
        defer { storeRead.wait() }
        var defaultServerValues: [String: String] = [:]
        if let manifest = invocation.options["--manifest"] {
            catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: manifest), selecting: selection)
            label = URL(fileURLWithPath: manifest).lastPathComponent
        } else if let keys = invocation.options["--synthetic-keys"] {
            let count = try Self.positive(keys, for: "--synthetic-keys")
            let scopes = try invocation.options["--synthetic-scopes"].map {
                try Self.positive($0, for: "--synthetic-scopes")
            }
            let synthetic = try DemoConfiguration.synthetic(keys: count, scopes: scopes ?? max(1, count / 100))
            catalog = synthetic.catalog
            defaultServerValues = synthetic.serverValues
            label = "synthetic catalog"
        } else {
            catalog = try DemoConfiguration.makeCatalog()
            defaultServerValues = DemoConfiguration.serverValues
            label = "demo catalog"
        }
        if let file = invocation.options["--server-values"] {
            serverValues = try Self.readServerValues(file)
            serverValuesNote = nil
            snapshotProblem = nil
        } else {
            let (values, note, problem) = try ServerOptions.initialServerValues(invocation)
            serverValues = values ?? defaultServerValues
            serverValuesNote = note
            snapshotProblem = problem
        }
        self.store = store
        storeRead.wait()
        service = LiveConfigurationService(
            serverValues: serverValues,
            catalog: catalog,
            overrideStore: Self.keys(selection, in: catalog).map { KeyLimitedOverrideStore(store, keys: $0) } ?? store,
            watchMode: watch ? .automatic : nil,
            overridePolicy: .allBuilds,  // the tool edits overrides, in a release build too
            // The tool is not the program under test: it publishes no read-coverage report of its own.
            options: .init(publishesProgramReport: false),
            programVersion: try ExpiryOptions.programVersion(invocation)
        )
        // One context serves one command, and the process ends with it: the service (and through it the catalog
        // and every override) is kept until then instead of being freed entry by entry first, which took 14–23% of
        // a `get` or `set` at 100,000 overrides (perf, BENCHMARKS.md).
        _ = Unmanaged.passRetained(service)
        if let error = store.lastError, error.kind != .corrupt { throw error }
        let problems = store.problems
        let notApplied = problems.filter { !$0.isApplied }
        if !notApplied.isEmpty {
            CommandLineTool.report(
                "warning: \(notApplied.count) override\(notApplied.count == 1 ? " is" : "s are") not applied (kept in "
                    + "\(store.location) as found; `config-menu list --problems` lists them): "
                    + notApplied.prefix(5).map { "\($0.key): \($0.reason)" }.joined(separator: "; ")
                    + (notApplied.count > 5 ? "; ..." : ""))
        }
        let unreadable = problems.filter(\.isApplied)
        if !unreadable.isEmpty {
            CommandLineTool.report(
                "warning: \(unreadable.count) override\(unreadable.count == 1 ? " has" : "s have") an unreadable field "
                    + "(the overrides apply; the fields are kept as found): "
                    + unreadable.prefix(5).map { "\($0.key): \($0.reason)" }.joined(separator: "; ")
                    + (unreadable.count > 5 ? "; ..." : ""))
        }
    }

    /// The names of the keys `selection` names (`nil`: every key, also for a scope `catalog` lacks).
    private static func keys(_ selection: ManifestSelection?, in catalog: ConfigurationCatalog) -> Set<String>? {
        switch selection {
        case .keys(let names): names
        case .scope(let name): scope(named: name, in: catalog).map { Set($0.keys.map(\.name)) }
        case nil: nil
        }
    }

    /// For a command that shows values: says on standard error when the `--server-url` given has no values yet.
    func noteServerValues() {
        if let serverValuesNote { CommandLineTool.report("note: \(serverValuesNote)") }
    }

    /// For a command that changes the store: warns about a corrupt store before the change (the change then moves
    /// it aside).
    func warnIfCorrupt() {
        if let error = store.lastError, error.kind == .corrupt { CommandLineTool.report("warning: \(error)") }
    }

    /// For a command that reads: after its output, a corrupt store or an unusable server snapshot is an error
    /// (exit 4), so a script notices that what it printed is without the store's overrides or the snapshot's server
    /// values (`showsServerValues`: the command's output shows them).
    func failIfCorrupt(showsServerValues: Bool = true) throws {
        let snapshot = (showsServerValues ? snapshotProblem : nil).map {
            "server snapshot refused: \($0); the output above shows no server values from it"
        }
        if let error = store.lastError, error.kind == .corrupt {
            if let snapshot { CommandLineTool.report(snapshot) }
            throw ToolError(
                code: .ioFailure,
                description: "\(error); the output above shows the values without any stored override")
        }
        if let snapshot { throw ToolError(code: .ioFailure, description: snapshot) }
    }

    /// After a change: says where a corrupt file the change replaced was moved.
    func reportMovedAside() {
        if let error = store.lastError, error.preservedAt != nil { CommandLineTool.report("warning: \(error)") }
        if let problem = (store as? FileOverrideStore)?.journalProblem {
            CommandLineTool.report("warning: history: \(VisibleText.escaped(problem))")
        }
    }

    static func positive(_ text: String, for option: String) throws -> Int {
        guard let value = Int(text), value > 0, value <= 10_000_000 else {
            throw ToolError.usage("\(option) needs a positive number, got \"\(text)\"")
        }
        return value
    }

    /// The catalog's scope named `name`, ignoring case; an unknown name lists the scopes.
    func scope(named name: String) throws -> ConfigurationCatalog.Scope {
        guard let scope = Self.scope(named: name, in: catalog) else {
            throw ToolError(
                code: .invalidValue,
                description: "unknown scope \"\(name)\"; scopes: \(catalog.scopes.map(\.name).joined(separator: ", "))"
            )
        }
        return scope
    }

    /// `catalog`'s scope named `name`, ignoring case.
    static func scope(named name: String, in catalog: ConfigurationCatalog) -> ConfigurationCatalog.Scope? {
        catalog.scopes.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The store the options select: `--store FILE`, `--store etcd://HOST:PORT/PREFIX` or `--store http://HOST:PORT`
    /// (a `config-menu serve`), else `$CONFIG_OVERRIDES_STORE`, else the default file. A URL that names no etcd
    /// prefix is a usage error. A file or etcd store records its changes in the history as made by `origin`, and a
    /// served store sends it with each change.
    static func store(_ invocation: Invocation, origin: OverrideChangeOrigin = .cli) throws -> any OverrideStore {
        guard let location = try storeLocation(invocation), OverrideStores.isRemote(location) else {
            return FileOverrideStore(
                url: try storeURL(invocation), faults: nil, origin: origin, confinedTo: invocation.confinement)
        }
        do {
            if OverrideStores.isHTTP(location), let url = URL(string: location) {
                return try HTTPOverrideStore(url: url, origin: origin)
            }
            return try OverrideStores.store(for: location, environment: try etcdEnvironment(invocation), origin: origin)
        } catch let error as OverrideStoreError {
            throw ToolError.usage(
                "\(invocation.options["--store"] == nil ? OverrideStores.environmentVariable : "--store"): \(error.problem)"
            )
        }
    }

    /// `--store` as given, else `$CONFIG_OVERRIDES_STORE`; `nil` for the default file. An empty `--store` is a usage
    /// error (an unset variable in a script), and so is a location that looks like a URL but is not an etcd one
    /// (`etcd:/app`, `etc://...`): it would otherwise quietly be a file in the current directory.
    static func storeLocation(_ invocation: Invocation) throws -> String? {
        _ = try etcdEnvironment(invocation)  // an --etcd-ca-file that cannot be read is a usage error, etcd or not
        if let location = invocation.options["--store"] {
            guard !location.isEmpty else {
                throw ToolError.usage(
                    "--store needs a file name, etcd://HOST:PORT/PREFIX or http://HOST:PORT, got an empty string (is a "
                        + "variable unset?)")
            }
            if let problem = OverrideStores.problem(withLocation: location) {
                throw ToolError.usage("--store \(VisibleText.escaped(location)) \(problem)")
            }
            return location
        }
        guard let location = ProcessInfo.processInfo.environment[OverrideStores.environmentVariable],
            !location.isEmpty
        else { return nil }
        if let problem = OverrideStores.problem(withLocation: location) {
            throw ToolError.usage(
                "\(OverrideStores.environmentVariable)=\(VisibleText.escaped(location)) \(problem)")
        }
        return OverrideStores.isRemote(location) ? location : (location as NSString).expandingTildeInPath
    }

    /// The environment an etcd store or source reads its settings from: this process's, with
    /// `CONFIG_ETCD_CA_FILE` set from `--etcd-ca-file FILE` when given (a file that cannot be read is a usage error).
    static func etcdEnvironment(_ invocation: Invocation) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        guard let file = invocation.options["--etcd-ca-file"] else { return environment }
        guard !file.isEmpty, FileManager.default.isReadableFile(atPath: file) else {
            throw ToolError.usage(
                "--etcd-ca-file needs a readable PEM file of the certificate authorities to trust, got "
                    + "\"\(VisibleText.escaped(file))\"")
        }
        environment[EtcdEndpoint.certificateAuthorityVariable] = file
        return environment
    }

    /// The store file (a folder is refused by the store itself: "this is a folder, not a file"). For an etcd store,
    /// the default file: its folder is where the tools keep the server snapshot.
    static func storeURL(_ invocation: Invocation) throws -> URL {
        guard let location = try storeLocation(invocation), !OverrideStores.isRemote(location) else {
            return FileOverrideStore.defaultURL(appName: DemoConfiguration.appName)
        }
        return URL(fileURLWithPath: location)
    }

    /// A JSON object of key names to wire strings, as the program last received them from its server.
    static func readServerValues(_ path: String) throws -> [String: String] {
        do {
            return try ServerValuesFile.read(from: URL(fileURLWithPath: path))
        } catch {
            throw ToolError(code: .ioFailure, description: error.description)
        }
    }
}
