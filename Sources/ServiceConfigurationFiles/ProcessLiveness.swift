import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether the process that wrote a program report still runs.
///
/// A pid alone can be reused by an unrelated process after the writer died, so where the system says when a
/// process started (Linux: `/proc/<pid>/stat`, with the boot id) the report carries that too, and a pid whose start
/// differs counts as gone. Elsewhere only the pid is checked.
package enum ProcessLiveness {
    /// An opaque identity of the start of process `pid` (`"<boot id>/<start time in clock ticks>"` on Linux), or
    /// `nil` where the system does not say.
    package static func startIdentity(of pid: Int32) -> String? {
        #if os(Linux)
            guard
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after the command's closing parenthesis start at field 3; the start time is field 22.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 19, UInt64(fields[19]) != nil else { return nil }
            let boot =
                (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return "\(boot)/\(fields[19])"
        #else
            return nil
        #endif
    }

    /// Whether the process that wrote a report with `pid` and `startIdentity` still runs. The rule:
    /// - pid 1 (init, launchd) and below are never a report's writer: a report claiming them is not running;
    /// - where the system says when a process started (Linux), the report must say it too (every writer here
    ///   records it) and it must match: a report without it cannot be told from a pid reused since;
    /// - elsewhere the pid must exist (and, where that can be told, not be a zombie).
    package static func isReportWriter(pid: Int32, startIdentity expected: String?) -> Bool {
        guard pid > 1 else { return false }
        if expected == nil, startIdentity(of: pid) != nil { return false }
        return isRunning(pid: pid, startIdentity: expected)
    }

    /// Whether process `pid` exists (and is not a zombie) and, when `startIdentity` is given and can be checked, is
    /// the same process.
    package static func isRunning(pid: Int32, startIdentity expected: String?) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid, 0) != 0 && errno != EPERM { return false }
        #if os(Linux)
            // A killed process stays a zombie until its parent reaps it; it runs no more.
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"),
                let state = stat[stat.index(after: close)...].split(separator: " ").first,
                state == "Z" || state == "X"
            {
                return false
            }
        #endif
        if let expected, let current = startIdentity(of: pid), current != expected { return false }
        return true
    }
}
