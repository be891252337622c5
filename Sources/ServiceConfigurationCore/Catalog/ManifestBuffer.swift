import Foundation

/// A manifest's bytes in memory of their own (mapped anonymously, page-aligned), which the manifest's reader gives
/// back to the system page by page as it reads them: a manifest of a million keys is 177 MB, and holding it whole
/// while its descriptors are made raised a tool's peak memory by as much.
///
/// The pages given back read as zeros afterwards, so a reader that gives any back cannot fall back to reading the
/// same bytes again; ``ConfigurationCatalog/init(manifestBuffer:source:)`` says so (`nil`), and its caller reads the
/// file again. A zero byte is never valid JSON, so a reader that came upon a page given back would give up too,
/// rather than read anything wrong.
package final class ManifestBuffer: Sendable {
    /// Where the memory starts, as a number (so the buffer can be shared with the reader's second thread).
    private let address: UInt
    /// How many bytes were mapped.
    private let mapped: Int
    /// How many bytes it holds.
    package let count: Int
    /// How many bytes a read gives back at least at a time (fewer calls; a page is 4 KiB).
    private static let releaseStep = 1 << 20

    /// Fresh memory of up to `capacity` bytes, filled by `fill` (which returns how many it wrote); `nil` when the
    /// system gives no memory (the caller reads into an array instead).
    package init?<Failure: Error>(
        capacity: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) {
        let size = max(capacity, 1)
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            base != MAP_FAILED
        else { return nil }
        let filled: Int
        do {
            filled = try fill(UnsafeMutableRawBufferPointer(start: base, count: capacity))
        } catch {
            munmap(base, size)
            throw error
        }
        address = UInt(bitPattern: base)
        mapped = size
        count = min(capacity, filled)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(bitPattern: address), mapped)
    }

    /// Calls `body` with the bytes (those given back read as zeros).
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
    }

    /// Gives back the whole pages between `start` and `end` (offsets) once they come to a megabyte, or reach the
    /// end; returns where the next call starts (past the pages given back, or `start`). One thread calls this for
    /// the range it reads, each time with what the last call returned.
    package func release(from start: Int, to end: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (start + page - 1) / page * page
        let last = end / page * page
        guard last > first, last - first >= Self.releaseStep || end >= count else { return start }
        madvise(UnsafeMutableRawPointer(bitPattern: address + UInt(first)), last - first, Int32(MADV_DONTNEED))
        return last
    }
}

/// The bytes a manifest is read from, shared with the reader's second thread: an array, or a ``ManifestBuffer``
/// whose pages the reader gives back as it goes.
enum ManifestSource: Sendable {
    case array([UInt8])
    case buffer(ManifestBuffer)

    /// How many bytes.
    var count: Int {
        switch self {
        case .array(let bytes): bytes.count
        case .buffer(let buffer): buffer.count
        }
    }

    /// Whether reading gives pages back.
    var releases: Bool {
        if case .buffer = self { return true }
        return false
    }

    /// Calls `body` with the bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch self {
        case .array(let bytes): try bytes.withUnsafeBytes(body)
        case .buffer(let buffer): try buffer.withUnsafeBytes(body)
        }
    }

    /// Gives back what lies between `start` and `end`, read (``ManifestBuffer/release(from:to:)``); nothing for an
    /// array. Returns where the next call starts.
    func release(from start: Int, to end: Int) -> Int {
        if case .buffer(let buffer) = self { return buffer.release(from: start, to: end) }
        return start
    }
}
