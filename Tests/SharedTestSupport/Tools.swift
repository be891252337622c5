public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The executables built beside the test binary: `config-menu`, `config-demo`, `store-test-helper`, ...
public enum BuiltTools {
    /// The folder that holds them: the nearest folder above the test binary with a `config-menu` in it.
    public static let folder: URL = {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("config-menu").path),
            folder.path != "/"
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The path of the built `tool`.
    public static func path(_ tool: String) -> String { folder.appendingPathComponent(tool).path }
}

/// Runs the built `tool` (`config-menu`, `config-demo`, `store-test-helper`) to its end, without a terminal: its
/// standard input is `input` or `/dev/null`, its output is collected (or goes to `standardOutput`). `directory` is
/// its working directory. A tool still running after `timeout` seconds (config-demo runs until stopped) gets
/// `timeoutSignal`.
public func runTool(
    _ tool: String, _ arguments: [String], environment: ChildProcess.Environment = .current, directory: URL? = nil,
    input: Data? = nil, standardOutput: ChildProcess.Output? = nil, timeout: Double? = nil,
    timeoutSignal: Int32 = SIGTERM
) throws -> ToolRun {
    try ChildProcess.run(
        BuiltTools.path(tool), arguments, environment: environment, directory: directory?.path, input: input,
        standardOutput: standardOutput, timeout: timeout, timeoutSignal: timeoutSignal)
}

/// Runs the real `config-menu` binary to its end, without a terminal.
public func configMenu(
    _ arguments: [String], environment: ChildProcess.Environment = .current, standardOutput: ChildProcess.Output? = nil
) throws -> ToolRun {
    try runTool("config-menu", arguments, environment: environment, standardOutput: standardOutput)
}
