/// The `--help` texts of `history`, `undo`, `redo`, `prune` and `diff`, and the overview's lines for them.
extension Help {
    static let historyOverview = """
          history [KEY] [--limit N] [--json]
                                  the recorded changes of the overrides (newest first): who, when, what
          undo [--yes] [--json]   undo the last change anyone made (asks first; --yes without a terminal)
          redo [--yes] [--json]   redo what the last undo undid (until a new change is made)
          prune [--dry-run] [--json]
                                  remove overrides that have expired
          diff PROFILE [PROFILE2] [--replace] [--json]
                                  what PROFILE changes against the current overrides (or PROFILE2)
        """

    static let historyCommands: [String: String] = [
        "history": """
        usage: config-menu history [KEY] [--limit N] [--json]

        Every change of the overrides recorded in the journal beside the store
        (overrides.json.journal, and overrides.json.journal.1 after it passed 1 MiB; for an etcd
        store, the keys under PREFIX.journal/, the newest 1000), newest first: when, who (menu, cli
        or a program, with its process id, and the machine for an etcd store; "a hand edit" for a
        change made to the file outside them), what (set, reset, import, prune, undo, redo) and each
        key's value before and after. With KEY, only the changes of that key. Overrides that have expired are listed
        first ("expired now"); a hand edit no writer has recorded yet is listed as "not yet recorded"
        (the next change records it). Reading the history writes nothing.

          --limit N               the N newest changes
          --json                  {"journal", "records": [{"id", "time", "origin": {"kind", "name",
                                  "pid", "host"}, "action", "detail", "undoes", "changes": [{"key", "old",
                                  "new"}], "omittedKeys", "complete"}], "unrecorded": (a record) or
                                  null, "expired": [{"key", "entry", "because", "description"}],
                                  "unreadableLines", "problem"}; entries are {"value", "setAt",
                                  "serverValueWhenSet", "note", "expiry"} or null

        \(sources)

        \(exitCodes)
        """,
        "undo": """
        usage: config-menu undo [--yes] [--json]

        Undoes the last recorded change, whoever made it (the menu, another command, a program, a
        hand edit): prints the change and what undoing it puts back, with a warning for each key
        changed again since, and asks. Repeated undos walk back through the history. The undo is
        itself recorded; it is refused, changing nothing, if a key changes between the question and
        the answer.

          --yes                   do not ask (needed when there is no terminal to ask on: exit 2)
          --json                  print {"undone": (the record)} after undoing, nothing before

        Answering no exits 1 and changes nothing.

        \(sources)

        \(exitCodes)
        """,
        "redo": """
        usage: config-menu redo [--yes] [--json]

        Redoes what the last undo undid: prints the undo and what redoing it puts back, with a
        warning for each key changed again since, and asks. Repeated undos walk back and repeated
        redos walk forward again; a new change after an undo (anyone's) ends what can be redone, as
        in an editor. The redo is itself recorded (and can be undone); it is refused, changing
        nothing, if a key changes between the question and the answer.

          --yes                   do not ask (needed when there is no terminal to ask on: exit 2)
          --json                  print {"redone": (the undo record)} after redoing, nothing before

        Answering no exits 1 and changes nothing.

        \(sources)

        \(exitCodes)
        """,
        "prune": """
        usage: config-menu prune [--dry-run] [--json]

        Removes the overrides that have expired (set with set --for, --until-server-changes or
        --until-version): they stay in the store, shown as expired and not applied, until removed.
        The removal is one change in the history (undo puts them back). "Until version" rules are
        judged with --program-version VERSION; without it they never count as expired here.

          --dry-run               list them only
          --json                  {"removed": [keys]} ({"expired": [keys]} with --dry-run)

        \(sources)

        \(exitCodes)
        """,
        "diff": """
        usage: config-menu diff PROFILE [PROFILE2] [--replace] [--json]

        What `import PROFILE` would do to the current overrides, with the values and the same counts:
        a merge (the profile's keys added, changed or unchanged; other overrides kept), or with
        --replace a replace (other overrides removed). Problems import refuses (unknown keys, invalid
        values) are listed too. With PROFILE2: what PROFILE2 adds, removes and changes against
        PROFILE. Keys are compared by value. Entries a profile cannot use are reported and left out.

          --replace               what import --replace PROFILE would do
          --json                  {"from", "to", "added": [{"key", "value"}], "removed": [{"key",
                                  "value"}], "changed": [{"key", "from", "to"}], "unchanged"} and,
                                  for one profile, "mode" and "kept" (counts)

        \(sources)

        \(exitCodes)
        """,
    ]
}
