import Foundation
import ServiceConfiguration
import ServiceConfigurationFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and standard error, written with every failure checked.
///
/// Human-readable text passes through `VisibleText.escaped` line by line, so nothing a value, note, title or path
/// holds reaches the terminal raw (text escaped once is unchanged by a second pass). JSON and profile documents are
/// written as they are: `JSONWriter` already escapes every control character.
enum Output {
    /// Standard output was closed by its reader (`config-menu list | head -1`): the command stops quietly.
    struct BrokenPipe: Error {}

    /// Makes sure descriptors 0, 1 and 2 are open, so no file the tool opens takes their place (a lock file opened as
    /// descriptor 1 would receive the output). A closed one is filled with `/dev/null` opened read-only, so writing to
    /// a closed standard output (`config-menu export >&-`) still fails, with "Bad file descriptor".
    static func guardStandardDescriptors() {
        for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
        // Writing to a closed pipe must return EPIPE rather than kill the process, so it can exit with its status.
        signal(SIGPIPE, SIG_IGN)
    }

    /// `text` for people: each line escaped, then a newline.
    static func line(_ text: String) throws {
        try data(
            Array(
                (text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    VisibleText.escaped(String($0))
                }.joined(separator: "\n") + "\n").utf8))
    }

    /// A JSON document on one line, exactly as `JSONWriter` writes it (it escapes every control character), then a
    /// newline.
    static func json(_ value: JSONValue) throws {
        var bytes: [UInt8] = []
        JSONWriter.append(value, to: &bytes)
        bytes.append(0x0A)
        try data(bytes)
    }

    /// A document (JSON, a profile) exactly as given.
    static func data(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(1, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE { throw BrokenPipe() }
                throw ToolError(
                    code: .ioFailure,
                    description: "cannot write to standard output: \(String(cString: strerror(code))) (errno \(code))")
            }
            written += count
        }
    }

    /// A message on standard error, escaped; failures to write it are ignored (there is nowhere left to say so).
    static func message(_ text: String) {
        let escaped = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            VisibleText.escaped(String($0))
        }.joined(separator: "\n")
        let bytes = Array("config-menu: \(escaped)\n".utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(2, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            written += count
        }
    }

    /// A question on standard error, escaped, without a newline (the answer is typed after it).
    static func prompt(_ text: String) {
        let bytes = Array(VisibleText.escaped(text).utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(2, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            written += count
        }
    }
}
