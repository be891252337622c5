import DemoConfiguration
import Foundation
import ServiceConfiguration
import ServiceConfigurationCore
import ServiceConfigurationFileStore
import SharedTestSupport
import Testing

/// A manifest file is read into memory the reader gives back page by page as it goes (``ManifestBuffer``); a
/// document the fast reader does not finish is read again from the file. Whatever way it went, the catalog and every
/// refusal are those of reading the same bytes whole.
@Suite("Manifest files: read while their pages are given back, with the same result as reading them whole")
struct ManifestFileReadingTests {
    /// A manifest of 40,000 keys: about 7 MB, so both threads read and each gives pages back, a megabyte at a time.
    static let bytes: [UInt8] = {
        guard let catalog = try? DemoConfiguration.synthetic(keys: 40_000, scopes: 200).catalog else { return [] }
        return catalog.manifestBytes()
    }()

    /// `body`'s result in a fresh folder, removed after it.
    static func inTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// What reading `bytes` from a file gave, and what reading them whole gave: the catalog's manifest or the error.
    static func outcomes(_ bytes: [UInt8]) throws -> (file: String, whole: String) {
        try inTemporaryFolder { folder in try outcomes(bytes, in: folder) }
    }

    private static func outcomes(_ bytes: [UInt8], in folder: URL) throws -> (file: String, whole: String) {
        let url = folder.appendingPathComponent("catalog.json")
        try Data(bytes).write(to: url)
        func outcome(_ read: () throws -> ConfigurationCatalog) -> String {
            do {
                return String(decoding: try read().manifestJSON(), as: UTF8.self)
            } catch {
                return "refused: \(error)"
            }
        }
        return (
            outcome { try ConfigurationCatalog(manifestAt: url) },
            outcome { try ConfigurationCatalog(manifest: Data(bytes), source: url) }
        )
    }

    @Test("a large manifest reads to the same catalog, every key of both halves")
    func sameCatalog() throws {
        try #require(Self.bytes.count > 6 << 20)
        let (file, whole) = try Self.outcomes(Self.bytes)
        #expect(file == String(decoding: Self.bytes, as: UTF8.self))
        #expect(file == whole)
    }

    /// `bytes` in a ``ManifestBuffer``.
    static func buffer(_ bytes: [UInt8]) throws -> ManifestBuffer {
        try #require(
            ManifestBuffer(
                capacity: bytes.count,
                fill: { target in
                    bytes.withUnsafeBytes { target.copyMemory(from: $0) }
                    return bytes.count
                }))
    }

    @Test("the reader takes a plain manifest from a buffer it gives back as it goes, on both threads")
    func fromBuffer() throws {
        let buffer = try Self.buffer(Self.bytes)
        #expect(buffer.count == Self.bytes.count)
        let catalog = try #require(try ConfigurationCatalog(manifestBuffer: buffer, source: nil))
        #expect(catalog.manifestBytes() == Self.bytes)
        // The pages read were given back by both threads: most of each half reads as zeros now.
        let (first, second) = buffer.withUnsafeBytes { bytes in
            let middle = bytes.count / 2
            return (bytes[..<middle].count { $0 == 0 }, bytes[middle...].count { $0 == 0 })
        }
        let half = Self.bytes.count / 2
        #expect(first > half / 2 && second > half / 2, "given back: \(first) and \(second) bytes of \(half) a half")
        // Not the plain form (a byte-order mark, which only the decoder takes): nothing to say but that it was not
        // read (the caller reads the file again).
        #expect(
            try ConfigurationCatalog(manifestBuffer: Self.buffer([0xEF, 0xBB, 0xBF] + Self.bytes), source: nil) == nil)
    }

    @Test("a key refused early, near the middle or at the end gives the same refusal", arguments: [0.05, 0.5, 0.97])
    func sameRefusal(place: Double) throws {
        var bytes = Self.bytes
        // The first toggle default at or after the place: `"default":"N"` becomes a value a toggle refuses.
        let needle = Array(#""default":"N""#.utf8)
        var index = Int(Double(bytes.count) * place)
        while !bytes[index..<(index + needle.count)].elementsEqual(needle) { index += 1 }
        bytes[index + needle.count - 2] = UInt8(ascii: "X")
        let (file, whole) = try Self.outcomes(bytes)
        #expect(file.hasPrefix("refused: "), "\(file.prefix(200))")
        #expect(file.contains("\"X\""), "\(file.prefix(200))")
        #expect(file == whole)
    }

    @Test("a scope's start written inside a key's unknown member past the middle: read again, same catalog")
    func decoyScopeStart() throws {
        var bytes = Self.bytes
        // The second thread starts where `,` and a newline come before `{"keys":[`; here that text comes first inside
        // a member this format does not define, so this thread reads past the place without arriving there.
        let lineStart = try #require(bytes[(bytes.count / 2)...].firstIndex(of: UInt8(ascii: "\n"))) + 1
        #expect(bytes[lineStart] == UInt8(ascii: "{"))
        bytes.insert(contentsOf: Array("\"x\":[0,\n{\"keys\":[]}],".utf8), at: lineStart + 1)
        let (file, whole) = try Self.outcomes(bytes)
        #expect(file == String(decoding: Self.bytes, as: UTF8.self))
        #expect(file == whole)
    }

    @Test("an indented manifest, which the fast reader does not take, reads to the same catalog")
    func indented() throws {
        let catalog = try DemoConfiguration.synthetic(keys: 6_000, scopes: 30).catalog
        let object = try JSONSerialization.jsonObject(with: catalog.manifestJSON())
        let indented = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        let (file, whole) = try Self.outcomes([UInt8](indented))
        #expect(file == String(decoding: catalog.manifestJSON(), as: UTF8.self))
        #expect(file == whole)
    }

    @Test("a manifest read from a named pipe is read as a stream, whole")
    func namedPipe() throws {
        try Self.inTemporaryFolder { folder in try Self.readThroughPipe(in: folder) }
    }

    private static func readThroughPipe(in folder: URL) throws {
        let path = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(path, 0o600) == 0)
        let bytes = Self.bytes
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            try? handle.write(contentsOf: Data(bytes))
            try? handle.close()
        }
        writer.start()
        let catalog = try ConfigurationCatalog(manifestAt: URL(fileURLWithPath: path))
        #expect(catalog.manifestBytes() == bytes)
    }
}
