import Foundation
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The POSIX side of program reports: a private folder, atomic replacement, and careful reads.
enum ProgramReportFile {
    /// Reports larger than this are refused unread (a report of 100,000 keys read is about 10 MiB).
    static let maximumSize = 32 << 20

    /// A failure with what to do about it.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String

        static func system(_ action: String, _ code: Int32) -> Failure {
            Failure(description: "\(action): \(String(cString: strerror(code))) (errno \(code))")
        }
    }

    /// Creates `folder` with mode 0700 (and its missing parents when `createParents`), and refuses a folder that is
    /// a symbolic link, belongs to another user, or that other users can write to.
    ///
    /// A publisher creates parents only before its first report: a store folder someone deletes while the program
    /// runs is theirs to recreate, and creating it again mid-deletion would make their `rm -r` fail.
    static func prepare(folder: URL, createParents: Bool) throws(Failure) {
        let path = folder.path
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        if missing.count > 1, !createParents {
            throw Failure(description: "the folder \(missing[missing.count - 1]) no longer exists")
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .system("cannot create the folder \(directory)", errno)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system("cannot inspect the folder \(path)", errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "\(path) is not a folder (or is a symbolic link); remove it")
        }
        guard info.st_uid == geteuid() else {
            throw Failure(description: "the folder \(path) belongs to another user (uid \(info.st_uid)); remove it")
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0, mode & 0o1000 == 0 {
            throw Failure(
                description: "the folder \(path) is writable by other users (mode \(String(mode, radix: 8))); "
                    + "chmod 700 it")
        }
    }

    /// Replaces `url` atomically with `data`: a new file (mode 0600) in the same folder, renamed over the old one.
    /// Readers see the old report or the new one, never a mixture. Not flushed to disk: a report only matters while
    /// the system runs.
    static func save(_ data: Data, to url: URL) throws(Failure) {
        let folder = url.deletingLastPathComponent().path
        let temporary =
            "\(folder)/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot create a file in \(folder)", errno) }
        var committed = false
        defer { if !committed { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            var written = 0
            while written < data.count {
                let count = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure.system("cannot write \(temporary)", errno)
                }
                written += count
            }
        }
        guard rename(temporary, url.path) == 0 else { throw .system("cannot replace \(url.path)", errno) }
        committed = true
    }

    /// Appends `bytes` to the file at `url` (a report's log) in one write, creating it with mode 0600 (emptied
    /// first when `startingOver`); refuses a link or anything but this user's regular file. A reader sees a line
    /// without its newline only while it is being written, and waits for the rest.
    static func append(_ bytes: [UInt8], to url: URL, startingOver: Bool) throws(Failure) {
        let descriptor = open(
            url.path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (startingOver ? O_TRUNC : 0), 0o600)
        guard descriptor >= 0 else { throw .system("cannot open \(url.path)", errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            throw Failure(description: "\(url.path) is not this user's regular file")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("cannot write \(url.path)", errno)
            }
            written += count
        }
    }

    /// Removes the temporary files (`.<name>.json.tmp-<pid>-<random>`, see ``save(_:to:)``) that writers which died
    /// mid-write left in `folder`; a file of a process that still runs is left alone.
    static func removeAbandonedTemporaryFiles(in folder: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix(".") && name.contains(".json.tmp-") {
            let fields = name.split(separator: "-")
            guard fields.count >= 3, let pid = Int32(fields[fields.count - 2]),
                !ProcessLiveness.isRunning(pid: pid, startIdentity: nil)
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// The bytes of the report file at `url`: a regular file (symbolic links are not followed) of at most
    /// ``maximumSize`` bytes.
    static func load(_ url: URL) throws(Failure) -> Data {
        Data(try load(url, from: 0))
    }

    /// The bytes of the file at `url` from `offset` to its end, checked as ``load(_:)`` checks a report.
    static func load(_ url: URL, from offset: Int) throws(Failure) -> [UInt8] {
        let options = BoundedFileReader.Options(limit: maximumSize, followsFinalLink: false, offset: offset)
        do throws(BoundedFileReader.Failure) {
            return try BoundedFileReader.read(url.path, options) ?? []
        } catch {
            switch error.reason {
            case .missing: throw .system("cannot open", ENOENT)
            case .symbolicLink: throw Failure(description: "a symbolic link; reports are regular files")
            case .folder, .notRegularFile: throw Failure(description: "not a regular file")
            case .tooLarge(let size?, _):
                throw Failure(description: "\(size >> 20) MiB; the limit is \(maximumSize >> 20) MiB")
            case .tooLarge(nil, _):
                throw Failure(description: "grew while read; the limit is \(maximumSize >> 20) MiB")
            case .system(let action, let code): throw .system(action, code)
            }
        }
    }
}
