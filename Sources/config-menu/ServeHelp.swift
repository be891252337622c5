/// The `--help` text of `serve`.
extension Help {
    static let serveCommands: [String: String] = [
        "serve": """
        usage: config-menu serve [--listen ADDR:PORT] [--token-file FILE] [--read-only]

        Serves the catalog's effective values (overrides over server values over defaults, expiry
        applied) over OFREP, the OpenFeature Remote Evaluation Protocol, until stopped (Ctrl-C), so
        any OpenFeature client with an OFREP provider (an app on a phone, a test in Python) reads
        the values QA sets here, and sees each change within a second:

          POST /ofrep/v1/evaluate/flags       every key (bulk), with an ETag (If-None-Match: 304)
          POST /ofrep/v1/evaluate/flags/KEY   one key; 404 FLAG_NOT_FOUND for an unknown key
          GET  /ofrep/v1/events               server-sent events: "ready", then "flags-changed"
                                              with {"etag", "keys"} at each change

        It also serves the override store it opened (--store), so a program on another device
        uses it as its own (CONFIG_OVERRIDES_STORE=http://HOST:PORT; the tools: --store
        http://HOST:PORT), with the token in CONFIG_OVERRIDES_TOKEN:

          GET  /store/v1/overrides            the entries, as the store file holds them, and their
                                              revision (also the ETag)
          POST /store/v1/overrides            the complete new entries, with If-Match: REVISION;
                                              412 with the current entries when another writer
                                              changed them first; 403 with --read-only
          GET  /store/v1/events               server-sent events: "ready", then "store-changed"
                                              with {"revision"} at each change

        Values are typed by their key (a Bool key true/false, numbers as numbers, JSON keys as
        JSON); reason is STATIC for an override, TARGETING_MATCH for the server's value, DEFAULT
        for the default, and variant and metadata.source name the same. The evaluation context is
        checked, then ignored: every caller gets the same values. Changes made with `set`, the
        menu or another program on the same store reach the clients live.

          --listen ADDR:PORT      where to listen (IPv4); default 127.0.0.1:8016. Port 0 takes a
                                  free port (printed). An address beyond this machine (0.0.0.0,
                                  a LAN address) needs a token: one is generated and printed
                                  unless --token-file gives it
          --token-file FILE       require the token in FILE's first line (16 characters or more)
                                  as "Authorization: Bearer TOKEN" on every request, on any address
          --read-only             serve the store without letting clients change it (403)

        Without TLS the token and the values travel in clear: use a network you trust. Requests are
        bounded (head 16 KiB, body 64 KiB, a store's 8 MiB, 10 s to arrive; 100 a second per client address, then
        429; 64 connections, then 503); no part of a request names a file.

        \\(serverOptions)

        \\(sources)

        \\(exitCodes)
        """
    ]
}
