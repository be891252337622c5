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
}
