/// The `--help` text of `config-menu coverage`.
extension Help {
    static let coverageCommands: [String: String] = [
        "coverage": """
        usage: config-menu coverage [--json] [--require-read]

        What the program using the store read, from the report a running program publishes beside
        the store (programs/<program>-<pid>-<id>.json, at most once a second): the running programs,
        or the one that ran last when none runs (its status says whether it ended or was killed).
        Lists the keys read (with the time of the first read), the catalog's keys never read, the
        overridden keys never read, and the keys read whose scope is not in the program's catalog
        (unregistered: the menu cannot show them; the fix is to add the scope to the catalog).

          --json                  {"program": {name, pid, status, startedAt, writtenAt, endedAt,
                                  recordsReads, file}, "time", "running", "recordsReads", "store",
                                  "read", "unread", "overriddenUnread", "unregistered" (arrays of key
                                  names), "reads": [{name, firstRead, currentValueRead, program, pid,
                                  inCatalog}], "unregisteredKeys": [{name, scope, keyType, module,
                                  firstRead, fix}], "programs": [as "program"]}
          --require-read          exit 3 when an overridden key was never read (after the output;
                                  the message names the keys): a UI test's overrides were exercised

        No report for the store (no program ran with it, or it read no key yet) exits 1.

        \(sources)

        \(exitCodes)
        """
    ]
}
