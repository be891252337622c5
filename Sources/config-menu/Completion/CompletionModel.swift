import Foundation

/// What the shell completion scripts know about the tool: its commands, their options and arguments, and what each
/// option's value is. Generated from the tool's own tables — the help texts' usage lines (`Help.commands`), the
/// option tables (`Invocation.valued`, `Invocation.global`) and the command shapes (`Commands.shapes`) — so a
/// command or option added there completes without touching the scripts.
struct CompletionModel: Equatable {
    /// What a word stands for, from the metavariable the help text writes for it (`KEY`, `FILE`, ...).
    enum ValueKind: String, Equatable {
        /// Nothing to offer (free text: a note, a URL, a number).
        case none
        /// A file name (`FILE`).
        case file
        /// A key name of the catalog (`KEY`).
        case key
        /// A value of the key given just before (`VALUE`): a toggle's strings, a picker's choices.
        case value
        /// A scope name of the catalog (`SCOPE`).
        case scope
        /// A command name (`COMMAND`).
        case command
        /// A booted simulator device's UDID (`UDID`).
        case device
        /// The bundle ID of an app installed on a booted simulator (`BUNDLE_ID`).
        case app
        /// One of a fixed list written `a|b|c`.
        case choice

        /// The kind a metavariable stands for.
        init(metavariable: String) {
            switch metavariable {
            case "KEY": self = .key
            case "VALUE": self = .value
            case "SCOPE": self = .scope
            case "FILE": self = .file
            case "COMMAND": self = .command
            case "UDID": self = .device
            case "BUNDLE_ID": self = .app
            case "VERSION|DATE": self = .none  // free text, not two words to choose from
            default: self = metavariable.contains("|") ? .choice : .none
            }
        }

        /// Whether the scripts ask `config-menu __complete` for the words (they depend on the catalog or the
        /// machine).
        var isDynamic: Bool { [.key, .value, .scope, .device, .app].contains(self) }
    }

    /// A positional argument of a command.
    struct Argument: Equatable {
        var kind: ValueKind
        /// The words of a ``ValueKind/choice``.
        var choices: [String] = []
    }

    /// One command and what it takes.
    struct Command: Equatable {
        var name: String
        /// Its own options (the global ones aside), sorted.
        var options: [String]
        /// Its positional arguments, by position.
        var arguments: [Argument]
    }

    /// Every command, sorted by name (`help` included).
    var commands: [Command]
    /// The options every command takes, sorted.
    var globalOptions: [String]
    /// The options of the menu itself (no command), the global ones aside.
    var menuOptions: [String]
    /// The options that take a value, with what the value is, sorted by name.
    var valuedOptions: [(name: String, kind: ValueKind)]
    /// The global options that take a value and choose the catalog or its values (everything but the store and the
    /// simulator): the scripts pass them back to `__complete`, so keys come from the catalog the command line names.
    var catalogOptions: [String]

    static func == (a: CompletionModel, b: CompletionModel) -> Bool {
        a.commands == b.commands && a.globalOptions == b.globalOptions && a.menuOptions == b.menuOptions
            && a.valuedOptions.map(\.name) == b.valuedOptions.map(\.name)
            && a.valuedOptions.map(\.kind) == b.valuedOptions.map(\.kind) && a.catalogOptions == b.catalogOptions
    }

    /// The model of this build of the tool.
    static var current: CompletionModel {
        CompletionModel(
            help: Help.commands, overview: Help.overview, valued: Invocation.valued, global: Invocation.global,
            shapes: Commands.shapes.mapValues(\.options))
    }

    /// Builds the model from the tables; see the type's summary.
    init(
        help: [String: String], overview: String, valued: Set<String>, global: Set<String>,
        shapes: [String: Set<String>]
    ) {
        let allText = ([overview] + help.keys.sorted().map { help[$0]! }).joined(separator: "\n")
        var metavariables: [String: String] = [:]
        let words = Self.words(allText)
        for (word, next) in zip(words, words.dropFirst()) where word.hasPrefix("--") && Self.isMetavariable(next) {
            if metavariables[word] == nil { metavariables[word] = next }
        }
        valuedOptions = valued.sorted().map { ($0, ValueKind(metavariable: metavariables[$0] ?? "")) }
        globalOptions = global.sorted()
        catalogOptions = global.intersection(valued).subtracting(["--store", "--etcd-ca-file"])
            .subtracting(SimulatorStore.options)
            .sorted()
        menuOptions = Self.menuOptions(overview).filter { !global.contains($0) }

        var commands: [Command] = []
        for name in help.keys.sorted() {
            var options = shapes[name] ?? []
            var arguments: [Argument] = []
            for usage in Self.usageLines(help[name]!, command: name) {
                var position = 0
                var tokens = Self.words(usage)[...]
                while let token = tokens.popFirst() {
                    if token.hasPrefix("--") {
                        options.insert(token)
                        if valued.contains(token), let next = tokens.first, Self.isMetavariable(next) {
                            tokens.removeFirst()
                        }
                    } else if Self.isMetavariable(token) || token.contains("|") {
                        if position >= arguments.count {
                            let kind = ValueKind(metavariable: token)
                            let choices = kind == .choice ? token.split(separator: "|").map(String.init) : []
                            arguments.append(Argument(kind: kind, choices: choices))
                        }
                        position += 1
                    }
                }
            }
            commands.append(Command(name: name, options: options.subtracting(global).sorted(), arguments: arguments))
        }
        if !commands.contains(where: { $0.name == "help" }) {
            commands.append(Command(name: "help", options: [], arguments: [Argument(kind: .command)]))
        }
        self.commands = commands.sorted { $0.name < $1.name }
    }

    /// The kind of the value of `option`, or `nil` when it takes none.
    func valueKind(of option: String) -> ValueKind? {
        valuedOptions.first { $0.name == option }?.kind
    }

    // MARK: Reading the help texts

    /// The words of `text`, without the brackets, bars between forms, back quotes and commas around them.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map {
            $0.trimmingCharacters(in: ["[", "]", "`", ",", ";", "(", ")", ":"])
        }.filter { !$0.isEmpty && $0 != "|" && $0 != "..." }
    }

    /// `FILE`, `KEY`, `BUNDLE_ID`, `N`: upper-case letters, digits and underscores.
    static func isMetavariable(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return word.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The usage lines of a command's help: `usage: config-menu NAME ...` and the `config-menu NAME ...` lines that
    /// follow it, each without the `config-menu NAME` part.
    static func usageLines(_ text: String, command: String) -> [String] {
        var lines: [String] = []
        var inUsage = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("usage:") {
                inUsage = true
                trimmed = trimmed.dropFirst("usage:".count).trimmingCharacters(in: .whitespaces)
            }
            guard inUsage else { continue }
            let head = "config-menu \(command)"
            guard trimmed == head || trimmed.hasPrefix(head + " ") else {
                if trimmed.isEmpty { break }
                continue
            }
            lines.append(String(trimmed.dropFirst(head.count)))
        }
        return lines
    }

    /// The options listed under "menu options:" in the overview.
    static func menuOptions(_ overview: String) -> [String] {
        var options: [String] = []
        var inSection = false
        for line in overview.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "menu options:" {
                inSection = true
            } else if inSection {
                if trimmed.isEmpty { break }
                if let first = words(trimmed).first, first.hasPrefix("--") { options.append(first) }
            }
        }
        return options.sorted()
    }
}
