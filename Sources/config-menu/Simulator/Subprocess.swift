import Foundation
import ServiceConfiguration

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run to completion with its output captured: found on `PATH`, bounded in time and in the output
/// it may produce, never left running.
struct Subprocess {
    /// What the program did.
    struct Result {
        var status: Int32
        var output: Data
        var error: Data

        /// Standard error as text, trimmed (invalid UTF-8 repaired: it is only shown, escaped).
        var errorText: String {
            String(decoding: error, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Why the program could not be run to completion.
    enum Failure: Error {
        case launch(String)
        case timedOut(seconds: Int)
        case outputTooLarge(limit: Int)
    }

    let executable: URL

    /// The executable named `name` in the first folder of `path` (a `PATH` value) that holds one.
    static func find(_ name: String, path: String?) -> URL? {
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = URL(fileURLWithPath: String(folder), isDirectory: true).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Runs the program with `arguments` and standard input closed; stops it (SIGTERM, then SIGKILL) after
    /// `timeout`, and refuses more than `limit` bytes on either output.
    func run(_ arguments: [String], timeout: Duration, limit: Int = 32 << 20) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw Failure.launch(error.localizedDescription)
        }
        let readers = DispatchGroup()
        let output = Self.drain(outputPipe.fileHandleForReading, limit: limit, group: readers)
        let error = Self.drain(errorPipe.fileHandleForReading, limit: limit, group: readers)
        let milliseconds = max(
            1, Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000))
        let seconds = (milliseconds + 999) / 1000
        if exited.wait(timeout: .now() + .milliseconds(milliseconds)) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + .seconds(2)) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            _ = readers.wait(timeout: .now() + .seconds(2))
            throw Failure.timedOut(seconds: seconds)
        }
        // A grandchild that kept a pipe open must not hold the tool: the outputs are read for 5 s more at most.
        _ = readers.wait(timeout: .now() + .seconds(5))
        let (outputBytes, outputFull) = output.withLock { $0 }
        let (errorBytes, errorFull) = error.withLock { $0 }
        if outputFull || errorFull { throw Failure.outputTooLarge(limit: limit) }
        return Result(status: process.terminationStatus, output: outputBytes, error: errorBytes)
    }

    /// Reads `handle` to its end on another thread, keeping at most `limit` bytes (and whether there were more).
    private static func drain(_ handle: FileHandle, limit: Int, group: DispatchGroup) -> Locked<(Data, Bool)> {
        let collected = Locked<(Data, Bool)>((Data(), false))
        group.enter()
        DispatchQueue.global().async {
            defer { group.leave() }
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                collected.withLock { state in
                    if state.0.count + chunk.count > limit {
                        state.1 = true
                    } else {
                        state.0.append(chunk)
                    }
                }
            }
        }
        return collected
    }
}
