package import Foundation
package import ServiceConfiguration
import ServiceConfigurationFileStore

/// The server values' status as the menu shows it: the status, and when the last good sync happened on the
/// monotonic clock the loop's ticks use, so the age on screen comes from state (tests pass fixed times).
package struct ServerSyncDisplay: Equatable, Sendable {
    /// The status.
    package var status: ServerSyncStatus
    /// The last good sync, in seconds on the monotonic clock of ``MenuFeedback/tick(_:)``; `nil` when there was none.
    package var lastSyncClock: Double?
    /// Whether the values come from a running program's snapshot (as opposed to a sync this menu runs).
    package var followsSnapshot: Bool
    /// When following a snapshot: the program whose sync wrote it and whether it still runs; `nil` when the snapshot
    /// does not say (written before snapshots named their writer).
    package var writer: Writer?

    /// The program whose sync wrote the snapshot the menu follows.
    package struct Writer: Equatable, Sendable {
        /// Whether that program still runs, and so still syncs.
        package enum Liveness: Equatable, Sendable {
            /// This menu wrote it (`s` syncs once, for the program).
            case thisMenu
            /// Another process that still runs.
            case running
            /// A process that ended (or was killed): nobody syncs these values any more.
            case ended
        }

        /// The program's name.
        package var name: String
        /// Its process identifier.
        package var pid: Int32
        /// Whether it still runs.
        package var liveness: Liveness
        /// When this menu wrote the snapshot: the program that synced before it, which applies the values at its
        /// own next sync (if it still runs); `nil` when the menu saw none.
        package var program: Program?

        package init(name: String, pid: Int32, liveness: Liveness, program: Program? = nil) {
            self.name = name
            self.pid = pid
            self.liveness = liveness
            self.program = program
        }
    }

    /// A program that synced the snapshot before this menu's own sync.
    package struct Program: Equatable, Sendable {
        /// Its name.
        package var name: String
        /// Whether it still runs.
        package var isRunning: Bool

        package init(name: String, isRunning: Bool) {
            self.name = name
            self.isRunning = isRunning
        }
    }

    /// Creates a display.
    package init(status: ServerSyncStatus, lastSyncClock: Double?, followsSnapshot: Bool, writer: Writer? = nil) {
        self.status = status
        self.lastSyncClock = lastSyncClock
        self.followsSnapshot = followsSnapshot
        self.writer = writer
    }

    /// The display of `status` read at `clock` (monotonic seconds) and `date` (the wall clock at that moment).
    package init(status: ServerSyncStatus, clock: Double, date: Date, followsSnapshot: Bool, writer: Writer? = nil) {
        self.init(
            status: status, lastSyncClock: status.lastSync.map { clock - date.timeIntervalSince($0) },
            followsSnapshot: followsSnapshot, writer: writer)
    }

    /// Whether there is anything to show (a source is known).
    package var isShown: Bool { !status.source.isEmpty }

    /// How many keys the last change changed.
    package var changedCount: Int { status.lastChange?.previousValues.count ?? 0 }

    /// The status words. For this menu's own sync: `fresh 12 s ago`, `cached since 2026-11-29 14:05 UTC`, `stale:
    /// connection refused · last good 3 min ago`, `error: connection refused`, `waiting for the first sync`. For a
    /// snapshot it follows, whose sync it is and whether that program still runs: `values from config-demo's sync
    /// 12 s ago; config-demo runs`, `config-demo's last sync failed: connection refused · values from 3 min ago`,
    /// `values from config-demo's sync 4 min ago; config-demo ended`, `values from this menu's sync 1 s ago;
    /// config-demo applies them at its own next sync`. Never "fresh" for another program's snapshot: the menu cannot
    /// know the program applied those values.
    package func stateText(clock: Double) -> String {
        // A snapshot that was never readable: what is wrong with it is the whole story.
        if followsSnapshot, status.lastSync == nil, case .waiting = status.state, let problem = snapshotProblem {
            return "refused: " + problem
        }
        return baseText(clock: clock) + (snapshotProblem.map { " · snapshot: " + $0 } ?? "")
    }

    /// ``stateText(clock:)`` without the snapshot's problem.
    private func baseText(clock: Double) -> String {
        let age = lastSyncClock.map { ServerSyncAge.relative(seconds: Int((clock - $0).rounded(.down))) }
        guard followsSnapshot else {
            switch status.state {
            case .waiting: return "waiting for the first sync"
            case .fresh: return "fresh " + (age ?? "")
            case .cached(let since): return "cached since \(ValueText.time(since))"
            case .stale(_, let reason): return "stale: \(reason)" + (age.map { " · last good \($0)" } ?? "")
            case .error(let reason): return "error: \(reason)"
            }
        }
        guard let writer else { return Self.unnamedText(status.state, age: age) }
        let name = VisibleText.escaped(writer.name)
        let who = writer.liveness == .thisMenu ? "this menu" : name
        let whose = who + "'s"
        let values = age.map { "values from \(whose) sync \($0)" } ?? "values from \(whose) sync"
        switch (status.state, writer.liveness) {
        case (.waiting, .ended): return "\(name) ended before its first sync"
        case (.waiting, _): return "\(who) has not synced yet"
        case (.error(let reason), .ended): return "\(name)'s sync failed: \(reason); no values; \(name) ended"
        case (.error(let reason), _): return "\(whose) sync failed: \(reason); no values yet"
        case (.stale(_, let reason), .ended):
            return age.map { "values from \(name)'s last good sync \($0) (then: \(reason)); \(name) ended" }
                ?? "\(name)'s last sync failed: \(reason); \(name) ended"
        case (.stale(_, let reason), _):
            return "\(whose) last sync failed: \(reason)" + (age.map { " · values from \($0)" } ?? "")
        case (.fresh, .thisMenu), (.cached, .thisMenu):
            guard let program = writer.program else { return values + " (no program's sync seen beside this store)" }
            let programName = VisibleText.escaped(program.name)
            return values
                + (program.isRunning ? "; \(programName) applies them at its own next sync" : "; \(programName) ended")
        case (.fresh, .running), (.cached, .running): return values + "; \(name) runs"
        case (.fresh, .ended), (.cached, .ended): return values + "; \(name) ended"
        }
    }

    /// The words for a snapshot that does not name its writer: what it records, without claiming it is current.
    private static func unnamedText(_ state: ServerSyncState, age: String?) -> String {
        switch state {
        case .waiting: return "no sync recorded yet"
        case .fresh, .cached: return age.map { "values from a sync \($0)" } ?? "values from a sync"
        case .stale(_, let reason): return "last sync failed: \(reason)" + (age.map { " · values from \($0)" } ?? "")
        case .error(let reason): return "error: \(reason)"
        }
    }

    /// The snapshot's problem, without the snapshot's path when the source shown is that path already.
    private var snapshotProblem: String? {
        guard let problem = status.snapshotProblem else { return nil }
        let prefix = status.source + ": "
        return problem.hasPrefix(prefix) ? String(problem.dropFirst(prefix.count)) : problem
    }

    /// Whether the status is a problem (stale or error someone still syncs, or a snapshot that cannot be used),
    /// drawn as one.
    package var isProblem: Bool { (status.state.reason != nil && !nobodySyncs) || status.snapshotProblem != nil }

    /// Whether the values come from a program that ended: nobody syncs them any more, drawn grey.
    package var nobodySyncs: Bool {
        guard followsSnapshot, let writer else { return false }
        return writer.liveness == .ended || (writer.liveness == .thisMenu && writer.program?.isRunning == false)
    }

    /// The note at the right of the line on where the status comes from, or `nil` when the status says it.
    package var originNote: String? {
        guard followsSnapshot else { return "synced by this menu" }
        return writer == nil ? "from a snapshot that does not name its program" : nil
    }
}
