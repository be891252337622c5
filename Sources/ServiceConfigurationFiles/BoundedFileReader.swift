package import Foundation
import ServiceConfigurationCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one way the package reads a whole file: the override store, the server snapshot, the journal, program
/// reports, manifests and server-values files all come through here.
///
/// A read never takes more than a limit (checked on `fstat` and again while reading, so a file that grows while it
/// is read is refused too), never hangs on a FIFO unless asked to read streams, never follows a final symbolic link
/// when told not to (confined folders), and closes its descriptor on every path. Failures name the file and say
/// what is wrong with it: `/tmp/x/server-snapshot.json is 314572800 bytes (300.0 MiB), more than the 16 MiB limit`,
/// `… is a FIFO, not a regular file`, `… is a symbolic link, which is not followed here`.
///
/// The bytes are `[UInt8]`: every parser in the package (``StrictJSON``, the journal's line reader, the snapshot)
/// takes `[UInt8]`, and the callers that need `Data` (`JSONDecoder`) wrap it once.
///
/// ```swift
/// let options = BoundedFileReader.Options(limit: 16 << 20, followsFinalLink: false)
/// guard let file = try BoundedFileReader.open(path, options) else { return nil }  // nil: no such file
/// try vet(file.info)                                                              // the caller's own checks
/// let bytes = try file.read()
/// ```
package enum BoundedFileReader {
    /// What differs between callers.
    package struct Options: Sendable {
        /// The largest number of bytes read (from ``offset`` on); a larger file is refused.
        package var limit: Int
        /// Whether a symbolic link as the path's last component is followed. `false` for a confined folder or a
        /// private file: the link itself is then refused (``Failure/Reason/symbolicLink``).
        package var followsFinalLink: Bool
        /// Whether a missing file is `nil` (`true`) or a ``Failure/Reason/missing`` failure.
        package var missingIsNil: Bool
        /// Whether FIFOs, character devices and standard streams (`/dev/stdin`, `<(command)`) are read as `cat`
        /// reads them, waiting for a FIFO's writer. `false` refuses anything but a regular file, and the open never
        /// blocks (`O_NONBLOCK`), so a FIFO planted where a file should be cannot hang the reader.
        package var readsStreams: Bool
        /// Where reading starts (a log read again from where the last read stopped); regular files only.
        package var offset: Int

        /// Options for a regular file of at most `limit` bytes.
        package init(
            limit: Int, followsFinalLink: Bool = true, missingIsNil: Bool = false, readsStreams: Bool = false,
            offset: Int = 0
        ) {
            self.limit = limit
            self.followsFinalLink = followsFinalLink
            self.missingIsNil = missingIsNil
            self.readsStreams = readsStreams
            self.offset = offset
        }
    }

    /// Why a file was not read: its path and the reason.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the file.
        package enum Reason: Sendable, Hashable {
            /// There is no such file (only when ``Options/missingIsNil`` is `false`).
            case missing
            /// The path is a symbolic link and ``Options/followsFinalLink`` is `false`.
            case symbolicLink
            /// The path is a folder.
            case folder
            /// The path is something else that is not a regular file; `kind` says what (`"a FIFO"`).
            case notRegularFile(kind: String)
            /// The file is `size` bytes, over `limit`; `size` is `nil` when it grew past the limit while it was
            /// read (or is a stream longer than the limit).
            case tooLarge(size: Int?, limit: Int)
            /// A system call failed: `action` (`"cannot open"`, `"cannot inspect"`, `"cannot read"`) and `errno`.
            case system(action: String, code: Int32)
        }

        /// The path as given.
        package var path: String
        /// What is wrong.
        package var reason: Reason

        /// A failure of the file at `path`.
        package init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// The reason alone, to follow the path: `is a FIFO, not a regular file`.
        package var problem: String {
            switch reason {
            case .missing: "does not exist"
            case .symbolicLink: "is a symbolic link, which is not followed here"
            case .folder: "is a folder, not a file"
            case .notRegularFile(let kind): "is \(kind), not a regular file"
            case .tooLarge(let size?, let limit):
                "is \(ByteCount.describe(size)), more than the \(ByteCount.describe(limit)) limit"
            case .tooLarge(nil, let limit):
                "grew past the \(ByteCount.describe(limit)) limit while it was read"
            case .system(let action, let code): "\(action): \(String(cString: strerror(code))) (errno \(code))"
            }
        }

        /// The path and the reason: `/tmp/x.json is a FIFO, not a regular file`.
        package var description: String {
            if case .system = reason { return "\(path): \(problem)" }
            return "\(path) \(problem)"
        }
    }

    /// An open file, checked to be one the options accept but not read yet, so that a caller can vet ``info``
    /// (owner, mode) before anything is read. Closes its descriptor when it goes away, read or not.
    package struct OpenFile: ~Copyable {
        /// The path as given.
        package let path: String
        /// What `fstat` says of the open file (the file itself, not a link that named it).
        package let info: stat
        private let descriptor: Int32
        private let options: Options

        fileprivate init(path: String, info: stat, descriptor: Int32, options: Options) {
            self.path = path
            self.info = info
            self.descriptor = descriptor
            self.options = options
        }

        deinit { close(descriptor) }

        /// The file's identity and size as opened.
        package var fingerprint: FileFingerprint { FileFingerprint(info) }

        /// Whether the open file is a regular file (not a stream).
        package var isRegularFile: Bool { info.st_mode & S_IFMT == S_IFREG }

        /// Reads the file to its end (from ``Options/offset``), refusing it when `fstat` already says it is larger
        /// than the limit, or when it grows past the limit while it is read. Retries short reads and
        /// interruptions.
        package consuming func read() throws(Failure) -> [UInt8] {
            let limit = options.limit
            var expected = 0
            if isRegularFile {
                let size = max(0, Int(info.st_size) - options.offset)
                guard size <= limit else { throw Failure(path: path, reason: .tooLarge(size: size, limit: limit)) }
                expected = size
                if options.offset > 0, lseek(descriptor, off_t(options.offset), SEEK_SET) < 0 {
                    throw Failure(path: path, reason: .system(action: "cannot read", code: errno))
                }
            }
            // One byte more than the limit allows, so that a file that grew past it is seen without reading more.
            // Read straight into the array's storage: zeroing it first was one more pass over every byte and page
            // (23 MB for a `set` on a store of 100,000 overrides and its manifest).
            var total = 0
            var outcome = Fill.full
            var bytes = [UInt8](unsafeUninitializedCapacity: min(limit, expected) + 1) { buffer, initialized in
                (total, outcome) = fill(buffer, from: 0)
                initialized = total
            }
            // A stream, or a file that grew: read on, growing the array.
            while outcome == .full {
                guard total <= limit else { throw Failure(path: path, reason: .tooLarge(size: nil, limit: limit)) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(total, 4096), limit + 1 - total)))
                (total, outcome) = bytes.withUnsafeMutableBufferPointer { fill($0, from: total) }
            }
            if case .failed(let code) = outcome {
                throw Failure(path: path, reason: .system(action: "cannot read", code: code))
            }
            guard total <= limit else { throw Failure(path: path, reason: .tooLarge(size: nil, limit: limit)) }
            bytes.removeSubrange(total...)
            return bytes
        }

        /// Reads into `buffer` from the file's current position until the buffer is full or the file ends; how many
        /// bytes it read. Retries short reads and interruptions; applies no limit (the buffer's size is one).
        package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
            let (total, outcome) = fill(buffer.bindMemory(to: UInt8.self), from: 0)
            if case .failed(let code) = outcome {
                throw Failure(path: path, reason: .system(action: "cannot read", code: code))
            }
            return total
        }

        /// Reads into `buffer` from `start` until it is full or the file ends, retrying interruptions; how far it
        /// got and why it stopped.
        private func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, from start: Int) -> (Int, Fill) {
            var total = start
            while total < buffer.count, let base = buffer.baseAddress {
                let count = readDescriptor(descriptor, base + total, buffer.count - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    return (total, .failed(errno))
                }
                if count == 0 { return (total, .ended) }
                total += count
            }
            return (total, .full)
        }
    }

    /// How ``OpenFile/fill(_:from:)`` stopped.
    private enum Fill: Equatable {
        /// The buffer is full; there may be more.
        case full
        /// The file ended.
        case ended
        /// A read failed with this `errno`.
        case failed(Int32)
    }

    /// Opens the file at `path` and checks what it is; `nil` when there is none and ``Options/missingIsNil``.
    package static func open(_ path: String, _ options: Options) throws(Failure) -> OpenFile? {
        let flags =
            O_RDONLY | O_CLOEXEC | O_NOCTTY | (options.readsStreams ? 0 : O_NONBLOCK)
            | (options.followsFinalLink ? 0 : O_NOFOLLOW)
        var descriptor: Int32
        repeat { descriptor = openDescriptor(path, flags) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT:
                if options.missingIsNil { return nil }
                throw Failure(path: path, reason: .missing)
            case ELOOP where !options.followsFinalLink:
                var info = stat()
                if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                    throw Failure(path: path, reason: .symbolicLink)
                }
            case EISDIR: throw Failure(path: path, reason: .folder)
            default: break
            }
            throw Failure(path: path, reason: .system(action: "cannot open", code: code))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(path: path, reason: .system(action: "cannot inspect", code: code))
        }
        let type = info.st_mode & S_IFMT
        let stream = type == S_IFIFO || type == S_IFCHR || type == S_IFSOCK
        let kind: String? =
            switch type {
            case S_IFREG: nil
            case _ where stream && options.readsStreams: nil
            case S_IFDIR: "a folder"
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            default: "not a file"
            }
        if let kind {
            close(descriptor)
            throw Failure(path: path, reason: type == S_IFDIR ? .folder : .notRegularFile(kind: kind))
        }
        return OpenFile(path: path, info: info, descriptor: descriptor, options: options)
    }

    /// The bytes of the file at `path` (from ``Options/offset`` to its end); `nil` when there is none and
    /// ``Options/missingIsNil``.
    package static func read(_ path: String, _ options: Options) throws(Failure) -> [UInt8]? {
        guard let file = try open(path, options) else { return nil }
        return try file.read()
    }
}

/// `open(2)`, out of reach of ``BoundedFileReader/open(_:_:)``'s name.
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

/// `read(2)`, out of reach of ``BoundedFileReader/OpenFile/read()``'s name.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
