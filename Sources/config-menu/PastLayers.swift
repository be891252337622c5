import Foundation
import ServiceConfiguration
import ServiceConfigurationFiles
import ServiceConfigurationSync

/// The layers a program had at a past time, for `config-menu at TIME`: the overrides, from the store's history
/// (the current entries with every change recorded after TIME undone), and the server values, from the history of
/// applied snapshots beside the store; each with whether it is known or what stands in for it. ``service`` judges
/// expiry at TIME, so ``ConfigurationLayersReading`` reports each key through its descriptor exactly as the program
/// would have.
struct PastLayers {
    /// What is known of the overrides at the time.
    enum Overrides {
        /// The store's entries then, and how many recorded changes after the time were undone to get them.
        case known([String: OverrideEntry], undone: Int)
        /// Not known, and why.
        case unknown(String)
    }

    /// Where the server values shown come from.
    enum ServerValuesShown: String {
        /// The history's entry in effect at the time: known.
        case history
        /// The server values now, standing in for unknown ones.
        case current
        /// `--server-values FILE`, as given.
        case file
    }

    let time: Date
    let overrides: Overrides
    /// The oldest change the history keeps (`nil`: none kept).
    let journalStartsAt: Date?
    /// Journal lines that could not be read: a change among them is not undone.
    let unreadableJournalLines: Int
    let serverValues: [String: String]
    let serverValuesShown: ServerValuesShown
    /// The history's entry in effect at the time, when ``serverValuesShown`` is `.history`.
    let serverEntry: ServerSnapshotHistory.Entry?
    /// The oldest entry of the server history (`nil`: no history).
    let serverHistoryStartsAt: Date?
    /// One sentence on the server values shown: where they come from, or what cannot be known and what stands in.
    let serverNote: String
    /// The program's layers at the time, expiry judged at the time.
    let service: LiveConfigurationService

    var overridesKnown: Bool {
        if case .known = overrides { return true }
        return false
    }

    var serverValuesKnown: Bool { serverValuesShown == .history }

    init(context: ToolContext, invocation: Invocation, time: Date) throws {
        self.time = time
        let history = context.store.history()
        let changes = history.changes
        journalStartsAt = changes.first?.time
        unreadableJournalLines = history.unreadableLines
        overrides = Self.overrides(history: history, current: context.store.entries, at: time)

        let server = try Self.serverValues(context: context, invocation: invocation, at: time)
        serverValues = server.values
        serverValuesShown = server.shown
        serverEntry = server.entry
        serverHistoryStartsAt = server.startsAt
        serverNote = server.note
        service = LiveConfigurationService(
            serverValues: serverValues, catalog: context.catalog,
            overrideStore: InMemoryOverrideStore(entries: overrides.entries), watchMode: nil,
            overridePolicy: .allBuilds, options: .init(publishesProgramReport: false),
            programVersion: context.service.programVersion, clock: FixedOverrideClock(now: time))
    }

    /// The server values at `time`: the history's entry in effect then, or (unknown) what stands in for them.
    private static func serverValues(context: ToolContext, invocation: Invocation, at time: Date) throws -> (
        values: [String: String], shown: ServerValuesShown, entry: ServerSnapshotHistory.Entry?, startsAt: Date?,
        note: String
    ) {
        if let file = invocation.options["--server-values"] {
            let note = "from \(VisibleText.escaped(file)) as given (--server-values), not from a history"
            return (context.serverValues, .file, nil, nil, note)
        }
        let historyFile = ServerSnapshotHistory(
            snapshotURL: try ServerOptions.snapshotURL(invocation), confinedTo: invocation.confinement)
        let path = VisibleText.escaped(historyFile.file.path)
        var entries: [ServerSnapshotHistory.Entry] = []
        var why: String
        switch historyFile.load() {
        case .success(let loaded):
            entries = loaded
            why = "no history of server values (\(path) does not exist: no sync recorded one)"
        case .failure(let problem):
            CommandLineTool.report("warning: server history refused: \(problem)")
            why = "the history of server values cannot be used (\(problem))"
        }
        let entry = entries.last { $0.at <= time }
        if let entry, let values = entry.values {
            let note = "as synced at \(Timestamp.format(entry.at)) from \(VisibleText.escaped(entry.source))"
            return (values, .history, entry, entries.first?.at, note)
        }
        if let entry {
            why = "the values synced at \(Timestamp.format(entry.at)) were too large to keep (\(entry.keyCount) values)"
        } else if let first = entries.first {
            why = "no history before \(Timestamp.format(first.at)) (\(entries.count) kept)"
        }
        let current = describeCurrent(context: context, invocation: invocation)
        return (
            context.serverValues, .current, nil, entries.first?.at, "UNKNOWN at this time: \(why); shown: \(current)"
        )
    }

    /// The store's entries at `time`: the `current` ones with every change recorded after it undone, newest first
    /// (``OverrideHistory/revertProposal(to:current:)`` from the last change at or before it). Unknown when the
    /// history keeps nothing as old as `time`, cannot be read, or a later change was too large to record its values.
    static func overrides(history: OverrideHistory, current: [String: OverrideEntry], at time: Date) -> Overrides {
        guard history.isKept else { return .unknown("this store keeps no history of its overrides") }
        if let problem = history.problem {
            return .unknown("the history cannot be read (\(VisibleText.escaped(problem)))")
        }
        let changes = history.changes
        guard let oldest = changes.first else {
            return .unknown("the history records no change, so when the current overrides were set is not known")
        }
        guard let anchor = changes.last(where: { $0.time <= time }) else {
            return .unknown(
                "the history kept starts at \(Timestamp.format(oldest.time)), after this time (older changes were "
                    + "rotated out of it, or made before it was kept)")
        }
        do {
            let revert = try history.revertProposal(to: anchor, current: current)
            var entries = current
            for (key, entry) in revert.restores { entries[key] = entry }
            return .known(entries, undone: revert.laterChanges.count)
        } catch {
            return .unknown(error.description)
        }
    }

    /// The server values a tool shows now, for saying what stands in for unknown ones.
    private static func describeCurrent(context: ToolContext, invocation: Invocation) -> String {
        if invocation.options["--server-url"] != nil || context.serverValuesNote != nil {
            return "the last values fetched from --server-url"
        }
        if let url = try? ServerOptions.snapshotURL(invocation), FileManager.default.fileExists(atPath: url.path),
            context.snapshotProblem == nil
        {
            return "the current snapshot (\(VisibleText.escaped(url.path)))"
        }
        if invocation.options["--manifest"] != nil { return "none (no snapshot)" }
        return "the catalog's built-in server values (no snapshot)"
    }

    /// A line for people: what the overrides shown are.
    var overridesLine: String {
        switch overrides {
        case .known(_, let undone):
            let start = journalStartsAt.map { "; the history kept starts at \(Timestamp.format($0))" } ?? ""
            let unread =
                unreadableJournalLines == 0
                ? ""
                : "; \(unreadableJournalLines) unreadable journal line\(unreadableJournalLines == 1 ? "" : "s") "
                    + "skipped: a change among them is not undone"
            return
                "overrides: from the history (\(undone) later change\(undone == 1 ? "" : "s") undone\(start)\(unread))"
        case .unknown(let why):
            return "overrides: UNKNOWN at this time: \(why); the values below leave every override out, and any key "
                + "may have been overridden"
        }
    }

    /// The header of every `at` output: the time, and what is known.
    var header: String {
        ["at \(Timestamp.format(time))", overridesLine, "server values: \(serverNote)"].joined(separator: "\n")
    }

    /// What the JSON outputs say about the time, before the keys.
    var jsonMembers: [(key: String, value: JSONValue)] {
        func time(_ date: Date?) -> JSONValue { date.map { .string(Timestamp.format($0)) } ?? .null }
        var undone: JSONValue = .null
        var overridesNote = ""
        switch overrides {
        case .known(_, let count):
            undone = .number(String(count))
            overridesNote = "from the history"
        case .unknown(let why): overridesNote = why
        }
        return [
            ("time", time(self.time)),
            ("overridesKnown", .bool(overridesKnown)),
            ("overrides", .string(overridesNote)),
            ("journalStartsAt", time(journalStartsAt)),
            ("undoneChanges", undone),
            ("unreadableJournalLines", .number(String(unreadableJournalLines))),
            ("serverValuesKnown", .bool(serverValuesKnown)),
            ("serverValuesShown", .string(serverValuesShown.rawValue)),
            ("serverValues", .string(serverNote)),
            ("serverValuesSyncedAt", time(serverEntry?.at)),
            ("serverValuesSource", serverEntry.map { .string($0.source) } ?? .null),
            ("serverHistoryStartsAt", time(serverHistoryStartsAt)),
        ]
    }
}

extension PastLayers.Overrides {
    /// The entries when known; none otherwise (the output then says every override is left out).
    var entries: [String: OverrideEntry] {
        if case .known(let entries, _) = self { return entries }
        return [:]
    }
}

/// A clock stopped at one time: expiry is judged as it was then, and nothing is ever scheduled.
struct FixedOverrideClock: OverrideClock {
    let now: Date

    func schedule(at deadline: Date, _ action: @escaping @Sendable () -> Void) -> ConfigurationObservation {
        ConfigurationObservation {}
    }
}

/// The TIME of `config-menu at TIME`.
enum PastTime {
    /// `text` as a time not in the future: ISO 8601 with a zone (`2026-12-04T14:05:00Z`, `...+01:00`), a local time
    /// of this machine's zone (`2026-12-04 14:05`, `2026-12-04T14:05:30`), or a duration ago (`-2h`, `-30m`,
    /// `-1h30m`, `-45s`, `-3d`). Anything else, or a time after `now`, is a usage error naming the argument.
    static func parse(_ text: String, now: Date) throws -> Date {
        let shown = VisibleText.escaped(text)
        let time: Date
        if text.hasPrefix("-") {
            guard let seconds = try? ExpiryOptions.parseDuration(String(text.dropFirst())) else {
                throw ToolError.usage(
                    "at: TIME \"\(shown)\" is not a duration ago such as -2h, -30m, -1h30m, -45s or -3d", command: "at")
            }
            time = now.addingTimeInterval(-seconds)
        } else if let parsed = Timestamp.parse(text) ?? local(text) {
            time = parsed
        } else {
            throw ToolError.usage(
                "at: TIME \"\(shown)\" is not a time: give 2026-12-04T14:05:00Z (or an offset such as +01:00), a "
                    + "local time 2026-12-04 14:05, or a duration ago such as -2h", command: "at")
        }
        guard time <= now else {
            throw ToolError.usage(
                "at: TIME \"\(shown)\" (\(Timestamp.format(time))) is in the future; nothing is known of it yet",
                command: "at")
        }
        return time
    }

    /// A local time of this machine's zone, `YYYY-MM-DD HH:MM[:SS]` (or with `T`), checked by formatting it back (so
    /// 25:00 or 30 February is refused).
    private static func local(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.isLenient = false
        for format in ["yyyy-MM-dd HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text), formatter.string(from: date) == text { return date }
        }
        return nil
    }
}
