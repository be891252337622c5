import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `$VISUAL`/`$EDITOR` (or `vi`) on a value in a private temporary file, with the terminal handed over, and
/// reports what came back as feedback.
///
/// The editor runs in the menu's own process group, which is the terminal's foreground group, so it can read the
/// keyboard (Foundation's `Process` starts children in a new session, where an interactive editor gets `EIO` on its
/// first read and exits at once).
struct ExternalEditor {
    let terminal: any TerminalDevice

    /// Runs the editor on `edit`'s text (the value of the key named `name`) and returns the outcome.
    func edit(_ edit: ExternalEdit, name: String) -> MenuFeedback {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-\(UUID().uuidString)")
        let file = folder.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_") + ".txt")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data((edit.text + "\n").utf8).write(to: file)
            let status = try terminal.suspend {
                try Self.runInForeground(["/bin/sh", "-c", "\(editor) \"$1\"", "editor", file.path])
            }
            guard status == 0 else {
                return .externalEditFailed("\(editor) exited with status \(status); nothing was saved")
            }
            return .externalEditFinished(edit, text: String(decoding: try Data(contentsOf: file), as: UTF8.self))
        } catch {
            return .externalEditFailed("cannot run \(editor): \(error)")
        }
    }

    /// Runs `arguments` in this process group and waits; returns its exit status (128 + the signal if killed).
    static func runInForeground(_ arguments: [String]) throws -> Int32 {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The editor must not inherit the menu's ignored keyboard signals.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGQUIT, SIGTSTP] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let result = posix_spawn(&pid, arguments[0], nil, &attributes, argv, environ)
        guard result == 0 else { throw SpawnError(code: result) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(code: errno) }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    struct SpawnError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}
