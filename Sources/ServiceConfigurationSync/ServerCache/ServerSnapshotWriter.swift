import Foundation
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The program whose sync wrote a snapshot: its name, process and when that process started, so a reader can say
/// whose values it shows and whether that program still runs (and so still syncs).
///
/// In the file: `"writer": {"program": "config-demo", "pid": 4242, "processStart": "6c1c…/123456"}`. A snapshot
/// written before the field existed has none; readers then do not know who wrote it.
package struct ServerSnapshotWriter: Sendable, Hashable {
    /// The program's process name.
    package var programName: String
    /// Its process identifier.
    package var processIdentifier: Int32
    /// When its process started, as ``ProcessLiveness`` identifies it; `nil` where the system does not say.
    package var processStart: String?

    package init(programName: String, processIdentifier: Int32, processStart: String?) {
        self.programName = programName
        self.processIdentifier = processIdentifier
        self.processStart = processStart
    }

    /// This process.
    package static func current() -> ServerSnapshotWriter {
        let pid = getpid()
        return ServerSnapshotWriter(
            programName: ProcessInfo.processInfo.processName, processIdentifier: pid,
            processStart: ProcessLiveness.startIdentity(of: pid))
    }

    /// Whether the writer is this very process.
    package var isCurrentProcess: Bool {
        processIdentifier == getpid()
            && (processStart == nil || processStart == ProcessLiveness.startIdentity(of: getpid()))
    }

    /// Whether the writer still runs (the same process, where the system can tell; see ``ProcessLiveness``).
    package var isRunning: Bool {
        ProcessLiveness.isRunning(pid: processIdentifier, startIdentity: processStart)
    }
}
