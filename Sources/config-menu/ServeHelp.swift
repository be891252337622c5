/// The `--help` text of `serve`.
extension Help {
    static let serveCommands: [String: String] = [
        "serve": """
        usage: config-menu serve [--listen ADDR:PORT] [--token-file FILE]

        Serves the catalog's effective values (overrides over server values over defaults, expiry
        applied) over OFREP, the OpenFeature Remote Evaluation Protocol, until stopped (Ctrl-C), so
        any OpenFeature client with an OFREP provider (an app on a phone, a test in Python) reads
        the values QA sets here, and sees each change within a second:

          POST /ofrep/v1/evaluate/flags       every key (bulk), with an ETag (If-None-Match: 304)
          POST /ofrep/v1/evaluate/flags/KEY   one key; 404 FLAG_NOT_FOUND for an unknown key
          GET  /ofrep/v1/events               server-sent events: "ready", then "flags-changed"
                                              with {"etag", "keys"} at each change

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

        Without TLS the token and the values travel in clear: use a network you trust. Requests are
        bounded (head 16 KiB, body 64 KiB, 10 s to arrive; 100 a second per client address, then
        429; 64 connections, then 503); no part of a request names a file.

        \\(serverOptions)

        \\(sources)

        \\(exitCodes)
        """
    ]
}
