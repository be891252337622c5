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
/// - `overrides.json.journaled`: a snapshot of the store as the journal recorded it, kept incrementally: the journal's
///   records after the one it names (`through`) bring it up to date, so a change writes its record and not a second
///   copy of the store. Each record also names the store's file as that change left it (its `stat` identity), so
///   a writer sees from the journal's last line alone that nothing changed since. A writer that finds the store
///   different from the journal's last record first journals the difference from the snapshot brought up to date as
///   a change made outside (a hand edit, or a writer stopped between its save and its journal line), so no change
///   goes unrecorded and readers never write. A new snapshot is written when there is none, when the journal
///   rotates, when a record cannot carry its entries (too large), and after 256 KiB of records.
///   Without it (deleted by hand, refused), the store as the journal's records leave each key they name stands in
///   for it.
///
/// The store is saved first and is what counts: a crash between the save and the journal line may lose that line
/// (the next writer then records the change as made outside), never the change. The line is written before a
/// snapshot, so a line that cannot be written leaves the records as they were and the change is recorded as made
/// outside later; a crash between the line and a snapshot loses nothing (the line names the file it left, and the
/// previous snapshot with the records after it stands). Journal failures (a full disk) do not fail the change;
/// ``FileOverrideStore/journalProblem`` reports them.
public struct OverrideJournal: Sendable {
    /// The size past which the journal is rotated: 1 MiB.
    public static let rotationSize = 1 << 20
    /// The largest record: 512 KiB. A larger change is journaled with its keys only (and cannot be undone).
    public static let maximumRecordSize = 512 << 10
    /// The records written after a snapshot of the store before the next one is written: 256 KiB (about 580 changes
    /// of one override of the synthetic catalog), so bringing the snapshot up to date replays at most that much.
    static let snapshotInterval = 256 << 10

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

    /// What an append did, for the decision to write a new snapshot.
    struct Appended {
        /// Why the journal could not be rotated after the lines were written, if so.
        var rotationProblem: String?
        /// The journal's size after the append (0 when it was rotated).
        var size: Int
        /// Whether the journal was rotated: the records before are in the previous journal now.
        var rotated: Bool
        /// Whether a record was too large to carry its entries (it cannot be replayed onto a snapshot).
        var entriesOmitted: Bool
    }

    /// Appends records, each on its own line (the last one naming `store`, the store's file as the change left it),
    /// then rotates if the journal passed ``rotationSize``. Throws when the lines could not be written; a rotation
    /// that failed after they were is returned as a problem (the records are in the journal, which rotates at the
    /// next append that can).
    func append(
        _ records: [OverrideJournalRecord], store: FileFingerprint? = nil
    ) throws(StoreFile.Failure) -> Appended {
        guard !records.isEmpty else { return Appended(size: 0, rotated: false, entriesOmitted: false) }
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
        var entriesOmitted = false
        for (index, record) in records.enumerated() {
            let last = index == records.count - 1
            let (line, carriesEntries) = record.encodedLine(store: last ? store.map(Self.json) : nil)
            entriesOmitted = entriesOmitted || !carriesEntries
            bytes += line
        }
        try StoreFile.writeAll(bytes, to: descriptor, action: "cannot write the journal \(path)")
        let size = Int(info.st_size) + bytes.count
        var appended = Appended(size: size, rotated: false, entriesOmitted: entriesOmitted)
        if size > Self.rotationSize {
            if rename(path, rotatedURL.path) != 0 {
                appended.rotationProblem =
                    StoreFile.Failure.system("cannot rotate the journal \(path) to \(rotatedURL.path)", errno).problem
            } else {
                appended.size = 0
                appended.rotated = true
            }
        }
        return appended
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

    /// Records `bytes` (the store as just saved, `fingerprint` its file) as the state the journal has recorded, as of
    /// the record `through` (the journal `journalSize` bytes long after it): a header line, then the bytes. Written to
    /// a temporary file and renamed, without a flush (a crash may lose it; the previous snapshot and the records
    /// after it then stand for it, or the next writer journals the last change again as made outside, which loses
    /// nothing).
    func writeBase(
        _ bytes: [UInt8], fingerprint: FileFingerprint?, through: String, journalSize: Int
    ) throws(StoreFile.Failure) {
        try check(.journalBase)
        let header: [(key: String, value: JSONValue)] = [
            ("store", fingerprint.map(Self.json) ?? .null), ("through", .string(through)),
            ("journal", .number(String(journalSize))),
        ]
        var headerLine = Array(Self.snapshotMagic.utf8)
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

    /// The store as the journal last recorded it, compared with the store's file that now has `fingerprint`: current
    /// when the snapshot or the journal's last record names the file as it is now (nothing else is read then), else
    /// the snapshot brought up to date by the records after it (`records`, oldest first: read here when `nil`).
    func base(comparedTo fingerprint: FileFingerprint?, records: [OverrideJournalRecord]? = nil) -> BaseState {
        let path = baseURL.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        defer { if descriptor >= 0 { close(descriptor) } }
        let header = descriptor >= 0 ? Self.snapshotHeader(descriptor, path: path) : nil
        if let header, header.fingerprint == fingerprint { return .current }
        if let fingerprint, lastRecordedStore() == fingerprint { return .current }
        guard let header, let bytes = Self.snapshotBytes(descriptor, after: header) else { return .missing }
        let snapshot = Base(fingerprint: header.fingerprint, bytes: bytes)
        // A snapshot without `through` (written by an earlier build) is the store as of the last record.
        guard let through = header.through else { return .recorded(snapshot) }
        let records = records ?? readRecords().records
        guard let index = records.lastIndex(where: { $0.id == through }), index < records.count - 1 else {
            // Its record is gone (two rotations without a snapshot in between) or none came after it.
            return .recorded(snapshot)
        }
        let later = records[(index + 1)...]
        // A record without its entries cannot be replayed: the records alone then tell what is known.
        guard !later.contains(where: \.entriesOmitted), var document = try? OverrideDocument(parsing: bytes) else {
            return .missing
        }
        for record in later {
            for change in record.changes where document[change.key] != change.new { document[change.key] = change.new }
        }
        return .recorded(Base(fingerprint: nil, bytes: document.encodedBytes()))
    }

    /// The first line of a snapshot this build writes. Earlier builds wrote the header object alone on the first line
    /// and took that snapshot for the store as of the journal's last record; they cannot read this line, so they fall
    /// back to what the records tell (``derivedBase(records:current:)``) instead of taking the changes recorded after
    /// the snapshot for changes made outside.
    static let snapshotMagic = "service-configuration-journal-snapshot 2\n"

    /// What a snapshot's header line says.
    struct SnapshotHeader {
        /// The store's file when the snapshot was written (`nil`: there was none).
        var fingerprint: FileFingerprint?
        /// The id of the last record the snapshot includes (`nil`: written by an earlier build).
        var through: String?
        /// The journal's size after that record (`nil`: written by an earlier build).
        var journalSize: Int?
        /// Where the store's bytes start, after the header line.
        var bodyOffset: Int
        /// The snapshot file's size.
        var fileSize: Int
    }

    /// The header of the snapshot, if there is a usable one (a private regular file, not too large, this format).
    func snapshotHeader() -> SnapshotHeader? {
        let path = baseURL.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Self.snapshotHeader(descriptor, path: path)
    }

    private static func snapshotHeader(_ descriptor: Int32, path: String) -> SnapshotHeader? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (try? checkPrivate(info, path: path)) != nil,
            info.st_size <= OverrideStoreLimits.maximumFileSize + 4096
        else { return nil }
        var head = [UInt8](repeating: 0, count: min(4096, Int(info.st_size)))
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
        guard count > 0 else { return nil }
        // This build's magic line, then the header; or (an earlier build's) the header alone.
        let magic = Array(snapshotMagic.utf8)
        let start = head[..<count].starts(with: magic) ? magic.count : 0
        guard let newline = head[start..<count].firstIndex(of: 0x0A),
            case .object(let header)? = try? StrictJSON.parse(Array(head[start..<newline]))
        else { return nil }
        var through: String?
        var journalSize: Int?
        for member in header {
            switch (member.key, member.value) {
            case ("through", .string(let id)): through = id
            case ("journal", .number(let literal)): journalSize = Int(literal)
            default: break
            }
        }
        return SnapshotHeader(
            fingerprint: fingerprint(in: header), through: through, journalSize: journalSize, bodyOffset: newline + 1,
            fileSize: Int(info.st_size))
    }

    /// The store's bytes in the snapshot open as `descriptor`.
    private static func snapshotBytes(_ descriptor: Int32, after header: SnapshotHeader) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max(0, header.fileSize - header.bodyOffset))
        var total = 0
        while total < bytes.count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + total, $0.count - total, off_t(header.bodyOffset + total))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            total += got
        }
        return total == bytes.count ? bytes : nil
    }

    /// The store's file as the journal's last record left it (its `store` member), `nil` when unknown: no record, a
    /// last line cut short (its writer stopped), a record of an earlier build, or a journal that cannot be read.
    func lastRecordedStore() -> FileFingerprint? {
        for file in [url, rotatedURL] {
            let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                if errno == ENOENT { continue }
                return nil
            }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (try? Self.checkPrivate(info, path: file.path)) != nil else {
                return nil
            }
            let size = Int(info.st_size)
            if size == 0 { continue }
            // The last line, read from the end: a little first, more when the line is longer (a record holds at most
            // `maximumRecordSize` bytes).
            var length = min(size, 4096)
            while true {
                var tail = [UInt8](repeating: 0, count: length)
                let got = tail.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress!, length, off_t(size - length))
                }
                guard got == length, tail.last == 0x0A else { return nil }
                let line: ArraySlice<UInt8>
                if let newline = tail.dropLast().lastIndex(of: 0x0A) {
                    line = tail[(newline + 1)..<(length - 1)]
                } else if length == size {
                    line = tail[..<(length - 1)]
                } else if length < Self.maximumRecordSize * 2 {
                    length = min(size, length * 8)
                    continue
                } else {
                    return nil
                }
                guard case .object(let members)? = try? StrictJSON.parse(Array(line)),
                    members.contains(where: { $0.key == "store" })
                else { return nil }
                return Self.fingerprint(in: members)
            }
        }
        return nil
    }

    /// Whether the change just appended (`appended`) should write a new snapshot: there is none usable (or one from
    /// an earlier build), the journal rotated or was replaced since, a record lost its entries, or the records since
    /// the snapshot passed ``snapshotInterval``.
    func needsSnapshot(after appended: Appended) -> Bool {
        guard !appended.rotated, !appended.entriesOmitted, let header = snapshotHeader(), header.through != nil,
            let before = header.journalSize
        else { return true }
        return appended.size < before || appended.size - before > Self.snapshotInterval
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

    /// A fingerprint as the base header and the records write it.
    static func json(_ fingerprint: FileFingerprint) -> JSONValue {
        .object([
            ("device", .number(String(fingerprint.device))), ("inode", .number(String(fingerprint.inode))),
            ("size", .number(String(fingerprint.size))), ("modified", .number(String(fingerprint.modified))),
            ("changed", .number(String(fingerprint.changed))),
        ])
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
