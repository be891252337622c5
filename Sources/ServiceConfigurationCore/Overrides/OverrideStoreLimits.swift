/// The sizes the override store accepts, shared by every reader and every writer: a write that would produce a file
/// the reader refuses is refused before anything is written.
///
/// ```swift
/// OverrideStoreLimits.maximumNoteSize            // 4096 bytes of UTF-8
/// try store.set("Y", forKey: key, note: longNote) // throws OverrideStoreError, kind .limitExceeded
/// ```
public enum OverrideStoreLimits {
    /// The largest store file, in bytes (8 MiB). A larger file is not read at all; a save that would produce one is
    /// refused.
    public static let maximumFileSize = 8 << 20
    /// The largest key name, in bytes of UTF-8 (1 KiB).
    public static let maximumKeySize = 1 << 10
    /// The largest override value (and server value kept with it), in bytes of UTF-8 (1 MiB).
    public static let maximumValueSize = 1 << 20
    /// The largest note, in bytes of UTF-8 (4 KiB).
    public static let maximumNoteSize = 4 << 10

    /// Why a store file of `size` bytes cannot be written, or `nil` when it is within ``maximumFileSize``.
    package static func fileSizeViolation(_ size: Int) -> String? {
        guard size > maximumFileSize else { return nil }
        return "the file would be \(ByteCount.describe(size)); the limit is \(ByteCount.describe(maximumFileSize)); "
            + "nothing was saved"
    }

    /// Why `entry` under `key` cannot be written, or `nil` when it is within every limit (and its preserved fields
    /// are JSON the reader accepts).
    public static func violation(key: String, entry: OverrideEntry) -> String? {
        violation(key: key, entry: entry, checkingPreservedFields: true)
    }

    /// ``violation(key:entry:)``; the parser skips the check of preserved fields it has just read itself.
    package static func violation(key: String, entry: OverrideEntry, checkingPreservedFields: Bool) -> String? {
        let keySize = key.utf8.count
        if keySize == 0 { return "an override needs a key name" }
        if keySize > maximumKeySize {
            return "the key name is \(ByteCount.describe(keySize)); the limit is \(ByteCount.describe(maximumKeySize))"
        }
        func label() -> String { keySize > 80 ? String(key.prefix(77)) + "..." : key }
        let valueSize = entry.value.utf8.count
        if valueSize > maximumValueSize {
            return "the value of \(label()) is \(ByteCount.describe(valueSize)); the limit is "
                + ByteCount.describe(maximumValueSize)
        }
        if let server = entry.serverValueWhenSet, server.utf8.count > maximumValueSize {
            return "the server value of \(label()) is \(ByteCount.describe(server.utf8.count)); the limit is "
                + ByteCount.describe(maximumValueSize)
        }
        if let note = entry.note, note.utf8.count > maximumNoteSize {
            return "the note of \(label()) is \(ByteCount.describe(note.utf8.count)); the limit is "
                + ByteCount.describe(maximumNoteSize)
        }
        if checkingPreservedFields {
            for (name, json) in entry.preservedFields.sorted(by: { $0.key < $1.key }) {
                if name.isEmpty || (try? StrictJSON.parse(Array(json.utf8))) == nil {
                    return "the preserved field \"\(name)\" of \(label()) is not valid JSON"
                }
            }
        }
        return nil
    }
}

/// Sizes for people: exact bytes, with a rounded binary unit when that helps (`10695475 bytes (10.2 MiB)`).
package enum ByteCount {
    /// `count` bytes as text: `512 bytes`, `5000 bytes (4.9 KiB)`, `8 MiB` for an exact power.
    package static func describe(_ count: Int) -> String {
        let units: [(Int, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        guard let (size, name) = units.first(where: { count >= $0.0 }) else {
            return count == 1 ? "1 byte" : "\(count) bytes"
        }
        if count % size == 0 { return "\(count / size) \(name)" }
        // One decimal, rounded down so a size just over a limit is never shown as equal to it (computed so that no
        // count, up to Int.max, overflows).
        let tenths = count / size * 10 + count % size * 10 / size
        return "\(count) bytes (\(tenths / 10).\(tenths % 10) \(name))"
    }
}
