import Foundation
import ServiceConfiguration
import ServiceConfigurationEtcd
import ServiceConfigurationFileStore

/// One message the menu showed — a status after an action, a warning, an error — kept whole in the message log
/// (`L`), however much of it the footer or the title bar had room for.
package struct MenuMessage: Equatable, Sendable {
    /// What kind of message.
    package enum Kind: Equatable, Sendable {
        /// A status: what an action did.
        case info
        /// Something works less well than it should (live reload degraded, server values stale).
        case warning
        /// Something failed (a change not saved, the store unreadable).
        case error
    }

    /// What kind of message.
    package var kind: Kind
    /// The whole text.
    package var text: String
    /// When it was shown last, in seconds on the loop's monotonic clock.
    package var clock: Double
    /// How many times in a row it was shown.
    package var repeats = 1

    package init(kind: Kind, text: String, clock: Double) {
        self.kind = kind
        self.text = text
        self.clock = clock
    }
}

extension MenuState {
    /// The most messages the log keeps (the oldest go first).
    package static let messageLimit = 1000

    /// Adds a message to the log; one shown again right after itself counts as a repeat.
    package mutating func log(_ text: String, kind: MenuMessage.Kind) {
        if var last = messages.last, last.text == text, last.kind == kind {
            last.repeats += 1
            last.clock = clock
            messages[messages.count - 1] = last
            return
        }
        messages.append(MenuMessage(kind: kind, text: text, clock: clock))
        if messages.count > Self.messageLimit { messages.removeFirst(messages.count - Self.messageLimit) }
    }

    /// `14:05:12`: the UTC time of day of a moment on the loop's clock.
    package func timeOfDay(_ clock: Double) -> String {
        String(Timestamp.format(Date(timeIntervalSince1970: wallClockOffset + clock)).dropFirst(11).prefix(8))
    }

    /// The problems the title bar and the server line show.
    package struct Problems: Equatable, Sendable {
        var storeProblem: String?
        var liveReloadProblem: String?
        var serverReason: String?

        /// None.
        static let none = Problems()
    }

    /// The problems shown now.
    package var problems: Problems {
        Problems(
            storeProblem: data.storeProblem, liveReloadProblem: data.liveReloadProblem,
            serverReason: data.server?.status.state.reason)
    }

    /// Logs what changed in the store's and the server's problems from `before` to now: each new problem, and
    /// each recovery, so the log holds what the title bar and the server line said even after they moved on.
    package mutating func logProblems(since before: Problems) {
        if data.storeProblem != before.storeProblem {
            if let problem = data.storeProblem {
                log("store error: " + problem, kind: .error)
            } else {
                log("the store's error is gone: it was read or written again", kind: .info)
            }
        }
        if data.liveReloadProblem != before.liveReloadProblem {
            if let problem = data.liveReloadProblem {
                // The reason can change while it stays degraded (a new retry time): only a new problem is logged.
                if before.liveReloadProblem == nil { log("live reload degraded: " + problem, kind: .warning) }
            } else {
                log("live reload works again: changes made elsewhere show at once", kind: .info)
            }
        }
        let reason = data.server?.status.state.reason
        let previous = before.serverReason
        if reason != previous, let server = data.server {
            if let reason {
                if previous == nil { log("server values \(server.status.state.name): \(reason)", kind: .warning) }
            } else if previous != nil {
                log("server values \(server.status.state.name) again (\(server.status.source))", kind: .info)
            }
        }
    }
}
