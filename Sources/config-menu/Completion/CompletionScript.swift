/// The completion scripts `config-menu completion SHELL` prints, generated from a ``CompletionModel``.
///
/// The scripts hold the commands and options; for the words that depend on the catalog or the machine (key names,
/// scope names, a key's values, simulator devices and apps) they call back `config-menu __complete WHAT`, passing
/// the catalog options of the command line (`--manifest FILE`, ...), so `config-menu set function.al<Tab>`
/// completes from the catalog the command would use.
enum CompletionScript {
    /// The shells there is a script for.
    static let shells = ["bash", "fish", "zsh"]

    /// The script for `shell`, or `nil` for a shell there is none for.
    static func script(for shell: String, model: CompletionModel = .current) -> String? {
        switch shell {
        case "bash": bash(model)
        case "zsh": zsh(model)
        case "fish": fish(model)
        default: nil
        }
    }

    /// `words` joined by spaces (every word here comes from the tool's own tables: no quoting is needed).
    static func list(_ words: [String]) -> String { words.joined(separator: " ") }

    /// A shell `case` pattern matching any of `words` (`--a|--b`); a pattern that matches nothing when empty.
    static func pattern(_ words: [String]) -> String {
        words.isEmpty ? "__config_menu_none__" : words.joined(separator: "|")
    }

    /// The `__complete` word for a dynamic kind.
    static func what(_ kind: CompletionModel.ValueKind) -> String {
        switch kind {
        case .key: "keys"
        case .value: "values"
        case .scope: "scopes"
        case .device: "devices"
        case .app: "apps"
        default: ""
        }
    }
}
