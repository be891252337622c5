public import Foundation
import ServiceConfigurationCore
import ServiceConfigurationFiles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The history journal a ``FileOverrideStore`` keeps beside its file: every change (who, when, why, each key's entry
/// before and after), so `config-menu history` can list them and an undo can put back what another process changed,
/// also after a restart.
///
/// Files, beside the store's target (`overrides.json`):
/// - `overrides.json.journal`: one JSON object per line, appended under the store's lock right after the store is
///   saved (see ``OverrideJournalRecord``);
/// - `overrides.json.journal.1`: the previous journal: when the journal passes ``rotationSize`` it is renamed to this
///   name (replacing the one before), so the history keeps the last 1 to 2 MiB of changes;
/// - `overrides.json.journaled`: the store as the journal last recorded it. A writer that finds the store different
///   from it first journals the difference as a change made outside (a hand edit, or a writer stopped between its
///   save and its journal line), so no change goes unrecorded and readers never write. Without it (deleted by hand,
///   refused), the store as the journal's records leave each key they name stands in for it.
///
/// The store is saved first and is what counts: a crash between the save and the journal line may lose that line
/// (the next writer then records the change as made outside), never the change. The line is written before the base,
/// so a line that cannot be written leaves the base as it was and the change is recorded as made outside later; a
/// crash between the line and the base records the change twice (its line, then as made outside). Journal failures
/// (a full disk) do not fail the change; ``FileOverrideStore/journalProblem`` reports them.
public struct OverrideJournal: Sendable {
    /// The size past which the journal is rotated: 1 MiB.
    public static let rotationSize = 1 << 20
    /// The largest record: 512 KiB. A larger change is journaled with its keys only (and cannot be undone).
    public static let maximumRecordSize = 512 << 10

    /// The journal file.
    public let url: URL
    /// The previous journal, after a rotation.
    public var rotatedURL: URL { URL(fileURLWithPath: url.path + ".1") }
    /// The store as the journal last recorded it.
    public let baseURL: URL
    let faults: StoreFaultInjector?

    /// The journal of the store file whose target is `storePath`.
    init(storePath: String, faults: StoreFaultInjector?) {
        url = URL(fileURLWithPath: storePath + ".journal")
        baseURL = URL(fileURLWithPath: storePath + ".journaled")
        self.faults = faults
    }

    private func check(_ operation: StoreFileOperation) throws(StoreFile.Failure) {
        if let code = faults?(operation) { throw .system("cannot write the journal", code) }
    }

    // MARK: Appending

    /// Appends records, each on its own line, then rotates if the journal passed ``rotationSize``. Throws when the
    /// lines could not be written; a rotation that failed after they were is returned as a problem (the records are
    /// in the journal, which rotates at the next append that can).
    func append(_ records: [OverrideJournalRecord]) throws(StoreFile.Failure) -> String? {
        guard !records.isEmpty else { return nil }
        try check(.journalAppend)
        let path = url.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open the journal \(path)", errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the journal \(path)", errno) }
        try Self.checkPrivate(info, path: path)
        var bytes: [UInt8] = []
        // A writer killed half-way through its line left no newline: start on a fresh line, so only that line is lost.
        if info.st_size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, off_t(info.st_size - 1)) == 1, last != 0x0A { bytes.append(0x0A) }
        }
        for record in records { bytes += record.encodedLine() }
        try StoreFile.writeAll(bytes, to: descriptor, action: "cannot write the journal \(path)")
        if Int(info.st_size) + bytes.count > Self.rotationSize, rename(path, rotatedURL.path) != 0 {
            return StoreFile.Failure.system("cannot rotate the journal \(path) to \(rotatedURL.path)", errno).problem
        }
        return nil
    }

    /// Refuses a journal that is not a private regular file of this user: it holds the same values as the store.
    private static func checkPrivate(_ info: stat, path: String) throws(StoreFile.Failure) {
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw StoreFile.Failure(kind: .insecure, problem: "the journal \(path) is not a regular file")
        }
        guard info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw StoreFile.Failure(
                kind: .insecure,
                problem: "the journal \(path) belongs to another user or others can write it; it is not used. "
                    + "Fix: remove it (rm \(path)); the next change starts a new one")
        }
    }

    // MARK: The store as last recorded

    /// What ``baseURL`` holds: the store's fingerprint when it was written, and the store's bytes then.
    struct Base {
        var fingerprint: FileFingerprint?
        var bytes: [UInt8]
    }

    /// Records `bytes` (the store as just saved, `fingerprint` its file) as the state the journal has recorded: a
    /// header line, then the bytes. Written to a temporary file and renamed, without a flush (a crash may lose it;
    /// the next writer then journals the last change again as made outside, which loses nothing).
    func writeBase(_ bytes: [UInt8], fingerprint: FileFingerprint?) throws(StoreFile.Failure) {
        try check(.journalBase)
        var header: [(key: String, value: JSONValue)] = [
            ("format", .string("service-configuration-journal-base")), ("version", .number("1")),
        ]
        if let fingerprint {
            header.append(
                (
                    "store",
                    .object([
                        ("device", .number(String(fingerprint.device))), ("inode", .number(String(fingerprint.inode))),
                        ("size", .number(String(fingerprint.size))),
                        ("modified", .number(String(fingerprint.modified))),
                        ("changed", .number(String(fingerprint.changed))),
                    ])
                ))
        } else {
            header.append(("store", .null))
        }
        var headerLine: [UInt8] = []
        JSONWriter.append(.object(header), to: &headerLine)
        headerLine.append(0x0A)
        let path = baseURL.path
        let temporary =
            "\(StoreFile.folder(of: path))/.\(baseURL.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot write \(temporary)", errno) }
        do {
            defer { close(descriptor) }
            // The header, then the store's bytes as they are (not copied after the header: 6 MB at 100,000 overrides).
            try StoreFile.writeAll(headerLine, to: descriptor, action: "cannot write \(temporary)")
            try StoreFile.writeAll(bytes, to: descriptor, action: "cannot write \(temporary)")
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system("cannot replace \(path)", code)
        }
    }

    /// What the base says about the store's file, which now has `fingerprint`.
    enum BaseState {
        /// The base was written with the file as it is now: nothing changed since.
        case current
        /// The store as the journal last recorded it; the file changed since (or the base cannot tell).
        case recorded(Base)
        /// There is no usable base: none yet, deleted by hand, or refused (not a private regular file, not this
        /// format). The journal's records are then all that is known of the store as recorded.
        case missing
    }

    /// The store as the journal last recorded it, compared with the store's file that now has `fingerprint`.
    func base(comparedTo fingerprint: FileFingerprint?) -> BaseState {
        let path = baseURL.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .missing }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (try? Self.checkPrivate(info, path: path)) != nil,
            info.st_size <= OverrideStoreLimits.maximumFileSize + 4096
        else { return .missing }
        // The header line first: when it names the file as it is now, nothing else is read.
        var head = [UInt8](repeating: 0, count: min(4096, Int(info.st_size)))
        let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0, let newline = head[..<count].firstIndex(of: 0x0A),
            case .object(let header)? = try? StrictJSON.parse(Array(head[..<newline]))
        else { return .missing }
        let recorded = Self.fingerprint(in: header)
        if recorded == fingerprint { return .current }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + total, $0.count - total, off_t(total))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            total += got
        }
        guard total > newline else { return .missing }
        return .recorded(Base(fingerprint: recorded, bytes: Array(bytes[(newline + 1)..<total])))
    }

    /// The store as the journal's `records` (oldest first) leave it, for a journal whose base is missing: `current`
    /// with every key the records name set to what their last record made it. Keys the records do not name, or name
    /// without their entries (a change too large to record), are taken as they are now: nothing is known of them.
    /// `nil` when that is `current` itself.
    static func derivedBase(records: [OverrideJournalRecord], current: OverrideDocument) -> [UInt8]? {
        var known: [String: OverrideEntry?] = [:]
        for record in records {
            for change in record.changes {
                if record.entriesOmitted {
                    known.removeValue(forKey: change.key)
                } else {
                    known[change.key] = .some(change.new)
                }
            }
        }
        var document = current
        for (key, entry) in known where document[key] != entry { document[key] = entry }
        guard document != current else { return nil }
        var bytes: [UInt8] = []
        document.encode(into: &bytes)
        return bytes
    }

    /// The store's fingerprint recorded in a base header (`nil` for `"store": null`: there was no file).
    private static func fingerprint(in header: [(key: String, value: JSONValue)]) -> FileFingerprint? {
        guard case .object(let store)? = header.first(where: { $0.key == "store" })?.value else { return nil }
        func number(_ name: String) -> Int64? {
            guard case .number(let literal)? = store.first(where: { $0.key == name })?.value else { return nil }
            return Int64(literal) ?? UInt64(literal).map { Int64(bitPattern: $0) }
        }
        guard let device = number("device"), let inode = number("inode"), let size = number("size"),
            let modified = number("modified"), let changed = number("changed")
        else { return nil }
        return FileFingerprint(
            device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, modified: modified,
            changed: changed)
    }

    // MARK: Reading

    /// The records of the rotated journal and the current one, oldest first; lines that cannot be read are counted
    /// (a line cut short by a killed writer, a line of a newer build) and skipped.
    func readRecords() -> (records: [OverrideJournalRecord], unreadable: Int, problem: String?) {
        var records: [OverrideJournalRecord] = []
        var unreadable = 0
        var problem: String?
        for file in [rotatedURL, url] {
            let loaded: [UInt8]?
            do throws(StoreFile.Failure) {
                loaded = try Self.load(file)
            } catch {
                problem = error.problem
                continue
            }
            guard let bytes = loaded else { continue }
            bytes.withUnsafeBufferPointer { buffer in
                var start = 0
                while start < buffer.count {
                    let end = buffer[start...].firstIndex(of: 0x0A) ?? buffer.count
                    if end > start {
                        do throws(OverrideJournalRecord.LineError) {
                            records.append(
                                try OverrideJournalRecord(line: UnsafeBufferPointer(rebasing: buffer[start..<end])))
                        } catch {
                            unreadable += 1
                        }
                    }
                    start = end + 1
                }
            }
        }
        return (records, unreadable, problem)
    }

    /// The bytes of the journal file at `url`, `nil` when there is none; refused as appends refuse it: a symbolic
    /// link, anything but a private regular file of this user, or a file far past the rotation size.
    private static func load(_ url: URL) throws(StoreFile.Failure) -> [UInt8]? {
        let path = url.path
        let options = BoundedFileReader.Options(
            limit: OverrideStoreLimits.maximumFileSize, followsFinalLink: false, missingIsNil: true)
        let opened: BoundedFileReader.OpenFile?
        do throws(BoundedFileReader.Failure) {
            opened = try BoundedFileReader.open(path, options)
        } catch {
            throw refusal(error)
        }
        guard let file = opened else { return nil }
        try checkPrivate(file.info, path: path)
        do throws(BoundedFileReader.Failure) {
            return try file.read()
        } catch {
            throw refusal(error)
        }
    }

    /// The journal's own words for why the reader refused a journal file.
    private static func refusal(_ error: BoundedFileReader.Failure) -> StoreFile.Failure {
        let path = error.path
        let limit = ByteCount.describe(OverrideStoreLimits.maximumFileSize)
        switch error.reason {
        case .symbolicLink:
            return StoreFile.Failure(
                kind: .insecure,
                problem: "the journal \(path) is a symbolic link; it is not read or written (the history lives "
                    + "beside the store's file). Fix: remove it (rm \(path)); the next change starts a new one")
        case .tooLarge(let size?, _):
            return StoreFile.Failure(
                kind: .corrupt,
                problem: "the journal \(path) is \(ByteCount.describe(size)), over the limit of \(limit) for a "
                    + "journal; it is not read")
        case .tooLarge(nil, _):
            return StoreFile.Failure(
                kind: .corrupt,
                problem: "the journal \(path) grew while it was read, over the limit of \(limit) for a journal; it "
                    + "is not read")
        case .missing: return .system("cannot open the journal \(path)", ENOENT)
        case .system(let action, let code): return .system("\(action) the journal \(path)", code)
        case .folder, .notRegularFile:
            return StoreFile.Failure(kind: .insecure, problem: "the journal \(path) is not a regular file")
        }
    }

    /// The fingerprints of the two journal files (of a link, not what it points to), to tell whether they changed
    /// since they were read.
    func fingerprints() -> [FileFingerprint?] {
        [rotatedURL, url].map { file in
            var info = stat()
            return lstat(file.path, &info) == 0 ? FileFingerprint(info) : nil
        }
    }

    /// A stable id for the change from `base` to `current` made outside the journaling writers, so a reader that
    /// shows it before it is recorded and the writer that records it name it alike (an undo then finds it).
    static func outsideID(base: [UInt8], current: [UInt8]) -> String {
        "outside-" + String(fnv1a(base), radix: 16) + "-" + String(fnv1a(current), radix: 16)
    }

    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
