package import Foundation

/// Reads a whole file, refusing one larger than a limit without reading past it, so a wrong path (`/dev/zero`, a
/// disk image) fails fast instead of filling memory. Follows the path like `cat`: FIFOs and `/dev/stdin` work.
package enum BoundedFileReader {
    package enum Failure: Error {
        case unreadable(String)
        case tooLarge(limit: Int)
    }

    package static func read(_ url: URL, limit: Int) throws(Failure) -> Data {
        var data = Data()
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while data.count <= limit, let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
            }
        } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
        guard data.count <= limit else { throw .tooLarge(limit: limit) }
        return data
    }
}
