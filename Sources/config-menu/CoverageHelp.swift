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
        """
    ]
}
