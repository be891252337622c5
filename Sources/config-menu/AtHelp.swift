/// The `--help` text of `config-menu at`.
extension Help {
    static let atOverview = """
          at TIME get KEY|list [SCOPE] [--json]|export FILE [--with-server-values]
                                  the values and their sources as they were at a past TIME;
                                  export: the overrides then, as a profile to import
        """

    static let atCommands: [String: String] = [
        "at": """
        usage: config-menu at TIME get KEY [--json]
               config-menu at TIME list [SCOPE] [--json]
               config-menu at TIME export FILE [--with-server-values]

        What a program using the store saw at TIME: each key's value and where it came from, as
        `get` and `list` show them now, judged by the same rules (each key's decoding, expiry at
        TIME: an override whose time, server change or version had passed did not apply).

        TIME is in the past: 2026-12-04T14:05:00Z or 2026-12-04T15:05:00+01:00 (ISO 8601 with
        seconds and a zone), a local time of this machine's zone (2026-12-04 14:05,
        2026-12-04 14:05:30; $TZ sets the zone), or a duration ago (-2h, -30m, -1h30m, -45s, -3d).
        A time in the future, or anything else, is a usage error (exit 2).

        The overrides at TIME come from the store's history (`config-menu history`; a file store's
        journal, or an etcd store's): the current overrides with every change recorded after TIME
        undone, newest first. The history is bounded (a file store keeps its last 1 to 2 MiB of
        changes, etcd its newest 1000), so for a TIME before the oldest change it keeps, the
        overrides are UNKNOWN: the output says so, leaves every override out and shows no value as
        an override's. The same when a later change was too large to record its values.

        The server values at TIME come from the history a sync keeps beside the snapshot
        (server-snapshot.json.history: each set of values a sync applied that differed from the
        one before, the newest 50, at most 4 MiB). Without one (a store used without a sync), or
        for a TIME before its oldest entry, they are UNKNOWN: the output says so and shows the
        current server values in their place. With --server-values FILE, FILE's values are shown
        (not a history: serverValuesKnown is false).

        The first lines say what is known: the time (UTC), the overrides, the server values.

          --json                  one JSON object: time, overridesKnown, overrides (how they were
                                  found, or why unknown), journalStartsAt (the oldest change the
                                  history keeps, or null), undoneChanges (or null),
                                  unreadableJournalLines, serverValuesKnown, serverValuesShown
                                  (history|current|file), serverValues (a sentence: where from,
                                  or what is unknown and what is shown), serverValuesSyncedAt,
                                  serverValuesSource, serverHistoryStartsAt (or null); then
                                  "key" (get) or "keys" (list): as in `get --json`; with the
                                  overrides unknown each key's value and override are null and
                                  its source is "unknown"
          --with-server-values    export: also pin every server value in effect at TIME as an
                                  override, so the import reproduces them without that server

        export writes the overrides that applied at TIME (expired and rejected ones left out, and
        without expiry or time, so they apply when imported) as a profile in the store's format;
        `config-menu import FILE --replace` makes the store hold exactly them (without --replace,
        other overrides stay). export refuses (exit 1, nothing written) when the overrides at TIME
        are unknown, or with --with-server-values when the server values are.

        \(sources)

        \(exitCodes)
        """
    ]
}
