/// The `--help` texts: the overview, and one per command.
enum Help {
    static let sources = """
        catalog and values (every command):
          --manifest FILE         the catalog of another program, from its manifest (see `catalog`);
                                  default: the built-in demo catalog. get, set, list SCOPE,
                                  reset KEY...|--scope and history KEY read only their keys of it
          --server-values FILE    the program's last server values, a JSON object of key names to
                                  strings; default: the demo's (none with --manifest)
          --store FILE            the override store file (a link is followed to its target);
                                  default: $CONFIG_OVERRIDES_STORE, else $CONFIG_OVERRIDES_FILE, else
                                  $XDG_STATE_HOME/service-configuration-demo/overrides.json, else
                                  ~/.local/state/service-configuration-demo/overrides.json (on macOS,
                                  ~/Library/Application Support/service-configuration-demo/overrides.json)
          --store etcd://HOST:PORT/PREFIX
                                  overrides shared through etcd, one key per override under PREFIX
                                  (etcds:// for HTTPS; etcd://USER:PASSWORD@HOST... or
                                  $CONFIG_ETCD_USER=USER:PASSWORD when etcd has authentication on);
          --store http://HOST:PORT
                                  the store a `config-menu serve` serves (https:// through a TLS
                                  proxy); its token from $CONFIG_OVERRIDES_TOKEN
                                  anything else that looks like a URL (etcd:/x, etc://...) is refused
          --etcd-ca-file FILE     for etcds://: trust the certificate authorities in FILE (PEM; etcd's
                                  CA, or its self-signed certificate) instead of the system's, as
                                  $CONFIG_ETCD_CA_FILE does; the certificate is always checked
        \(simulatorOptions)
          --synthetic-keys N      a made-up catalog of N keys (scale testing), in N/100 scopes
          --synthetic-scopes M    ... or in M scopes
        """

    static let exitCodes = """
        exit codes: 0 success, 1 failure (for example no usable terminal), 2 usage error,
                    3 invalid value or unknown key, text that is not UTF-8, or a change past the
                    store's limits (key name 1 KiB, value 1 MiB, note 4 KiB, file 8 MiB),
                    4 I/O failure (store, manifest or values file; a store that is a folder, cannot
                    be read, is read-only or whose lock is held over 5 s; output that cannot be
                    written; a failed sync; a change etcd did not answer, whose outcome is unknown),
                    141 standard output was closed by its reader (stops quietly)
        """

    static let overview = """
        usage: config-menu [options]                 open the debug menu (needs a terminal)
               config-menu COMMAND [arguments]       work without a terminal

        commands:
          list [SCOPE] [--overridden] [--problems] [--json]
                                  every key with its value and where it comes from
          get KEY [--json]        one key: value, source, default, server value, override, problems
          set KEY VALUE [--note TEXT]
                                  override a key (validated by the key's own decoding)
          reset KEY... | --scope SCOPE | --all
                                  remove overrides
          export [FILE]           write the overrides as a profile (to standard output without FILE)
          import FILE [--replace] [--dry-run] [--force] [--json]
                                  read a profile into the store, reporting problems first
          catalog                 print the catalog as a JSON manifest
        \(historyOverview)
        \(atOverview)
          sync [--server-url URL] [--json]
                                  fetch the server values once and print what changed
          status [--json]         where server values come from, how current, the last error
          coverage [--json] [--require-read] [--runs [--since VERSION|DATE] [--require-both [KEY...]]]
                                  which keys the running program read, never read, read unregistered;
                                  with --runs, across the kept runs: the values each key was read with
          audit [--json] [--fail-past-due] [--due-within DAYS] [--older-than DAYS] [--last-runs N]
                                  keys past their removal or due soon, keys without an owner, and
                                  overrides to clean up (old, redundant, unread, orphaned)
          serve [--listen ADDR:PORT] [--token-file FILE]
                                  serve the effective values over OFREP to any OpenFeature client,
                                  with a change stream
          simulators [--json]     booted iOS simulators and the apps on them that have a store
          completion bash|zsh|fish
                                  print a shell completion script
          help [COMMAND]          show help

        menu options:
          --no-mouse              ignore the mouse
          --profiles DIR          the scenarios (profiles) the menu lists; default: the folder
                                  scenarios beside the store

        expiry (every command):
          --program-version V     judge overrides set "until version" as if the program ran V

        \(serverOptions)

        \(sources)

        environment: NO_COLOR turns colours off; VISUAL or EDITOR edits JSON and text values in the menu.

        \(exitCodes)

        `config-menu COMMAND --help` shows a command's help.
        """

    static let commands: [String: String] = baseCommands.merging(syncCommands) { $1 }
        .merging(historyCommands) { $1 }
        .merging(simulatorCommands) { $1 }.merging(completionCommands) { $1 }
        .merging(coverageCommands) { $1 }.merging(serveCommands) { $1 }
        .merging(atCommands) { $1 }

    static let baseCommands: [String: String] = [
        "list": """
        usage: config-menu list [SCOPE] [--overridden] [--problems] [--json]

        Every key of the catalog (or of SCOPE) with its value, its source (OVERRIDDEN, SERVER,
        DEFAULT) and flags: ! a rejected value, ~ a stale override, ? an orphaned override,
        ⊘ an expired override (not applied), ◷ one that will expire, = an override equal to
        the server value, » a running program was launched with its own value of the key
        (-configOverride, CONFIG_OVERRIDES_JSON, CONFIG_SCENARIO: source LAUNCH in that program
        until it ends, whatever the store says).
        Orphaned overrides (keys not in the catalog) are listed last when no SCOPE is given.

          --overridden            only keys with an override
          --problems              only keys with a rejected value, a stale override, an override a
                                  running program refused, or a stored entry that is not applied or
                                  has an unreadable field (* flag), and orphans
          --json                  a JSON array; each element has: name, scope, title, type, control,
                                  value, source (overridden|server|default), default, server,
                                  override ({value, setAt, serverValueWhenSet, note} or null),
                                  rejections ([{source, value, reason}]), rejectedByPrograms
                                  ([{program, pid, status, reason}]), launchOverrides (running
                                  programs launched with their own value: [{program, pid,
                                  status, value}]), stale, orphan,
                                  storeProblems ([{field, reason, stored, applied}]),
                                  expiresAt (or null), expiry ({expiresAt, untilServerChanges,
                                  untilVersion} or null), expired, expiredBecause (time,
                                  serverChanged, version, or null), redundant, owner, ticket,
                                  removeBy ({date} or {version} or null)

        A store that is not the format at all is reported and nothing from it applies: the list
        shows values without overrides, and the exit code is 4. The file is left as it is.

        \(sources)

        \(exitCodes)
        """,
        "get": """
        usage: config-menu get KEY [--json]

        One key in full: value and source, default, server value (and why it was rejected),
        override (when it was set, its note, and whether it is stale), and each running program
        launched with its own value (a line `launch "Y"  LAUNCH in config-demo (pid 4242,
        running) until it ends`: a change made here reaches that program only after it ends).

          --json                  one JSON object, shaped as in `list --json`

        \(sources)

        \(exitCodes)
        """,
        "set": """
        usage: config-menu set KEY VALUE [--note TEXT] [--for DURATION] [--until-server-changes]
                                         [--until-version VERSION]

        Overrides KEY with VALUE (a wire string, as the server would send it). The value is checked
        with the key's own decoding first, for example:
          config-menu set function.album.like.enabled yes
          config-menu: function.album.like.enabled expects Y or N, got "yes"      (exit code 3)
        An unknown key is refused with the nearest names. Safe to run while the menu and the
        program have the store open. A store that is not the format at all is moved aside first
        (overrides.json.corrupt-TIMESTAMP; the 5 newest copies are kept) and the message says where.

          --note TEXT             a note kept with the override (at most 4 KiB)
          --for DURATION          the override expires after DURATION: 30m, 2h, 1h30m, 3d, 1w
                                  (stored as the time it expires)
          --until-server-changes  it expires when the server sends another value for KEY than now
          --until-version VERSION it expires in a program that runs VERSION or later (14.2; compared
                                  number by number)
        An expired override stops applying at once in a running program, stays in the store (shown
        as expired) until `config-menu prune` removes it. The rules combine (the first one met
        wins); setting a rule again on the same value restarts it from now.

        \(sources)

        \(exitCodes)
        """,
        "reset": """
        usage: config-menu reset KEY...
               config-menu reset --scope SCOPE
               config-menu reset --all

        Removes the override of each KEY, of every key in SCOPE, or every override (orphans
        included). Several keys are removed in one change; an unknown key removes nothing.
        An entry of the store that is not applied (quarantined: see list --problems) is an
        override too: resetting its key removes it from the file.

        \(sources)

        \(exitCodes)
        """,
        "export": """
        usage: config-menu export [FILE]

        Writes the overrides as a profile in the store's format (to standard output without FILE),
        for example to keep a QA scenario or share it. A regular FILE (or the target of a link) is
        replaced atomically; a device, FIFO or /dev/stdout is written through; a missing folder is
        refused. A store that cannot be read is refused (exit 4) rather than exported as empty.

        \(sources)

        \(exitCodes)
        """,
        "import": """
        usage: config-menu import FILE [--replace] [--dry-run] [--force] [--yes] [--json]

        Reads a profile (the store's format, or a plain JSON object of key names to wire strings)
        and reports what it adds, changes, leaves unchanged and (with --replace) removes, with the
        values (as `diff` does), and which keys are unknown or values invalid, before writing
        anything. In a terminal it then asks (answering no exits 1); without a terminal, or with
        --json, it does not ask.

          --replace               the store ends up with exactly the profile's overrides
                                  (default: merge, keeping other overrides)
          --dry-run               report only; fails as the import would (exit 3 for problems
                                  without --force, or a result past the store's limits)
          --yes                   do not ask
          --force                 import even with unknown keys (kept as orphans) or invalid values
                                  (kept, not applied); without it such a profile is refused (exit 3)
          --json                  the report as JSON: mode, added, changed, removed, unchanged,
                                  kept, unknownKeys, invalidValues ([{key, value, reason}])

        \(sources)

        \(exitCodes)
        """,
        "catalog": """
        usage: config-menu catalog

        Prints the catalog as a JSON manifest (format "service-configuration-manifest", version 1):
        scopes, and for each key its name, title, type, default, control (toggle, picker with
        choices, number, text, json) and summary. `config-menu --manifest FILE` opens the menu, and
        runs every command, on such a manifest without linking the program.

        \(sources)

        \(exitCodes)
        """,
    ]
}
