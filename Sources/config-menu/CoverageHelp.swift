/// The `--help` text of `config-menu coverage`.
extension Help {
    static let coverageCommands: [String: String] = [
        "coverage": """
        usage: config-menu coverage [--json] [--require-read]
               config-menu coverage --runs [--since VERSION|DATE] [--json]
               config-menu coverage --runs --require-both [KEY...] [--since VERSION|DATE] [--json]

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
                                  inCatalog, values}], "unregisteredKeys": [{name, scope, keyType,
                                  module, firstRead, fix}], "programs": [as "program"]}; "version"
                                  (in "program") is the version the program runs as, or null;
                                  "values" the distinct values it read (at most 16)
          --require-read          exit 3 when an overridden key was never read (after the output;
                                  the message names the keys): a UI test's overrides were exercised

        Evidence across runs: each program run that ended, or was found killed, is kept in the run
        history beside the store (runs/<end time>-<report name>.json; on an etcd store the keys
        PREFIX.runs/<end time>-<report name>.json, on no lease), the newest 200 runs, with its
        program, version, pid, host, start and end (or killed), and for each key it read the values
        it saw. A running program counts once it ends or is killed. A killed run is added by the
        next program that starts on the store file, or by coverage --runs itself (on etcd only while
        its report's lease lasts, 30 s by default: run coverage --runs after a kill -9 there).
          --runs                  aggregate the history: the runs (per program and version), each key
                                  read with how many runs read it and which values (with how many
                                  runs each), and the catalog's keys no run read (cleanup candidates)
          --since VERSION|DATE    only runs of that version or newer (8.2; runs that name no version
                                  are left out), or started on or after that day (2026-12-01, UTC)
                                  or time (2026-12-01T14:05:00Z)
          --require-both [KEY...] for each KEY (or, with none, each key overridden in the store now
                                  that is a Bool or choice key): was each of its sides read? A Bool
                                  needs its true and its false value, a picker every choice, an
                                  experiment every enabled variant and one that is not (its off
                                  side). Exit 3 when a side was never read (or the key never),
                                  naming the missing values; a KEY
                                  that is unknown or neither a Bool nor a choice key is a usage
                                  error (2); exit 0 when every one is exercised
          --runs --json           {"store", "history", "since": {"version"} or {"date"} or null,
                                  "programs": [{name, version, runs}], "runs": [{program, version,
                                  pid, host, startedAt, endedAt, outcome ("ended" or "killed"),
                                  keysRead, file}], "keys": [{name, runs, values: [{value, runs}],
                                  runsWithValuesOmitted, runsWithoutValues, inCatalog}],
                                  "neverRead": [{name, owner}]}; with --require-both also
                                  "requireBoth": [{name, kind ("bool" or "choice"), sides (arrays
                                  of values: a side is read when any of its values was), seen (the
                                  values read), missing (the sides not read), runs, exercised}] and
                                  "notChecked" (overridden keys that are neither)
        With --runs: no finished run in the history (or none since VERSION|DATE) exits 1;
        --require-both exits 3 after the output when a key misses a value, 0 when none does.

        No report for the store (no program ran with it, or it read no key yet) exits 1. A report too
        large to publish whole into etcd keeps the first keys by name and says how many it left out
        (a warning here; "omitted" in --json).

        \(sources)

        \(exitCodes)
        """,
        "audit": """
        usage: config-menu audit [--json] [--fail-past-due] [--due-within DAYS] [--older-than DAYS]
                                 [--last-runs N]

        Flags that rot and overrides left behind, from the catalog's lifecycle declarations (a key's
        owner, ticket and removeBy: a day YYYY-MM-DD, due from 00:00 UTC, or an app version) and the
        store:
          keys past their removal, keys due within DAYS (default 30), keys due at a version (judged
          only with --program-version V), keys without an owner when the catalog requires one;
          overrides set more than DAYS ago (--older-than, default 30), overrides equal to the server
          value or (when the server sends nothing) to the default, overrides of keys past their
          removal, overrides no program read in the newest N finished runs of the store's run
          history (--last-runs, default 10; see coverage --runs), and overrides of keys the catalog
          does not know, each group with the `config-menu reset KEY...` line that removes it.

          --fail-past-due         exit 3 when a key is past its removal (after the output; the
                                  message names the keys): fails a CI job when a flag overstays
          --json                  {"time", "programVersion", "dueWithinDays", "olderThanDays",
                                  "judgedRuns", "pastDue", "dueSoon", "dueAtVersion", "withoutOwner" (arrays of
                                  {name, scope, owner, ticket, removeBy: {date|version}, daysPastDue
                                  or daysLeft}), "requiresOwners", "overrides": {"old", "redundant",
                                  "equalsDefault", "pastDueKey", "unread", "orphan": {"keys": [names],
                                  "remove": the reset command line or null}}}

        \(sources)

        \(exitCodes)
        """,
    ]
}
