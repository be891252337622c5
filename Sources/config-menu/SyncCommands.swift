import ConfigurationDebugMenu
import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// `config-menu sync` and `config-menu status`: the server values a program persisted beside the store, and a
/// sync on demand. Human-readable output escapes everything that came from a server or a file.
struct SyncCommands {
    let invocation: Invocation

    private var json: Bool { invocation.flags.contains("--json") }

    /// Fetches once (from `--server-url`, else from the source the snapshot names), applies, persists the
    /// snapshot, and prints what changed. A failed sync exits 4.
    func sync() throws {
        try invocation.check(allowed: ["--json"])
        guard invocation.positional.isEmpty else { throw ToolError.usage("sync takes no arguments", command: "sync") }
        let snapshotURL = try ServerOptions.snapshotURL(invocation)
        let follower = ServerSnapshotFollower(
            snapshotURL: snapshotURL, service: nil, confinedTo: invocation.confinement)
        let environment = try ToolContext.etcdEnvironment(invocation)
        let url: URL
        if let given = try ServerOptions.serverURL(invocation) {
            url = given
        } else if let recorded = URL(string: follower.status.source), recorded.scheme != nil {
            url = recorded
        } else {
            throw ToolError.usage(
                "no server to sync from: pass --server-url URL (\(VisibleText.escaped(snapshotURL.path)) names none)",
                command: "sync")
        }
        // With --manifest, an OFREP source writes each boolean as the program's key does (`true`/`false`, ...).
        let catalog = try invocation.options["--manifest"].map {
            try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: $0))
        }
        let source = try ServerValuesSources.source(
            for: url, timeout: .seconds(30), environment: environment, catalog: catalog)
        let sync = ServerValuesSync(
            source: source, service: nil, snapshotURL: snapshotURL, environment: .live,
            snapshotConfinement: invocation.confinement)
        let before = sync.values
        let outcome = runBlocking { await sync.sync() }
        sync.stop()
        let after = sync.values
        if json {
            var members: [(key: String, value: JSONValue)] = [("source", .string(source.location))]
            switch outcome {
            case .updated(let previous):
                members.append(("outcome", .string("updated")))
                members.append(("changes", Self.changesJSON(previous, now: after)))
            case .notModified:
                members.append(("outcome", .string("notModified")))
                members.append(("changes", .array([])))
            case .failed(let error):
                members.append(("outcome", .string("failed")))
                members.append(
                    ("error", .object([("kind", .string(error.kind.rawValue)), ("reason", .string(error.reason))])))
            }
            members.append(("status", Self.statusJSON(sync.status, snapshot: snapshotURL)))
            try Output.json(.object(members))
        } else {
            switch outcome {
            case .updated(let previous) where previous.isEmpty:
                try Output.line(
                    "synced from \(VisibleText.escaped(source.location)): nothing changed (the same \(after.count) values)"
                )
            case .updated(let previous):
                try Output.line(
                    "synced from \(VisibleText.escaped(source.location)): \(Self.count(previous.count)) changed")
                for key in previous.keys.sorted() {
                    let old = previous[key]!.map { "\"\(VisibleText.escaped($0))\"" } ?? "(none)"
                    let new = after[key].map { "\"\(VisibleText.escaped($0))\"" } ?? "(removed)"
                    try Output.line("  \(VisibleText.escaped(key)): \(old) -> \(new)")
                }
            case .notModified:
                try Output.line(
                    "synced from \(VisibleText.escaped(source.location)): not modified (\(before.count) values kept)")
            case .failed:
                break
            }
            if let problem = sync.status.snapshotProblem {
                CommandLineTool.report("warning: \(VisibleText.escaped(problem))")
            }
        }
        if let error = outcome.error {
            throw ToolError(
                code: .ioFailure,
                description:
                    "sync from \(VisibleText.escaped(source.location)) failed: \(VisibleText.escaped(error.reason)); "
                    + "the last good values stay")
        }
    }

    /// Prints the status the snapshot beside the store records.
    func status() throws {
        try invocation.check(allowed: ["--json"])
        guard invocation.positional.isEmpty else {
            throw ToolError.usage("status takes no arguments", command: "status")
        }
        let snapshotURL = try ServerOptions.snapshotURL(invocation)
        let follower = ServerSnapshotFollower(
            snapshotURL: snapshotURL, service: nil, confinedTo: invocation.confinement)
        let status = follower.status
        let writer = follower.writer
        if let problem = status.snapshotProblem, status.source == snapshotURL.path {
            throw ToolError(code: .ioFailure, description: VisibleText.escaped(problem))
        }
        guard !status.source.isEmpty else {
            if json {
                try Output.json(.object([("status", .string("none")), ("snapshot", .string(snapshotURL.path))]))
            }
            throw ToolError(
                code: .failure,
                description: "no server snapshot at \(VisibleText.escaped(snapshotURL.path)): no program has synced "
                    + "beside this store yet (config-menu sync --server-url URL makes one)")
        }
        if let url = try ServerOptions.serverURL(invocation), url.absoluteString != status.source {
            CommandLineTool.report(
                "warning: the snapshot is from \(VisibleText.escaped(status.source)), not \(VisibleText.escaped(url.absoluteString))"
            )
        }
        if json { return try Output.json(Self.statusJSON(status, snapshot: snapshotURL, writer: writer)) }
        var lines: [(String, String)] = [("source", status.source)]
        // Whose sync the status is, and whether that program still runs (and so still syncs).
        lines.append(
            (
                "synced by",
                writer.map { "\($0.programName) (pid \($0.processIdentifier)), \($0.isRunning ? "running" : "ended")" }
                    ?? "not recorded (a snapshot written before programs named themselves)"
            ))
        lines.append(("status", status.state.name))
        if let reason = status.state.reason { lines.append(("reason", reason)) }
        lines.append(("last sync", status.lastSync.map { Self.time($0) } ?? "never"))
        if let etag = status.validators.etag { lines.append(("etag", etag)) }
        if let lastModified = status.validators.lastModified { lines.append(("last-modified", lastModified)) }
        lines.append(("keys", String(status.keyCount)))
        if let change = status.lastChange {
            let keys = change.previousValues.keys.sorted()
            let shown = keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
            lines.append(("last change", "\(Self.time(change.at)): \(Self.count(keys.count)) (\(shown))"))
        }
        if let error = status.lastError {
            lines.append(("last error", error.reason + (status.lastErrorAt.map { " (since \(Self.time($0)))" } ?? "")))
        }
        lines.append(("snapshot", snapshotURL.path))
        try Output.line(
            lines.map { label, value in
                (label + ":").padding(toLength: 15, withPad: " ", startingAt: 0) + VisibleText.escaped(value)
            }.joined(separator: "\n"))
    }

    private static func count(_ keys: Int) -> String { keys == 1 ? "1 key" : "\(keys) keys" }

    private static func time(_ date: Date) -> String {
        let age = Int(Date().timeIntervalSince(date).rounded())
        return Timestamp.format(date) + " (\(ServerSyncAge.relative(seconds: age)))"
    }

    static func changesJSON(_ previous: [String: String?], now: [String: String]) -> JSONValue {
        .array(
            previous.keys.sorted().map { key in
                .object([
                    ("key", .string(key)), ("previous", previous[key]!.map(JSONValue.string) ?? .null),
                    ("value", now[key].map(JSONValue.string) ?? .null),
                ])
            })
    }

    /// The status as `status --json` prints it (documented in the README); `writer` is the program whose sync wrote
    /// the snapshot, when known.
    static func statusJSON(_ status: ServerSyncStatus, snapshot: URL, writer: ServerSnapshotWriter? = nil) -> JSONValue
    {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let error: JSONValue =
            status.lastError.map { error in
                .object([
                    ("kind", .string(error.kind.rawValue)), ("reason", .string(error.reason)),
                    ("at", optional(status.lastErrorAt.map(Timestamp.format))),
                ])
            } ?? .null
        let change: JSONValue =
            status.lastChange.map { change in
                .object([
                    ("at", .string(Timestamp.format(change.at))),
                    (
                        "previousValues",
                        .object(change.previousValues.keys.sorted().map { ($0, optional(change.previousValues[$0]!)) })
                    ),
                ])
            } ?? .null
        return .object([
            ("source", .string(status.source)), ("status", .string(status.state.name)),
            ("reason", optional(status.state.reason)), ("lastSync", optional(status.lastSync.map(Timestamp.format))),
            ("etag", optional(status.validators.etag)), ("lastModified", optional(status.validators.lastModified)),
            ("keys", .number(String(status.keyCount))), ("lastError", error), ("lastChange", change),
            (
                "syncedBy",
                writer.map {
                    .object([
                        ("program", .string($0.programName)), ("pid", .number(String($0.processIdentifier))),
                        ("running", .bool($0.isRunning)),
                    ])
                } ?? .null
            ),
            ("snapshot", .string(snapshot.path)),
        ])
    }
}
