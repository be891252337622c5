import Foundation

/// Runs `$VISUAL`/`$EDITOR` (or `vi`) on a value in a private temporary file, with the terminal handed over, and
/// reports what came back as an action.
struct ExternalEditor {
    let terminal: any TerminalDevice

    /// Edits `text` (the value of the key named `name`) and returns the outcome for key index `key`.
    func edit(key: Int, text: String, name: String) -> MenuAction {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-menu-\(UUID().uuidString)")
        let file = folder.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_") + ".txt")
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data((text + "\n").utf8).write(to: file)
            let status = try terminal.suspend { () throws -> Int32 in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(editor) \"$1\"", "editor", file.path]
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
            guard status == 0 else {
                return .externalEditFailed("\(editor) exited with status \(status); nothing was saved")
            }
            return .externalEditFinished(key: key, text: String(decoding: try Data(contentsOf: file), as: UTF8.self))
        } catch {
            return .externalEditFailed("cannot run \(editor): \(error.localizedDescription)")
        }
    }
}
