/// The `--help` texts of the server-values commands and options.
extension Help {
    static let serverOptions = """
        server values (the menu, sync, status, get, list):
          --server-url URL        sync server values from URL (a JSON object of key names to strings),
                                  or from etcd://HOST:PORT/PREFIX (one key per value under PREFIX,
                                  followed live with a watch; etcds:// for HTTPS, see --etcd-ca-file),
                                  or from an OpenFeature server: ofrep://HOST:PORT[/BASE] (OFREP bulk
                                  evaluation over HTTP; ofreps:// over TLS) for the context below;
                                  get and list show the values last fetched from URL (the snapshot
                                  beside the store, when it is URL's) and say when none were fetched
                                  yet; without it, the values a running program persisted in
                                  server-snapshot.json beside the store are shown
          --sync-interval SECONDS sync every SECONDS (with --server-url); default: at start and on demand
          --targeting-key ID      with an ofrep:// URL: who the flags are evaluated for (targetingKey)
          --context KEY=VALUE     with an ofrep:// URL: an attribute of the evaluation context the
                                  server's targeting rules read (country=JP, osVersion=18.2); repeatable
        """

    static let syncCommands: [String: String] = [
        "sync": """
        usage: config-menu sync [--server-url URL] [--json]

        Fetches the server values once (from URL, else from the server the snapshot beside the store
        names), with the snapshot's ETag and Last-Modified, and saves the snapshot. Prints what
        changed: each key with its previous and new value, or "not modified". A failed sync (no
        answer, a status other than 200/304, a body that is not a JSON object of strings) keeps the
        last good values and exits 4.

          --json                  {"source", "outcome" (updated|notModified|failed),
                                  "changes": [{"key", "previous", "value"}], "error": {"kind",
                                  "reason"}, "status": (as status --json)}

        \(serverOptions)

        \(sources)

        \(exitCodes)
        """,
        "status": """
        usage: config-menu status [--json]

        Where the server values come from and how current they are, as the running program last
        recorded them in server-snapshot.json beside the store: the source, whose sync wrote it (the
        program and its pid) and whether that program still runs, the status (fresh, cached, stale,
        error) as that program recorded it, the last sync time, the validators (ETag,
        Last-Modified), the number of keys, what the last change changed, and the last error. Exits
        1 when there is no snapshot.

          --json                  {"source", "status", "reason", "lastSync", "etag",
                                  "lastModified", "keys", "lastError": {"kind", "reason", "at"},
                                  "lastChange": {"at", "previousValues": {key: previous or null}},
                                  "syncedBy": {"program", "pid", "running"} or null, "snapshot"}

        \(sources)

        \(exitCodes)
        """,
    ]
}
