/// The `--help` text of `config-menu completion`.
extension Help {
    static let completionCommands: [String: String] = [
        "completion": """
        usage: config-menu completion bash|zsh|fish

        Prints a completion script for the shell: commands, options, file names, and the catalog's
        key names, scopes and values (`config-menu set function.al<Tab>`), which the script asks
        `config-menu` for as you type (from the catalog that --manifest and the like name).

          bash    source <(config-menu completion bash)                     (in ~/.bashrc), or
                  config-menu completion bash > ~/.local/share/bash-completion/completions/config-menu
          zsh     config-menu completion zsh > "${fpath[1]}/_config-menu"   (then a new shell), or
                  source <(config-menu completion zsh)                      (in ~/.zshrc, after compinit)
          fish    config-menu completion fish > ~/.config/fish/completions/config-menu.fish

        \(exitCodes)
        """
    ]
}
