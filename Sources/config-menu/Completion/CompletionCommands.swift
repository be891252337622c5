import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationFileStore

/// `config-menu completion SHELL` (prints a script) and the hidden `config-menu __complete WHAT ...` the scripts call
/// back for the words that depend on the catalog or the machine.
struct CompletionCommands {
    let invocation: Invocation

    /// The hidden command the scripts call; not listed in the help.
    static let hiddenCommand = "__complete"

    /// `config-menu completion bash|zsh|fish`.
    func completion() throws {
        try invocation.check(allowed: [])
        guard invocation.positional.count == 1 else {
            throw ToolError.usage("completion takes one shell: bash, zsh or fish", command: "completion")
        }
        let shell = invocation.positional[0]
        guard let script = CompletionScript.script(for: shell) else {
            throw ToolError.usage(
                "no completion for \"\(shell)\"; shells: \(CompletionScript.shells.joined(separator: ", "))",
                command: "completion")
        }
        try Output.data(Array(script.utf8))
    }

    /// `config-menu __complete WHAT [catalog options] -- [KEY] PREFIX`: the words of WHAT (`keys`, `scopes`, `values`
    /// of KEY, `devices`, `apps`) that start with PREFIX, one per line. Prints nothing it cannot find (a script must
    /// never show an error in the middle of a command line); messages go to standard error.
    func complete() throws {
        guard let what = invocation.positional.first else { return }
        let rest = Array(invocation.positional.dropFirst())
        let prefix = rest.last ?? ""
        var words: [String] = []
        switch what {
        case "keys":
            words = try ToolContext(Self.catalogOnly(invocation)).catalog.keys.map(\.name)
        case "scopes":
            words = try ToolContext(Self.catalogOnly(invocation)).catalog.scopes.map(\.name)
        case "values":
            guard rest.count == 2 else { return }
            let catalog = try ToolContext(Self.catalogOnly(invocation)).catalog
            guard let descriptor = catalog.descriptor(named: rest[0]) else { return }
            words = Self.values(of: descriptor)
        case "devices":
            words = (try? Simctl().devices().filter(\.isBooted).map(\.udid)) ?? []
        case "apps":
            guard let simctl = try? Simctl(), let devices = try? simctl.devices().filter(\.isBooted) else { return }
            words = devices.flatMap { device in
                ((try? simctl.apps(on: device)) ?? []).filter { $0.type == "User" }.map(\.bundleID)
            }
        default:
            return
        }
        // Only words a terminal shows as they are: nothing VisibleText would escape (control and invisible
        // characters), so a hostile manifest cannot put an escape sequence on the command line.
        let shown = Set(words).filter { $0.hasPrefix(prefix) && !VisibleText.needsEscaping($0) }
        guard !shown.isEmpty else { return }
        try Output.data(Array((shown.sorted().joined(separator: "\n") + "\n").utf8))
    }

    /// The words a key's value can be: a toggle's two strings, a picker's enabled choices; none for free text.
    static func values(of descriptor: ConfigurationKeyDescriptor) -> [String] {
        switch descriptor.control {
        case .toggle: [descriptor.toggleStrings.on, descriptor.toggleStrings.off]
        case .picker(let choices): choices.filter { $0.isEnabled != false }.map(\.value)
        default: []
        }
    }

    /// The invocation with only the options that choose the catalog (never the store: completing must not touch a
    /// store or a simulator).
    static func catalogOnly(_ invocation: Invocation) -> Invocation {
        var only = invocation
        let kept = Set(CompletionModel.current.catalogOptions)
        only.options = invocation.options.filter { kept.contains($0.key) }
        only.flags = []
        return only
    }
}
