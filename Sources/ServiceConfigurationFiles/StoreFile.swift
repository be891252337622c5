package import Foundation
package import ServiceConfigurationCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The identity of one version of the store file, from `stat`: an atomic replace always changes the inode.
package struct FileFingerprint: Sendable, Hashable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: Int64
    package var changed: Int64

    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            changed = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
    }
}

/// File operations a test can make fail, to check how the store behaves on a full disk or a read-only folder.
package enum StoreFileOperation: Sendable, Hashable {
    case createDirectory, lock, write, sync, rename
    /// Recording the saved store as the journal's base (after the store is saved).
    case journalBase
    /// Appending to the history journal (after the base).
    case journalAppend
}

/// Makes chosen operations fail with an `errno`; `nil` lets them run.
package typealias StoreFaultInjector = @Sendable (StoreFileOperation) -> Int32?

/// The store's POSIX file handling: advisory locking, safe reads with permission checks, atomic replacement, and
/// moving refused files aside.
///
/// A store reached through a symbolic link is the link's target: every read, check, lock and replacement applies to
/// the target, in the target's own folder; the link is never replaced.
///
/// A file *confined* to a folder (an iOS Simulator app's data container, which belongs to the app under test) is
/// the opposite: no symbolic link in that folder is followed, neither the file itself nor any folder between the
/// confining folder and it, so every path the store uses resolves inside it.
package struct StoreFile: Sendable {
    /// The path as given (possibly a symbolic link).
    package let url: URL
    package let faults: StoreFaultInjector?
    /// How long a writer waits for another process's lock before it gives up.
    package let lockTimeout: Duration
    /// The folder (links resolved) inside which nothing is followed, if the file is confined to one.
    package let confinement: String?

    /// How many copies of refused files are kept beside the store (the newest ones).
    package static let keptAsideCopies = OverrideStoreError.keptAsideCopies
    /// A temporary file older than this, left by a writer that was killed, is removed by the next writer.
    package static let staleTemporaryAge: Int64 = 60

    package init(
        url: URL, faults: StoreFaultInjector?, lockTimeout: Duration = .seconds(5), confinedTo confinement: URL? = nil
    ) {
        self.url = url
        self.faults = faults
        self.lockTimeout = lockTimeout
        self.confinement = confinement.map { folder in
            var root = folder.standardizedFileURL.resolvingSymlinksInPath().path
            while root.count > 1, root.hasSuffix("/") { root.removeLast() }
            return root
        }
    }

    /// The path as given.
    package var path: String { url.path }

    /// A failure with its `errno`, turned into an ``OverrideStoreError`` by the caller.
    package struct Failure: Error {
        package var kind: OverrideStoreError.Kind
        package var problem: String
        package var preservedAt: URL?
        /// The file is in a newer format, or is not a regular file: a writer must not replace it.
        package var mustNotReplace = false

        /// A failure of `kind`, saying `problem`.
        package init(
            kind: OverrideStoreError.Kind, problem: String, preservedAt: URL? = nil, mustNotReplace: Bool = false
        ) {
            self.kind = kind
            self.problem = problem
            self.preservedAt = preservedAt
            self.mustNotReplace = mustNotReplace
        }

        package static func system(_ action: String, _ code: Int32) -> Failure {
            Failure(kind: .io, problem: "\(action): \(String(cString: strerror(code))) (errno \(code))")
        }

        package static let folder = Failure(
            kind: .io,
            problem: "this is a folder, not a file; name the store file itself (for example overrides.json inside it)",
            mustNotReplace: true)
    }

    private func check(_ operation: StoreFileOperation) throws(Failure) {
        if let code = faults?(operation) {
            throw .system(Self.describe(operation), code)
        }
    }

    private static func describe(_ operation: StoreFileOperation) -> String {
        switch operation {
        case .createDirectory: "cannot create the folder"
        case .lock: "cannot lock the store"
        case .write: "cannot save"
        case .sync: "cannot flush to disk"
        case .rename: "cannot replace the file"
        case .journalBase, .journalAppend: "cannot write the journal"
        }
    }

    // MARK: Where the file is

    /// The file itself: `path` with symbolic links in its last component followed (up to 32 of them), even to a
    /// target that does not exist yet; for a confined file, `path` itself once ``checkConfined(_:)`` found no link on
    /// the way. A path that names a folder throws.
    package func target() throws(Failure) -> String {
        guard !url.hasDirectoryPath, !path.hasSuffix("/"), !path.isEmpty else { throw .folder }
        if confinement != nil {
            try checkConfined(path)
            return path
        }
        return try Self.resolve(path)
    }

    /// For a confined file, refuses `path` unless it lies inside the confining folder and no part of it below that
    /// folder (the last one included) is a symbolic link; parts that do not exist yet are fine. Called before every
    /// operation, so a link planted since the last one is refused too. (A link swapped in between this check and the
    /// system call that follows it is not caught: that window is microseconds wide.)
    package func checkConfined(_ path: String) throws(Failure) {
        guard let root = confinement else { return }
        // Lexically: `standardizingPath` may resolve links, the very thing to look for.
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        let standardized = "/" + parts.joined(separator: "/")
        guard standardized.hasPrefix(root + "/") else {
            throw Failure(
                kind: .insecure, problem: "\(path) is not inside \(root), the folder it must stay in; it is refused",
                mustNotReplace: true)
        }
        var current = root
        for component in standardized.dropFirst(root.count + 1).split(separator: "/") {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return }
            if info.st_mode & S_IFMT == S_IFLNK {
                throw Failure(
                    kind: .insecure,
                    problem: "\(current) is a symbolic link inside \(root); the app that owns that folder could point "
                        + "it anywhere, so no link in it is followed and nothing was read or written through it. Fix: "
                        + "remove the link (rm '\(current.replacingOccurrences(of: "'", with: "'\\''"))')",
                    mustNotReplace: true)
            }
        }
    }

    /// `path` with symbolic links in its last component followed.
    package static func resolve(_ path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<32 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw .system("cannot read the symbolic link \(current)", errno) }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                link.hasPrefix("/")
                ? link : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
            if current.hasSuffix("/") { throw .folder }
        }
        throw Failure(kind: .io, problem: "too many levels of symbolic links")
    }

    package static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    // MARK: Folder and lock

    /// Creates the folder of `target` (and missing parents) with mode 0700.
    package func ensureFolder(of target: String) throws(Failure) {
        try check(.createDirectory)
        try checkConfined(target)
        var missing: [String] = []
        var current = Self.folder(of: target)
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .system("cannot create the folder \(directory)", errno)
        }
    }

    /// Refuses a folder others can write to (they could swap the file), unless it is sticky like `/tmp`.
    package func checkFolderPermissions(_ folder: String) throws(Failure) {
        var info = stat()
        guard stat(folder, &info) == 0 else { return }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0, mode & 0o1000 == 0 {
            throw Failure(
                kind: .insecure,
                problem:
                    "the folder \(folder) is writable by other users (mode \(String(mode, radix: 8))); an override "
                    + "store changes how programs behave, so it is refused. Fix: chmod 700 \(folder)"
            )
        }
    }

    /// Runs `body` with the file's target, holding an exclusive `flock` on `<target>.lock`, shared by every process
    /// using the store. Waits at most ``lockTimeout`` for another holder; refuses a lock file another user owns or
    /// others can write.
    package func withExclusiveLock<Result>(_ body: (String) throws(Failure) -> Result) throws(Failure) -> Result {
        let target = try target()
        // A folder, device or FIFO where the file should be is refused before anything (a lock file) is created.
        var info = stat()
        if stat(target, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR { throw .folder }
            throw Failure(kind: .insecure, problem: "this is not a regular file; it is refused", mustNotReplace: true)
        }
        try ensureFolder(of: target)
        try checkFolderPermissions(Self.folder(of: target))
        if target != path { try checkFolderPermissions(Self.folder(of: path)) }
        try check(.lock)
        let lockPath = target + ".lock"
        try checkConfined(lockPath)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open the lock file \(lockPath)", errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the lock file \(lockPath)", errno) }
        if info.st_mode & S_IFMT != S_IFREG || info.st_uid != geteuid() || info.st_mode & 0o022 != 0 {
            let why =
                info.st_mode & S_IFMT != S_IFREG
                ? "is not a regular file"
                : info.st_uid != geteuid()
                    ? "belongs to another user (uid \(info.st_uid))"
                    : "is writable by other users (mode \(String(info.st_mode & 0o7777, radix: 8)))"
            throw Failure(
                kind: .insecure,
                problem: "the lock file \(lockPath) \(why); another user could block or disturb every change, so it "
                    + "is refused. Fix: remove it (rm \(lockPath)); the next change creates a private one"
            )
        }
        let deadline = ContinuousClock.now + lockTimeout
        var pause: UInt32 = 1_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK || code == EAGAIN else { throw .system("cannot lock \(lockPath)", code) }
            guard ContinuousClock.now < deadline else {
                throw Failure(
                    kind: .io,
                    problem: "another process has held the lock file \(lockPath) for more than "
                        + "\(lockTimeout.components.seconds) s; nothing was changed. If no program using the store is "
                        + "running, remove the lock file and try again"
                )
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        return try body(target)
    }

    // MARK: Reading

    /// The current file's fingerprint (of the target, through symbolic links), or `nil` when there is no file.
    package func fingerprint() -> FileFingerprint? {
        var info = stat()
        return (confinement == nil ? stat(path, &info) : lstat(path, &info)) == 0 ? FileFingerprint(info) : nil
    }

    /// The file's bytes and fingerprint, or `nil` when there is no file. Refuses files others could have written,
    /// and anything that is not a regular file. Takes no lock and changes nothing: a replacement is atomic.
    package func load() throws(Failure) -> (bytes: [UInt8], fingerprint: FileFingerprint)? {
        let target = try target()
        let options = BoundedFileReader.Options(
            limit: OverrideStoreLimits.maximumFileSize, followsFinalLink: confinement == nil, missingIsNil: true)
        let opened: BoundedFileReader.OpenFile?
        do throws(BoundedFileReader.Failure) {
            opened = try BoundedFileReader.open(target, options)
        } catch {
            try refuse(error, target: target)
        }
        guard let file = opened else { return nil }
        try checkOwnership(file.info, target: target)
        try checkFolderPermissions(Self.folder(of: target))
        if target != path { try checkFolderPermissions(Self.folder(of: path)) }
        let fingerprint = file.fingerprint
        do throws(BoundedFileReader.Failure) {
            return (try file.read(), fingerprint)
        } catch {
            try refuse(error, target: target)
        }
    }

    /// The store's own words for why the reader refused the file.
    private func refuse(_ error: BoundedFileReader.Failure, target: String) throws(Failure) -> Never {
        let limit = ByteCount.describe(OverrideStoreLimits.maximumFileSize)
        switch error.reason {
        case .missing: throw .system("cannot open the file", ENOENT)
        case .symbolicLink:
            try checkConfined(target)
            throw .system("cannot open the file", ELOOP)
        case .folder: throw .folder
        case .notRegularFile:
            throw Failure(kind: .insecure, problem: "this is not a regular file; it is refused", mustNotReplace: true)
        case .tooLarge(let size?, _):
            throw Failure(kind: .corrupt, problem: "the file is \(ByteCount.describe(size)); the limit is \(limit)")
        case .tooLarge(nil, _):
            throw Failure(kind: .corrupt, problem: "the file grew while it was read; the limit is \(limit)")
        case .system(let action, let code): throw .system("\(action) the file", code)
        }
    }

    private func checkOwnership(_ info: stat, target: String) throws(Failure) {
        let mode = info.st_mode & 0o7777
        if info.st_uid != geteuid() {
            throw Failure(
                kind: .insecure,
                problem:
                    "the file belongs to another user (uid \(info.st_uid)); an override store changes how programs "
                    + "behave, so it is refused. Fix: remove it, or chown it to yourself and chmod 600 it",
                mustNotReplace: true
            )
        }
        if mode & 0o022 != 0 {
            throw Failure(
                kind: .insecure,
                problem: "the file is writable by other users (mode \(String(mode, radix: 8))); an override store "
                    + "changes how programs behave, so it is refused. Fix: chmod 600 \(target)",
                mustNotReplace: true
            )
        }
    }

    /// Refuses to replace a file its owner made read-only (mode 400): that is how a person pins a scenario.
    package func checkWritable(_ target: String) throws(Failure) {
        var info = stat()
        guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & S_IWUSR == 0 else { return }
        throw Failure(
            kind: .io,
            problem: "the file is read-only (mode \(String(info.st_mode & 0o7777, radix: 8))), so it is not changed. "
                + "To allow changes: chmod 600 \(target)",
            mustNotReplace: true
        )
    }

    // MARK: Writing

    /// Replaces `target` atomically: a new file in the same folder (mode 0600), written, flushed, renamed over the
    /// old one, and the folder flushed. Readers see the old file or the new one, never a mixture.
    package func replace(_ target: String, with bytes: [UInt8]) throws(Failure) -> FileFingerprint {
        try checkConfined(target)
        let folder = Self.folder(of: target)
        let name = (target as NSString).lastPathComponent
        let temporary = "\(folder)/.\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot create a file in \(folder)", errno) }
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try check(.write)
            try Self.writeAll(bytes, to: descriptor, action: "cannot save")
            try check(.sync)
            guard fsync(descriptor) == 0 else { throw Failure.system("cannot flush to disk", errno) }
        }
        try check(.rename)
        guard rename(temporary, target) == 0 else { throw .system("cannot replace the file", errno) }
        committed = true
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        var info = stat()
        guard stat(target, &info) == 0 else { throw .system("the saved file disappeared", ENOENT) }
        return FileFingerprint(info)
    }

    /// Writes every byte, retrying short writes and interruptions.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, action: String) throws(Failure) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.system(action, errno)
            }
            written += count
        }
    }

    /// Removes temporary files that killed writers left beside `target`: those whose process is gone, or older than
    /// ``staleTemporaryAge``. Call only under the lock (no live writer is then between create and rename).
    package func removeStaleTemporaryFiles(beside target: String) {
        let folder = Self.folder(of: target)
        let prefix = ".\((target as NSString).lastPathComponent).tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let now = Int64(Date().timeIntervalSince1970)
        for name in names where name.hasPrefix(prefix) {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) }
            let processGone = pid.map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? true
            if processGone || now - Int64(info.st_mtim.tv_sec) > Self.staleTemporaryAge { unlink(path) }
        }
    }

    /// Moves a refused regular file to `<name>.corrupt-<UTC timestamp>` (with a counter if taken), keeps only the
    /// newest ``keptAsideCopies`` such copies, and returns the new path.
    package func moveAside(_ target: String) throws(Failure) -> URL {
        try checkConfined(target)
        var info = stat()
        guard lstat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .folder }
        let folder = Self.folder(of: target)
        let prefix = (target as NSString).lastPathComponent + ".corrupt-"
        func copies() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { name in
                    var copy = stat()
                    return name.hasPrefix(prefix) && lstat(folder + "/" + name, &copy) == 0
                        && copy.st_mode & S_IFMT == S_IFREG
                }
                .sorted()
        }
        // Names sort by age: a second copy within the same second gets a counter above every existing one, so a
        // name freed by the pruning below is never reused for a newer copy.
        let stamp = Timestamp.format(Date()).filter { $0.isNumber || $0 == "T" }.prefix(15) + "Z"
        let counters = copies().compactMap { name -> Int? in
            guard name.hasPrefix(prefix + stamp) else { return nil }
            let rest = name.dropFirst(prefix.count + stamp.count)
            return rest.isEmpty ? 1 : Int(rest.dropFirst())
        }
        var counter = (counters.max() ?? 0) + 1
        var candidate = ""
        repeat {
            candidate =
                target + ".corrupt-" + stamp + (counter == 1 ? "" : "-" + (counter < 10 ? "0" : "") + String(counter))
            counter += 1
        } while access(candidate, F_OK) == 0
        guard rename(target, candidate) == 0 else { throw .system("cannot move the refused file aside", errno) }
        let copies = copies()
        for old in copies.dropLast(Self.keptAsideCopies) { unlink(folder + "/" + old) }
        return URL(fileURLWithPath: candidate)
    }

    /// Writes `bytes` to `destination` as a person means it: a device, FIFO or standard stream is written through
    /// (never replaced); a regular file, or a symbolic link to one, is replaced atomically in the target's folder; a
    /// missing folder is refused, never created.
    package static func export(_ bytes: [UInt8], to destination: String) throws(Failure) {
        let stream: Int32? =
            switch destination {
            case "/dev/stdout": 1
            case "/dev/stderr": 2
            default:
                destination.hasPrefix("/dev/fd/") ? Int32(destination.dropFirst("/dev/fd/".count)) : nil
            }
        if let stream {
            try writeAll(bytes, to: stream, action: "cannot write to \(destination)")
            return
        }
        let file = StoreFile(url: URL(fileURLWithPath: destination), faults: nil)
        let target = destination.hasSuffix("/") ? destination : try resolve(destination)
        var info = stat()
        if stat(target, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .folder }
            if info.st_mode & S_IFMT != S_IFREG {
                let descriptor = open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                guard descriptor >= 0 else { throw .system("cannot open \(target)", errno) }
                defer { close(descriptor) }
                try writeAll(bytes, to: descriptor, action: "cannot write to \(target)")
                return
            }
        } else if destination.hasSuffix("/") {
            throw .folder
        }
        let folder = folder(of: target)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(kind: .io, problem: "the folder \(folder) does not exist; create it first")
        }
        _ = try file.replace(target, with: bytes)
    }
}
