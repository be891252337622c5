/// Ages as the tools show them: `12 s`, `3 min`, `2 h`, `4 d`.
package enum ServerSyncAge {
    /// `seconds` (0 or more) in the largest whole unit.
    package static func text(seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3600) h" }
        return "\(seconds / 86_400) d"
    }

    /// How long ago a moment `seconds` back was: `12 s ago`; a moment more than a second ahead (a clock set back,
    /// a snapshot written on another machine or by hand) is `3 min in the future`, never `0 s ago`.
    package static func relative(seconds: Int) -> String {
        seconds < -1 ? "\(text(seconds: -seconds)) in the future" : "\(text(seconds: seconds)) ago"
    }
}
