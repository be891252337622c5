public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a tool that ran to its end left: its exit status, its standard output and error.
public struct ToolRun {
    /// The exit status.
    public var status: Int32
    /// What it wrote to standard output.
    public var output: String
    /// What it wrote to standard error.
    public var error: String

    /// A run's outcome.
    public init(status: Int32, output: String, error: String) {
        self.status = status
        self.output = output
        self.error = error
    }
}

/// Runs the real `config-menu` binary without a terminal.
public func configMenu(_ arguments: [String]) throws -> ToolRun { try runTool("config-menu", arguments) }

/// Runs the built `tool` (`config-menu` or `config-demo`) with `arguments`. `environment` changes this process's
/// environment for it (a `nil` value removes the variable) and `directory` is its working directory. A tool still
/// running after `timeout` seconds (config-demo runs until stopped) is terminated.
public func runTool(
    _ tool: String, _ arguments: [String], environment: [String: String?] = [:], directory: URL? = nil,
    timeout: Double? = nil
) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TmuxSession.binary).deletingLastPathComponent()
        .appendingPathComponent(tool)
    process.arguments = arguments
    if !environment.isEmpty {
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
    }
    if let directory { process.currentDirectoryURL = directory }
    let output = Pipe()
    let error = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = error
    try process.run()
    if let timeout {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(
        status: process.terminationStatus,
        output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData, as: UTF8.self)
    )
}
