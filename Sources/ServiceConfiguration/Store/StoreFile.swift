import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The identity of one version of the store file, from `stat`: an atomic replace always changes the inode.
struct FileFingerprint: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    init(_ info: stat) {
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
}

/// Makes chosen operations fail with an `errno`; `nil` lets them run.
package typealias StoreFaultInjector = @Sendable (StoreFileOperation) -> Int32?

/// The store's POSIX file handling: advisory locking, safe reads with permission checks, atomic replacement, and
/// moving refused files aside.
struct StoreFile: Sendable {
    let url: URL
    let faults: StoreFaultInjector?

    var path: String { url.path }
    var folder: String { url.deletingLastPathComponent().path }
    var lockPath: String { path + ".lock" }

    /// A failure with its `errno`, turned into an ``OverrideStoreError`` by the caller.
    struct Failure: Error {
        var kind: OverrideStoreError.Kind
        var problem: String
        var preservedAt: URL?

        static func system(_ action: String, _ code: Int32) -> Failure {
            Failure(kind: .io, problem: "\(action): \(String(cString: strerror(code))) (errno \(code))")
        }
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
        }
    }

    // MARK: Folder and lock

    /// Creates the folder (and missing parents) with mode 0700.
    func ensureFolder() throws(Failure) {
        try check(.createDirectory)
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .system("cannot create the folder \(directory)", errno)
        }
    }

    /// Refuses a folder others can write to (they could swap the file), unless it is sticky like `/tmp`.
    func checkFolderPermissions() throws(Failure) {
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

    /// Runs `body` holding an exclusive `flock` on `<file>.lock`, shared by every process using the store.
    func withExclusiveLock<Result>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try ensureFolder()
        try checkFolderPermissions()
        try check(.lock)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open the lock file \(lockPath)", errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system("cannot lock \(lockPath)", errno) }
        }
        return try body()
    }

    /// Runs `body` holding a shared `flock` on `<file>.lock`, so no save lands while it reads. Where the lock file
    /// cannot be opened (a read-only folder, no folder yet), `body` runs unlocked: a rename is atomic anyway.
    func withSharedLock<Result>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let descriptor = access(folder, W_OK) == 0 ? open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) : -1
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_SH) != 0 {
            guard errno == EINTR else { return try body() }
        }
        return try body()
    }

    // MARK: Reading

    /// The current file's fingerprint, or `nil` when there is no file.
    func fingerprint() -> FileFingerprint? {
        var info = stat()
        return stat(path, &info) == 0 ? FileFingerprint(info) : nil
    }

    /// The file's bytes and fingerprint, or `nil` when there is no file. Refuses files others could have written.
    func load() throws(Failure) -> (bytes: [UInt8], fingerprint: FileFingerprint)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == EISDIR { throw Failure(kind: .corrupt, problem: "this is a folder, not a file") }
            throw .system("cannot open the file", errno)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the file", errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw Failure(kind: .corrupt, problem: "this is a folder, not a file") }
        guard type == S_IFREG else {
            throw Failure(kind: .insecure, problem: "this is not a regular file; it is refused")
        }
        try checkOwnership(info)
        try checkFolderPermissions()
        guard info.st_size <= OverrideDocument.maximumFileSize else {
            throw Failure(
                kind: .corrupt,
                problem:
                    "the file is \(info.st_size >> 20) MiB; the limit is \(OverrideDocument.maximumFileSize >> 20) MiB"
            )
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read the file", errno)
            }
            if count == 0 { break }
            total += count
        }
        bytes.removeSubrange(total...)
        return (bytes, FileFingerprint(info))
    }

    private func checkOwnership(_ info: stat) throws(Failure) {
        let mode = info.st_mode & 0o7777
        if info.st_uid != geteuid() {
            throw Failure(
                kind: .insecure,
                problem:
                    "the file belongs to another user (uid \(info.st_uid)); an override store changes how programs "
                    + "behave, so it is refused. Fix: remove it, or chown it to yourself and chmod 600 it"
            )
        }
        if mode & 0o022 != 0 {
            throw Failure(
                kind: .insecure,
                problem: "the file is writable by other users (mode \(String(mode, radix: 8))); an override store "
                    + "changes how programs behave, so it is refused. Fix: chmod 600 \(path)"
            )
        }
    }

    // MARK: Writing

    /// Replaces the file atomically: a new file in the same folder (mode 0600), written, flushed, renamed over the
    /// old one, and the folder flushed. Readers see the old file or the new one, never a mixture.
    func replace(with bytes: [UInt8]) throws(Failure) -> FileFingerprint {
        try ensureFolder()
        let temporary = "\(folder)/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot create a file in \(folder)", errno) }
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try check(.write)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Failure.system("cannot save", errno)
                }
                written += count
            }
            try check(.sync)
            guard fsync(descriptor) == 0 else { throw Failure.system("cannot flush to disk", errno) }
        }
        try check(.rename)
        guard rename(temporary, path) == 0 else { throw .system("cannot replace the file", errno) }
        committed = true
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        guard let fingerprint = fingerprint() else { throw .system("the saved file disappeared", ENOENT) }
        return fingerprint
    }

    /// Moves a refused file to `<name>.corrupt-<UTC timestamp>` (with a counter if taken) and returns the new path.
    func moveAside() throws(Failure) -> URL {
        let stamp = Timestamp.format(Date()).filter { $0.isNumber || $0 == "T" }.prefix(15) + "Z"
        var candidate = path + ".corrupt-" + stamp
        var counter = 2
        while access(candidate, F_OK) == 0 {
            candidate = path + ".corrupt-" + stamp + "-\(counter)"
            counter += 1
        }
        guard rename(path, candidate) == 0 else { throw .system("cannot move the refused file aside", errno) }
        return URL(fileURLWithPath: candidate)
    }
}
