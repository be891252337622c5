/// The `--help` text of `config-menu coverage`.
extension Help {
    static let coverageCommands: [String: String] = [
        "coverage": """
        usage: config-menu coverage [--json] [--require-read]

        What the program using the store read, from the report a running program publishes beside
        the store (programs/<program>-<pid>-<id>.json, at most once a second; on an etcd store, the
        key PREFIX.programs/<program>-<pid>-<id> on a lease: a killed program's report is gone after
        30 s, an ended one after 10 minutes): the running programs, or the one that ran last when
        none runs (its status says whether it ended or was killed; a program on another machine is
        named with it).
        Lists the keys read (with the time of the first read), the catalog's keys never read, the
        overridden keys never read, and the keys read whose scope is not in the program's catalog
        (unregistered: the menu cannot show them; the fix is to add the scope to the catalog).

          --json                  {"program": {name, pid, status, startedAt, writtenAt, endedAt,
                                  recordsReads, file, host, omitted}, "time", "running", "recordsReads", "store",
                                  "read", "unread", "overriddenUnread", "unregistered" (arrays of key
                                  names), "reads": [{name, firstRead, currentValueRead, program, pid,
                                  inCatalog}], "unregisteredKeys": [{name, scope, keyType, module,
                                  firstRead, fix}], "programs": [as "program"]}
          --require-read          exit 3 when an overridden key was never read (after the output;
                                  the message names the keys): a UI test's overrides were exercised

        No report for the store (no program ran with it, or it read no key yet) exits 1. A report too
        large to publish whole into etcd keeps the first keys by name and says how many it left out
        (a warning here; "omitted" in --json).

        \(sources)

        \(exitCodes)
        """,
        "audit": """
        usage: config-menu audit [--json] [--fail-past-due] [--due-within DAYS] [--older-than DAYS]

        Flags that rot and overrides left behind, from the catalog's lifecycle declarations (a key's
        owner, ticket and removeBy: a day YYYY-MM-DD, due from 00:00 UTC, or an app version) and the
        store:
          keys past their removal, keys due within DAYS (default 30), keys due at a version (judged
          only with --program-version V), keys without an owner when the catalog requires one;
          overrides set more than DAYS ago (--older-than, default 30), overrides equal to the server
          value or (when the server sends nothing) to the default, overrides of keys past their
          removal, and overrides of keys the catalog does not know, each group with the
          `config-menu reset KEY...` line that removes it.

          --fail-past-due         exit 3 when a key is past its removal (after the output; the
                                  message names the keys): fails a CI job when a flag overstays
          --json                  {"time", "programVersion", "dueWithinDays", "olderThanDays",
                                  "pastDue", "dueSoon", "dueAtVersion", "withoutOwner" (arrays of
                                  {name, scope, owner, ticket, removeBy: {date|version}, daysPastDue
                                  or daysLeft}), "requiresOwners", "overrides": {"old", "redundant",
                                  "equalsDefault", "pastDueKey", "orphan": {"keys": [names],
                                  "remove": the reset command line or null}}}

        \(sources)

        \(exitCodes)
        """,
    ]
}
